"""The DWZ at a date (Stichtag): each player's DWZ-Index after his last evaluation or adjustment on or before
that day, in the evaluation order of spec §9 (a day's adjustments before its tournaments).

Only what set a rating counts (``EvaluationQuerySet.setting_rating``: a first rating or a rated player with
games; an evaluation without games leaves DWZ and index as they were), and a dated adjustment with a DWZ; the
undated start value is the player's beginning. ``last_evaluated`` at a day is the end of his last evaluation
that set his DWZ on or before it, as ``Player.last_evaluated`` is today's.

The lists need the value of every player in the database's order, so it is one SQL expression per player
(``StichtagValue``): two probes of one row each, the player's last rating evaluation by the index on
``(player, end_date)`` and his last adjustment by the one on ``player``. DWZ and index travel as one number,
``dwz * 100000 + index + 1`` (0 for no index), whose order is the list's order (DWZ, then the higher index),
so a page's sort, rank and split need the subquery once per player.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import BigIntegerField, Expression, ExpressionWrapper, F, IntegerField, Max, Value
from django.db.models.functions import Mod, NullIf

from ratings.enums import EvaluationStatus
from ratings.models import Evaluation, Player, RatingAdjustment

SCALE = 100_000
# The annotation a queryset carries when it lists the values at a Stichtag (``lists.list_rows(stichtag=…)``).
VALUE = "stichtag_value"


def split(value: int | None) -> tuple[int | None, int | None]:
    """``StichtagValue``'s number as (DWZ, index)."""
    if value is None:
        return None, None
    dwz, rest = divmod(value, SCALE)
    return dwz, (rest - 1 if rest else None)


class StichtagValue(Expression):
    """``dwz * 100000 + index + 1`` of the player (the outer query's ``pk``) at ``day``; NULL: unrated."""

    output_field = BigIntegerField()

    def __init__(self, day: datetime.date, pk: Expression | F | None = None) -> None:
        super().__init__()
        self.day = day
        self.pk = pk if pk is not None else F("pk")

    def get_source_expressions(self):
        return [self.pk]

    def set_source_expressions(self, exprs):
        (self.pk,) = exprs

    def as_sql(self, compiler, connection):
        pk_sql, pk_params = compiler.compile(self.pk)
        q = connection.ops.quote_name
        day = connection.ops.adapt_datefield_value(self.day)
        evaluation, adjustment = q(Evaluation._meta.db_table), q(RatingAdjustment._meta.db_table)
        # Only quoted table names, the compiled pk column and constants are formatted in; values are params.
        sql = (
            "(SELECT x.v FROM ("  # noqa: S608
            "SELECT * FROM (SELECT e.end_date AS d, 1 AS k, "
            f"e.dwz_new * {SCALE} + COALESCE(e.index_new + 1, 0) AS v FROM {evaluation} e "
            f"WHERE e.player_id = {pk_sql} AND e.end_date <= %s AND e.dwz_new IS NOT NULL "
            "AND (e.status = %s OR (e.status = %s AND e.n > 0)) "
            "ORDER BY e.end_date DESC, e.code_suffix DESC NULLS FIRST, e.tournament_id DESC LIMIT 1) ev "
            "UNION ALL "
            "SELECT * FROM (SELECT a.date AS d, 0 AS k, "
            f"a.dwz * {SCALE} + COALESCE(a.{q('index')} + 1, 0) AS v FROM {adjustment} a "
            f"WHERE a.player_id = {pk_sql} AND a.dwz IS NOT NULL AND (a.date IS NULL OR a.date <= %s) "
            "ORDER BY a.date DESC NULLS LAST, a.id DESC LIMIT 1) ad"
            ") x ORDER BY x.d DESC NULLS LAST, x.k DESC LIMIT 1)"
        )
        first, rated = EvaluationStatus.FIRST.value, EvaluationStatus.RATED.value
        return sql, (*pk_params, day, first, rated, *pk_params, day)


def dwz_of(value: Expression | F) -> Expression:
    """The DWZ part of a ``StichtagValue`` (integer division on SQLite and PostgreSQL alike)."""
    rest = Mod(value, Value(SCALE), output_field=BigIntegerField())
    return ExpressionWrapper((value - rest) / Value(SCALE), output_field=IntegerField())


def index_of(value: Expression | F) -> Expression:
    rest = Mod(value, Value(SCALE), output_field=BigIntegerField())
    return ExpressionWrapper(NullIf(rest, Value(0)) - Value(1), output_field=IntegerField())


def last_evaluated(*, player_ids: Iterable[int] | None, day: datetime.date) -> dict[int, datetime.date]:
    """Each player's last evaluation that set his DWZ on or before ``day`` (of ``player_ids``, or all; one
    grouped query)."""
    rows = Evaluation.objects.setting_rating().filter(end_date__lte=day).order_by()
    if player_ids is not None:
        rows = rows.filter(player_id__in=list(player_ids))
    return dict(rows.values("player_id").annotate(last=Max("end_date")).values_list("player_id", "last"))


def values_at(*, player_ids: Iterable[int], day: datetime.date) -> dict[int, tuple[int | None, int | None]]:
    """(DWZ, index) at ``day`` of each of ``player_ids`` (``StichtagValue``; one query per 2,000)."""
    ids = list(player_ids)
    out: dict[int, tuple[int | None, int | None]] = {}
    for start in range(0, len(ids), 2000):
        rows = (
            Player.objects.filter(pk__in=ids[start : start + 2000])
            .annotate(**{VALUE: StichtagValue(day)})
            .values_list("pk", VALUE)
        )
        out.update({pk: split(value) for pk, value in rows})
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
