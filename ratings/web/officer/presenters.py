"""Rows the officer pages' templates show, built from what the selectors read (the templates only format)."""

from __future__ import annotations

from dataclasses import dataclass

from ratings import permissions
from ratings.models.tournament import Tournament


@dataclass(frozen=True)
class DashboardRow:
    tournament: Tournament
    correctable: bool  # the officer may write it now (scope and the WO 6.2 year): the edit links
    days_overdue: int  # days since the six weeks after its end ran out (WO 6.2)


def dashboard_rows(user, tournaments) -> list[DashboardRow]:
    return [
        DashboardRow(
            tournament=t,
            correctable=permissions.may_correct(user, t),
            days_overdue=permissions.days_past_evaluation_deadline(t.end_date),
        )
        for t in tournaments
    ]
