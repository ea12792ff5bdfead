"""The DWZ at a date (Stichtag): each player's DWZ-Index after his last evaluation or adjustment on or before
that day, in the evaluation order of spec §9 (a day's adjustments before its tournaments).

Only what set a rating counts (``EvaluationQuerySet.setting_rating``: a first rating or a rated player with
games; an evaluation without games leaves DWZ and index as they were), and a dated adjustment with a DWZ; the
undated start value is the player's beginning. ``last_evaluated`` at a day is the end of his last evaluation
that set his DWZ on or before it, as ``Player.last_evaluated`` is today's.

Both are read from the players' rating spans (``RatingSpan``, kept by the recalculation from the stored rows):
at every day each player has exactly one span, found by ``alive``. DWZ and index travel as one number,
``dwz * 100000 + index + 1`` (0 in a span without a DWZ, None here), whose order is the list's order (DWZ,
then the higher index).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import (
    BigIntegerField,
    Expression,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Value,
)
from django.db.models.functions import Mod, NullIf

from ratings.models import Evaluation, RatingSpan
from ratings.models.span import SCALE

# The annotations a queryset carries when it lists the values at a Stichtag (``lists.list_rows(stichtag=…)``):
# the value (None: no DWZ), the span's raw value (the order), and the last evaluation at the day.
VALUE = "stichtag_value"
SPAN_VALUE = "stichtag_span_value"
LAST = "stichtag_last"


def split(value: int | None) -> tuple[int | None, int | None]:
    """A span's number as (DWZ, index); None or 0: no DWZ."""
    if not value:
        return None, None
    dwz, rest = divmod(value, SCALE)
    return dwz, (rest - 1 if rest else None)


def alive(day: datetime.date, prefix: str = "") -> Q:
    """The span of each player at ``day`` (``prefix``: the path to the spans, ``"rating_spans__"``)."""
    return Q(**{f"{prefix}valid_from__lte": day, f"{prefix}valid_until__gt": day})


def value_at(day: datetime.date, pk: str = "pk") -> Expression:
    """The number of the player (the outer query's ``pk``) at ``day`` as a correlated lookup of his span (one
    index probe): for a few rows; a list joins the spans instead (``lists.as_of``)."""
    spans = RatingSpan.objects.filter(alive(day), player=OuterRef(pk))
    return NullIf(Subquery(spans.values("value")[:1]), Value(0), output_field=BigIntegerField())


def dwz_of(value: Expression | F) -> Expression:
    """The DWZ part of a value (integer division on SQLite and PostgreSQL alike)."""
    rest = Mod(value, Value(SCALE), output_field=BigIntegerField())
    return ExpressionWrapper((value - rest) / Value(SCALE), output_field=IntegerField())


def index_of(value: Expression | F) -> Expression:
    rest = Mod(value, Value(SCALE), output_field=BigIntegerField())
    return ExpressionWrapper(NullIf(rest, Value(0)) - Value(1), output_field=IntegerField())


def _spans_at(player_ids: Iterable[int] | None, day: datetime.date):
    spans = RatingSpan.objects.filter(alive(day)).order_by()
    if player_ids is None:
        yield spans
        return
    ids = list(player_ids)
    for start in range(0, len(ids), 2000):
        yield spans.filter(player_id__in=ids[start : start + 2000])


def last_evaluated(*, player_ids: Iterable[int] | None, day: datetime.date) -> dict[int, datetime.date]:
    """Each player's last evaluation that set his DWZ on or before ``day`` (of ``player_ids``, or all)."""
    out: dict[int, datetime.date] = {}
    for spans in _spans_at(player_ids, day):
        out.update(spans.filter(last_evaluated__isnull=False).values_list("player_id", "last_evaluated"))
    return out


def values_at(*, player_ids: Iterable[int], day: datetime.date) -> dict[int, tuple[int | None, int | None]]:
    """(DWZ, index) at ``day`` of each of ``player_ids`` (one query per 2,000)."""
    ids = list(player_ids)
    out: dict[int, tuple[int | None, int | None]] = dict.fromkeys(ids, (None, None))
    for spans in _spans_at(ids, day):
        out.update((pk, split(value)) for pk, value in spans.values_list("player_id", "value"))
    return out


def sources(*, player_ids: Iterable[int], day: datetime.date) -> dict[int, int]:
    """The tournament of each player's last rating evaluation on or before ``day`` (one query per 2,000)."""
    ids = list(player_ids)
    out: dict[int, int] = {}
    for start in range(0, len(ids), 2000):
        rows = (
            Evaluation.objects.setting_rating()
            .filter(player_id__in=ids[start : start + 2000], end_date__lte=day, dwz_new__isnull=False)
            .in_evaluation_order()
            .values_list("player_id", "tournament_id")
        )
        out.update(dict(rows))  # the last in the order wins
    return out
