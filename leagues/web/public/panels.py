"""The league's panel on the player's card (``ratings``' Karteikarte): his board record per division and
team. ``ratings`` never imports ``leagues``: the card view resolves the dotted names of the setting
``RATINGS_PLAYER_CARD_PANELS`` at runtime and includes each panel's ``template`` (one query per panel)."""

from __future__ import annotations

from django.http import HttpRequest

from leagues.core.types import halves_text
from leagues.selectors.divisions import board_record as board_record_rows


def board_record(request: HttpRequest, *, player) -> dict | None:
    """None for a player who never sat at a league board (the card shows nothing)."""
    rows = board_record_rows(player_id=player.pk)
    if not rows:
        return None
    return {
        "template": "leagues/public/_board_record_panel.html",
        "rows": [
            {
                "division": r.division,
                "team": r.team,
                "boards": ", ".join(str(b) for b in r.score.boards),
                "games": r.score.games,
                "played": r.score.played,
                "points": halves_text(r.score.halves),
            }
            for r in rows
        ],
    }
