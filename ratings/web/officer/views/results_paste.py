"""The "Ergebnisse" page's buttons that change the posted data before it is bound: add, remove and move
participants, more board rows, a new player, and the paste box. Nothing here saves results."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.http import HttpRequest, QueryDict
from django.utils.translation import gettext as _

from ratings import permissions
from ratings.models.officer import TournamentMode
from ratings.models.player import Player
from ratings.services import players as players_service
from ratings.web.officer.forms import BoardFormSet, NewPlayerForm, parse_board_block, parse_round_robin_block
from ratings.web.officer.views.results_entry import SWISS_BLANK_ROWS

BOARD_FIELDS = ("round", "white", "black", "result")


def apply_actions(request: HttpRequest, data: QueryDict, context: dict) -> None:
    """Participant, row and new-player buttons rewrite ``data``; a refused new player goes to ``context``."""
    ids = data.getlist("p")
    if data.get("add"):
        if data["add"] not in ids:
            ids.append(cast(str, data["add"]))  # django-stubs types a QueryDict value as str | list
        data.setlist("p", ids)
        data["q"] = ""
    if data.get("remove"):
        data.setlist("p", [pk for pk in ids if pk != data["remove"]])
    if data.get("move_up") in ids:
        i = ids.index(cast(str, data["move_up"]))
        if i > 0:
            ids[i - 1], ids[i] = ids[i], ids[i - 1]
        data.setlist("p", ids)
    if "add_rows" in data:
        total = posted_total_forms(data)
        if total is not None:  # else the formset reports the broken management form
            data["b-TOTAL_FORMS"] = str(min(total + SWISS_BLANK_ROWS * 2, BoardFormSet.absolute_max))
    if "new_player" in data:
        _new_player(request, data, context)


def _new_player(request: HttpRequest, data: QueryDict, context: dict) -> None:
    form = NewPlayerForm(data, clubs=permissions.manageable_clubs(request.user))
    if not form.is_valid():
        context["new_player_form"] = form
        context["show_new_player"] = True
        return
    c = form.cleaned_data
    player = players_service.player_create(
        user=request.user,
        surname=c["surname"],
        first_name=c["first_name"],
        birth_year=c["birth_year"],
        sex=c["sex"],
        club=c["club"],
        member_number=c["member_number"] or None,
        fide_id=c["fide_id"],
        fide_elo=c["fide_elo"],
        dwz=c["dwz"],
        index=c["index"],
    )
    data.setlist("p", [*data.getlist("p"), str(player.pk)])
    for name in list(data):
        if name.startswith("np-"):
            del data[name]
    messages.success(request, _("Spieler „%(name)s“ angelegt und hinzugefügt.") % {"name": player.name})


def posted_total_forms(data: QueryDict) -> int | None:
    """The posted board count clamped to the formset's ``absolute_max``; None if it is not a number."""
    raw = (data.get("b-TOTAL_FORMS") or "0").strip()
    if not (raw.isascii() and raw.isdecimal()):
        return None
    return min(int(raw[:9]), BoardFormSet.absolute_max)


def paste(players: list[Player], mode: str, data: QueryDict) -> list[str]:
    """The paste box's text written into the grid cells or board rows of ``data``; its messages."""
    text = data.get("paste", "")
    if not text.strip():
        return [_("Nichts zum Übernehmen eingefügt.")]
    if mode == TournamentMode.ROUND_ROBIN:
        values, errors = parse_round_robin_block(text, players)
        for name, value in values.items():
            data[name] = value
    else:
        rows, errors = parse_board_block(text, players)
        if not _fill_boards(data, rows):
            return errors
    if not errors:
        data["paste"] = ""
    return errors


def _fill_boards(data: QueryDict, rows: list[dict]) -> bool:
    """Pasted board rows into the blank posted rows first, then appended; False for a broken management
    form (the formset reports it)."""
    total = posted_total_forms(data)
    if total is None:
        return False
    blank = [i for i in range(total) if not any((data.get(f"b-{i}-{n}") or "").strip() for n in BOARD_FIELDS)]
    for row in rows:
        i = blank.pop(0) if blank else total
        if i == total:
            total += 1
        for name, value in row.items():
            data[f"b-{i}-{name}"] = str(value)
    data["b-TOTAL_FORMS"] = str(total)
    data.setdefault("b-INITIAL_FORMS", "0")
    return True
