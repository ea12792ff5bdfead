"""One player: the Karteikarte (memberships, history of evaluations and adjustments, chart points)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from django.db.models import F, OuterRef, Prefetch, Subquery

from ratings.dwz import sets_rating
from ratings.enums import AdjustmentKind, EvaluationStatus
from ratings.models import Evaluation, Membership, MergedKey, Player, RatingAdjustment, Tournament

# Rows of the Karteikarte per page: a player of 948 evaluations got 603 kB at once (and the server's time
# went into 948 model instances and their rows); the latest page comes first, the rest a link away.
CARD_PAGE_ROWS = 100


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
            if not umstufung or a is None or a.dwz is None or self.before is None:
                return None
            return a.dwz - self.before
        if e.dwz_new is None or e.dwz_old is None:
            return None
        return e.dwz_new - e.dwz_old


def player(*, key: str) -> Player | None:
    """The player with memberships (club, organisation; primary first, then the ended ones) prefetched."""
    memberships = Membership.objects.select_related("club__organisation").primary_first()
    return (
        Player.objects.filter(key=key).prefetch_related(Prefetch("memberships", queryset=memberships)).first()
    )


def merged_into(*, key: str) -> str | None:
    """The key of the player ``key`` was merged into (``MergedKey``), for a redirect; None if it never
    was. One query; a live player with that key wins and is looked up first by the caller."""
    return MergedKey.objects.filter(key=key).values_list("player__key", flat=True).first()


def _card_evaluations(player: Player):
    # A tournament he played as a non-member gives him nothing and is not on his card (WO 3.4.3).
    return Evaluation.objects.filter(player=player).exclude(status=EvaluationStatus.NON_MEMBER)


def _adjustments(player: Player) -> list[RatingAdjustment]:
    return list(
        RatingAdjustment.objects.filter(player=player).order_by(F("date").asc(nulls_first=True), "pk")
    )


def history(*, player: Player) -> list[HistoryRow]:
    """Evaluations and adjustments in replay order (adjustments of a day before that day's tournaments)."""
    evaluations = list(_card_evaluations(player).select_related("tournament").in_evaluation_order())
    return _merged(evaluations, _adjustments(player))


def _merged(evaluations: Sequence, adjustments: Sequence[RatingAdjustment]) -> list[HistoryRow]:
    """The rows of ``evaluations`` (in evaluation order; anything with ``end_date``, ``status``, ``n`` and
    ``dwz_new``) and ``adjustments``, merged and numbered."""
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
        changes = row.evaluation is not None and sets_rating(row.evaluation.status, row.evaluation.n)
        if changes:
            number += 1
            row.number = number
        if row.evaluation is None:
            row.before = last
        if row.dwz_after is not None and (row.evaluation is None or changes):
            last = row.dwz_after
    return rows


@dataclass(frozen=True)
class AsOf:
    """A player's DWZ, index and last rating evaluation after the rows of his history up to a day."""

    dwz: int | None
    index: int | None
    last_evaluated: datetime.date | None


def value_after(rows: Sequence[HistoryRow]) -> AsOf:
    """The values after ``rows`` (a history in replay order, as ``history`` or ``card_page`` give it): the
    last adjustment with a DWZ or evaluation that set the rating decides DWZ and index; the last such
    evaluation is the last evaluation (the same rule as the lists' ``selectors.stichtag``)."""
    dwz = index = last = None
    for row in rows:
        if row.evaluation is not None:
            if not sets_rating(row.evaluation.status, row.evaluation.n) or row.evaluation.dwz_new is None:
                continue
            last = row.date
        elif row.dwz_after is None:
            continue
        dwz, index = row.dwz_after, row.index_after
    return AsOf(dwz=dwz, index=index, last_evaluated=last)


def up_to(rows: list[HistoryRow], day: datetime.date) -> list[HistoryRow]:
    """The rows of a history on or before ``day`` (an undated start value always)."""
    return [row for row in rows if row.date is None or row.date <= day]


@dataclass(frozen=True)
class _Summary:
    """What numbering and the chart need of an evaluation (a tuple, not a model instance, for each of a
    long history's rows; the page's own rows are read whole)."""

    pk: int
    end_date: datetime.date
    status: str
    n: int
    dwz_new: int | None
    performance: int | None
    name: str
    index_new: int | None = None


@dataclass
class CardPage:
    """One page of a Karteikarte: its rows (oldest first, as on the card), the chart of the whole history,
    and where the other pages are (page 1 holds the latest rows)."""

    rows: list[HistoryRow]
    chart: list[dict]
    number: int
    total: int  # rows of the whole history
    first: int  # position of the page's first row in the history, from 1
    pages: list[tuple[int, int | None, int | None]] = field(default_factory=list)  # (page, first year, last)
    # With a Stichtag (``card_page(until=…)``): the history up to that day and the values after it.
    until: datetime.date | None = None
    value: AsOf | None = None

    @property
    def last(self) -> int:
        return self.first + len(self.rows) - 1

    @property
    def older(self) -> int | None:
        return self.number + 1 if self.number < len(self.pages) else None

    @property
    def newer(self) -> int | None:
        return self.number - 1 if self.number > 1 else None


def card_page(
    *, player: Player, page: int = 1, per_page: int | None = None, until: datetime.date | None = None
) -> CardPage:
    """Page ``page`` of the player's history (1: the latest ``per_page`` rows; a page past the oldest is the
    oldest), numbered and charted over the whole history (two queries for a history of one page: its
    evaluations, the adjustments; three for the first page of a longer one: the latest evaluations, the
    history's summaries, the adjustments; four for another page or a Stichtag: and the page's evaluations).
    ``until``: the history up to that day (a Stichtag), with the values after it in ``value``."""
    per_page = per_page or CARD_PAGE_ROWS
    evaluations = _card_evaluations(player).in_evaluation_order()
    # Most histories fit on one page and are read whole in one query (per_page + 1 of the latest tell).
    latest = list(evaluations.select_related("tournament").reverse()[: per_page + 1])
    full = {e.pk: e for e in latest}  # also the rows of a long history's first page (without a Stichtag)
    if len(latest) <= per_page:
        summaries = [_summary(e) for e in reversed(latest)]
    else:
        # Each name by the tournament's primary key: joined, PostgreSQL hashed all 58,789 tournaments of the
        # 2 M federation for a card of 948 rows (a sequential scan, 20 of the query's 50 ms).
        name = Subquery(Tournament.objects.filter(pk=OuterRef("tournament_id")).order_by().values("name")[:1])
        summaries = [
            _Summary(*values)
            for values in evaluations.annotate(tournament_name=name).values_list(
                "pk", "end_date", "status", "n", "dwz_new", "performance", "tournament_name", "index_new"
            )
        ]
    rows = _merged(summaries, _adjustments(player))
    if until is not None:
        rows = up_to(rows, until)
    chart = [_chart_point(row) for row in rows if _charted(row)]
    count = max(1, -(-len(rows) // per_page))
    number = min(max(page, 1), count)
    # Page 1 ends with the latest row; the oldest page may be shorter.
    stop = len(rows) - (number - 1) * per_page
    start = max(stop - per_page, 0)
    shown = rows[start:stop]
    missing = [row.evaluation.pk for row in shown if row.evaluation and row.evaluation.pk not in full]
    if missing:
        full.update(Evaluation.objects.select_related("tournament").in_bulk(missing))
    for row in shown:
        if row.evaluation is not None:
            row.evaluation = full[row.evaluation.pk]
    pages = []
    for n in range(1, count + 1):
        end = len(rows) - (n - 1) * per_page
        years = [row.date.year for row in rows[max(end - per_page, 0) : end] if row.date is not None]
        pages.append((n, min(years, default=None), max(years, default=None)))
    return CardPage(
        rows=shown,
        chart=chart,
        number=number,
        total=len(rows),
        first=start + 1,
        pages=pages,
        until=until,
        value=value_after(rows) if until is not None else None,
    )


def _summary(evaluation: Evaluation) -> _Summary:
    e = evaluation
    return _Summary(e.pk, e.end_date, e.status, e.n, e.dwz_new, e.performance, e.tournament.name, e.index_new)


def _chart_point(row: HistoryRow) -> dict[str, Any]:
    summary = cast("_Summary | None", row.evaluation)  # the whole history is charted from its summaries
    if summary is not None:
        performance, label = summary.performance, summary.name
    else:
        assert row.adjustment is not None  # a row is an evaluation or an adjustment
        performance, label = None, str(row.adjustment.get_kind_display())
    return {
        "date": row.date.isoformat() if row.date else None,
        "dwz": row.dwz_after,
        "performance": performance,
        "label": label,
    }


def _charted(row: HistoryRow) -> bool:
    if row.dwz_after is None:
        return False
    return row.evaluation is None or sets_rating(row.evaluation.status, row.evaluation.n)
