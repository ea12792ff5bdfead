"""Rows the officer pages' templates show, built from what the selectors read (the templates only format)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from ratings import permissions
from ratings.enums import BYE_RESULTS, ResultCode
from ratings.models.audit import AuditEvent, AuditObjectType
from ratings.models.tournament import Tournament
from ratings.selectors.tournament_states import TournamentState
from ratings.services import audit
from ratings.web.audit_display import change_lines

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


# --- corrections: what a save changed in the tournament itself (issue 32) --------------------------------

VERSION_GAMES_SHOWN = 60  # a first entry adds every game; the report lists so many and counts the rest


@dataclass(frozen=True)
class GameChangeRow:
    """One pairing a save changed, as the report and the restore page show it."""

    where: str  # "Runde 3, Brett 2"
    pair: str  # "Müller, Hans – Schulze, Eva" or "Carl, Test (spielfrei)"
    old: str | None  # the result before, None for a new pairing
    new: str | None  # the result after, None for a removed one


def _result_shown(code: str) -> str:
    if code in BYE_RESULTS:
        return str(dict(ResultCode.choices).get(code, code))
    return audit.result_text(code=code)


def _game_row(change: audit.GameChange) -> GameChangeRow:
    where = (
        _("Runde %(round)s, Brett %(board)s") % {"round": change.round, "board": change.board}
        if change.board
        else _("Runde %(round)s") % {"round": change.round}
    )
    pair = (
        f"{change.white} – {change.black}"
        if change.black is not None
        else _("%(name)s (spielfrei)") % {"name": change.white}
    )
    return GameChangeRow(
        where=where,
        pair=pair,
        old=None if change.old is None else _result_shown(change.old),
        new=None if change.new is None else _result_shown(change.new),
    )


def version_changes(*, before: dict | None, after: dict | None) -> dict:
    """What differs from the snapshot ``before`` to ``after`` of one tournament: head lines ("Name: A → B",
    with names and local dates), participants added and removed, and the changed pairings (cells old → new),
    the first ``VERSION_GAMES_SHOWN`` of them with the count of the rest."""
    diff = audit.snapshot_diff(before=before, after=after)
    event = AuditEvent(object_type=AuditObjectType.TOURNAMENT, changes={"head": diff.get("head", {})})
    games = [_game_row(c) for c in audit.game_changes(before=before, after=after)]
    return {
        "head": change_lines(event),
        "entries_added": diff.get("entries_added", []),
        "entries_removed": diff.get("entries_removed", []),
        "games": games[:VERSION_GAMES_SHOWN],
        "games_more": max(0, len(games) - VERSION_GAMES_SHOWN),
        "empty": not diff,
    }


def with_restore_links(events: list, *, tournament_id: int, restorable: set[int]) -> list:
    """Set ``event.restore_url`` on the save rows whose version before is stored ("Fassung davor
    wiederherstellen" in the audit trail); None on the others."""
    for event in events:
        event.restore_url = (
            reverse("ratings:tournament-restore-version", args=[tournament_id, event.pk])
            if event.pk in restorable
            else None
        )
    return events
