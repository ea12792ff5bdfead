"""The "Kreuztabelle" tab's paste box: a pasted crosstable written into the posted grid cells before they are
bound. Nothing here saves results."""

from __future__ import annotations

from django.http import QueryDict
from django.utils.translation import gettext as _

from ratings.models.player import Player
from ratings.web.officer.forms import parse_round_robin_block


def paste(players: list[Player], data: QueryDict) -> list[str]:
    """The paste box's text written into the grid cells of ``data``; its messages."""
    text = data.get("paste", "")
    if not text.strip():
        return [_("Nichts zum Übernehmen eingefügt.")]
    values, errors = parse_round_robin_block(text, players)
    for name, value in values.items():
        data[name] = value
    if not errors:
        data["paste"] = ""
    return errors
