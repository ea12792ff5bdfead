"""One player: the Karteikarte (memberships, history of evaluations and adjustments, chart points)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import F, Prefetch

from ratings.enums import AdjustmentKind, EvaluationStatus
from ratings.models import Evaluation, Membership, Player, RatingAdjustment


@dataclass
class HistoryRow:
    """One row of a player's history: an evaluation or a rating adjustment."""

    number: int | None  # running number of rating-changing evaluations
    date: datetime.date | None
    kind: str  # "evaluation" or "adjustment"
    evaluation: Evaluation | None = None
    adjustment: RatingAdjustment | None = None
    before: int | None = None  # an Umstufung's DWZ before it (the stored value of the previous row)

    @property
    def dwz_after(self) -> int | None:
        if self.evaluation is not None:
            return self.evaluation.dwz_new
        return self.adjustment.dwz if self.adjustment else None

    @property
    def index_after(self) -> int | None:
        if self.evaluation is not None:
            return self.evaluation.index_new
        return self.adjustment.index if self.adjustment else None

    @property
    def change(self) -> int | None:
        e = self.evaluation
        if e is None:
            a = self.adjustment
            umstufung = a is not None and a.kind == AdjustmentKind.UMSTUFUNG
            return (
                a.dwz - self.before if umstufung and a.dwz is not None and self.before is not None else None
            )
        if e.dwz_new is None or e.dwz_old is None:
            return None
        return e.dwz_new - e.dwz_old


def player(*, key: str) -> Player | None:
    """The player with memberships (club, organisation; primary first, then the ended ones) prefetched."""
    memberships = Membership.objects.select_related("club__organisation").primary_first()
    return (
        Player.objects.filter(key=key).prefetch_related(Prefetch("memberships", queryset=memberships)).first()
    )


def history(*, player: Player) -> list[HistoryRow]:
    """Evaluations and adjustments in replay order (adjustments of a day before that day's tournaments)."""
    # A tournament he played as a non-member gives him nothing and is not on his card (WO 3.4.3).
    evaluations = list(
        Evaluation.objects.filter(player=player)
        .exclude(status=EvaluationStatus.NON_MEMBER)
        .select_related("tournament")
        .in_evaluation_order()
    )
    adjustments = list(
        RatingAdjustment.objects.filter(player=player).order_by(F("date").asc(nulls_first=True), "pk")
    )
    events: list[tuple[tuple, HistoryRow]] = []
    for adj in adjustments:
        date_key = adj.date or datetime.date.min
        events.append(((date_key, 0, adj.pk), HistoryRow(None, adj.date, "adjustment", adjustment=adj)))
    for pos, ev in enumerate(evaluations):
        events.append(((ev.end_date, 1, pos), HistoryRow(None, ev.end_date, "evaluation", evaluation=ev)))
    events.sort(key=lambda item: item[0])
    rows = [row for _key, row in events]
    number = 0
    last: int | None = None
    for row in rows:
        if row.evaluation is not None and row.evaluation.changes_rating:
            number += 1
            row.number = number
        if row.evaluation is None:
            row.before = last
        if row.dwz_after is not None and (row.evaluation is None or row.evaluation.changes_rating):
            last = row.dwz_after
    return rows


def chart_points(*, rows: Iterable[HistoryRow]) -> list[dict]:
    """Data for the history chart: one point per DWZ-setting row (stored values only)."""
    points = []
    for row in rows:
        if row.dwz_after is None:
            continue
        if row.evaluation is not None and not row.evaluation.changes_rating:
            continue
        points.append(
            {
                "date": row.date.isoformat() if row.date else None,
                "dwz": row.dwz_after,
                "performance": row.evaluation.performance if row.evaluation else None,
                "label": row.evaluation.tournament.name
                if row.evaluation
                else str(row.adjustment.get_kind_display()),
            }
        )
    return points
