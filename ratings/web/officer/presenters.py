"""Rows the officer pages' templates show, built from what the selectors read (the templates only format)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.urls import reverse

from ratings import permissions
from ratings.models.tournament import Tournament
from ratings.selectors.tournament_states import TournamentState

if TYPE_CHECKING:
    from ratings.models.player import Player
    from ratings.web.officer.views.results_entry import Entry


@dataclass(frozen=True)
class DashboardRow:
    tournament: Tournament
    correctable: bool  # the officer may write it now (scope and the WO 6.2 year): the edit links
    days_overdue: int  # days since the six weeks after its end ran out (WO 6.2)
    state: TournamentState | None = None  # its way to the DSB (selectors.tournament_states)

    @property
    def days_left(self) -> int:
        """Days until the six weeks after its end run out (WO 6.2): "noch N Tage" while positive."""
        return -self.days_overdue


def dashboard_rows(
    user, tournaments, *, states: dict[int, TournamentState] | None = None
) -> list[DashboardRow]:
    states = states or {}
    return [
        DashboardRow(
            tournament=t,
            correctable=permissions.may_correct(user, t),
            days_overdue=permissions.days_past_evaluation_deadline(t.end_date),
            state=states.get(t.pk),
        )
        for t in tournaments
    ]


def report_changes(changes: list, *, keys: dict[int, str]) -> list[dict]:
    """The report page's DWZ changes (stored in the session as (pk, name, old, new)), each linked to the
    player's Karteikarte while he still exists."""
    return [
        {
            "name": name,
            "old": old,
            "new": new,
            "url": reverse("ratings:player-detail", args=[keys[pk]]) if pk in keys else None,
        }
        for pk, name, old, new in changes
    ]


def report_tournaments(tournaments: list) -> list[dict]:
    """The report page's recalculated tournaments (stored as (pk, name)), linked to their public pages."""
    return [
        {"pk": pk, "name": name, "url": reverse("ratings:tournament-detail", args=[pk])}
        for pk, name in tournaments
    ]


def merge_url(keep: Player, drop: Player) -> str:
    return reverse("ratings:officer-merge") + "?" + urlencode({"keep": keep.pk, "drop": drop.pk})


def duplicate_rows(pairs, allowed: set[int] | None) -> list[dict]:
    """The likely duplicates: a merge link where the officer may merge both (``allowed`` None: staff)."""
    rows = []
    for a, b, reason in pairs:
        mergeable = allowed is None or (a.pk in allowed and b.pk in allowed)
        rows.append({"a": a, "b": b, "reason": reason, "url": merge_url(a, b) if mergeable else None})
    return rows


def participant_rows(players, *, states: dict, games: list[dict]) -> list[dict]:
    """A draft's participants by number, each with his rating state before and whether he has games."""
    seated = {pk for g in games for pk in (g["white"], g["black"]) if pk}
    return [
        {"no": i, "player": p, "state": states.get(p.pk), "has_games": p.pk in seated}
        for i, p in enumerate(players, start=1)
    ]


def grid_rows(entry: Entry) -> list[dict]:
    """The round robin's grid on the results page: a row per player, a cell per opponent with its field
    name, its mirror (the opponent's cell), the entered value and its errors."""
    grid = entry.grid_form
    rows = []
    for i, a in enumerate(entry.players):
        cells: list[dict[str, object]] = []
        for j, b in enumerate(entry.players):
            if a.pk == b.pk:
                cells.append({"self": True})
                continue
            name = grid.cell_name(a.pk, b.pk)
            cells.append(
                {
                    "name": name,
                    "mirror": grid.cell_name(b.pk, a.pk),
                    "value": grid.cell_value(a.pk, b.pk),
                    "errors": grid.errors.get(name, [])
                    if grid.is_bound and hasattr(grid, "cleaned_data")
                    else [],
                    "label": f"{a} – {b}",
                    "row": i,
                    "col": j,
                }
            )
        rows.append({"no": i + 1, "player": a, "cells": cells})
    return rows
