"""Batched per-player loading for the incremental replay (``incremental.Frontier.track``): what the replay
needs of the players it tracks in one loading round, in as few queries as the database allows.

PostgreSQL takes the ids of a round in one query (one array parameter, ``of_players``); SQLite binds at
most 999 parameters, so there the lists go in ``IN`` chunks of ``IN_CHUNK``.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable, Collection, Hashable, Iterator
from typing import Any

from django.db import connection
from django.db.models import BooleanField, F, Func, QuerySet, TextField, Value

from ratings import bulk
from ratings.dwz.replay import OrderKey, adjustment_order
from ratings.models import Evaluation, RatingAdjustment, Restpartie

from ._base import IN_CHUNK, chunks
from ._write import EVALUATION_FIELDS

# On PostgreSQL a round's players in one query (a round meets a few thousand at 2 M evaluations).
PG_CHUNK = 50_000


def player_chunks(players: Collection[int]) -> list[list[int]]:
    """``players`` in lists small enough for one query each, sorted."""
    return list(chunks(sorted(players), IN_CHUNK if connection.vendor == "sqlite" else PG_CHUNK))


class AnyOf(Func):
    """``column = ANY(%s)`` with the ids as one array parameter (PostgreSQL): an ``IN`` list of 5,000 ids
    costs the ORM and psycopg a parameter each to build and parse (a third of the late chain's CPU at 2 M
    evaluations, profiled), an array one. The array goes as its text (``{1,2,…}``, cast by the server):
    psycopg dumps a Python list element by element (2 ms of CPU per 4,000 ids, the text 0.1 ms)."""

    arg_joiner = " = ANY("
    template = "%(expressions)s::integer[])"
    output_field = BooleanField()


def of_players(
    queryset: QuerySet[Any], players: Collection[int], column: str = "player_id"
) -> list[QuerySet[Any]]:
    """``queryset`` restricted to ``players`` (in ``column``): one query on PostgreSQL, one per chunk of
    ``IN_CHUNK`` ids on SQLite."""
    if connection.vendor != "postgresql":
        return [queryset.filter(**{f"{column}__in": chunk}) for chunk in player_chunks(players)]
    ids = Value("{" + ",".join(map(str, sorted(players))) + "}", output_field=TextField())
    return [queryset.filter(AnyOf(F(column), ids))]


class _Ids(str):
    """Where the id array goes in a statement compiled once (``select_of``; found by identity)."""


class _Date(datetime.date):
    """Where a date goes in a statement compiled once (``select_of``; found by identity)."""


# (alias, key) -> the compiled SQL, its parameters with the markers, and (parameter, value) places.
_STATEMENTS: dict[tuple[str, Hashable], tuple[str, list[Any], list[tuple[int, int]]]] = {}


def select_of(
    key: Hashable,
    build: Callable[..., QuerySet[Any]],
    ids: Collection[int],
    column: str = "player_id",
    *dates: datetime.date,
) -> Iterator[tuple[Any, ...]]:
    """The rows (``bulk.select_rows``) of ``build(*dates)``, a ``values_list`` query, restricted to ``ids``
    in ``column`` (``of_players``).

    On PostgreSQL the query is built and compiled once per ``key`` (with markers for the ids and the dates)
    and later runs only put their values in: a loading round of the late chain runs a dozen such queries,
    and building and compiling each cost the ORM 0.4–0.7 ms of CPU (500 queries at 2 M evaluations), as
    much as the server's work for most of them. ``key`` must name everything ``build`` puts into the query
    but the ids and ``dates``."""
    if connection.vendor != "postgresql":
        return itertools.chain.from_iterable(map(bulk.select_rows, of_players(build(*dates), ids, column)))
    compiled = _STATEMENTS.get((connection.alias, key))
    if compiled is None:
        compiled = _STATEMENTS[(connection.alias, key)] = _compile(build, column, len(dates))
    sql, params, places = compiled
    values = ["{" + ",".join(map(str, sorted(ids))) + "}", *dates]
    params = list(params)
    for at, value in places:
        params[at] = values[value]
    return bulk.select_sql(sql, params)  # handed on as it is: a generator here cost a frame per row


def _compile(
    build: Callable[..., QuerySet[Any]], column: str, dates: int
) -> tuple[str, list[Any], list[tuple[int, int]]]:
    markers: list[Any] = [_Ids("{}"), *(_Date(2000, 1, 1) for _ in range(dates))]
    queryset = build(*markers[1:]).filter(AnyOf(F(column), Value(markers[0], output_field=TextField())))
    sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
    places = [
        (at, i) for at, param in enumerate(params) for i, marker in enumerate(markers) if param is marker
    ]
    if {i for _, i in places} != set(range(len(markers))):  # a marker converted: its place is unknown
        raise RuntimeError(f"select_of: a parameter of {sql!r} lost its marker")
    return sql, list(params), places


def dated_adjustments(
    since: OrderKey, removed: Collection[int]
) -> dict[int, list[tuple[OrderKey, int, int, int]]]:
    """Every dated adjustment from ``since`` on but the ``removed`` ones, by player: ``(order, pk, dwz,
    index)`` (one query: a handful per year, against a scattered lookup per player)."""
    found: dict[int, list[tuple[OrderKey, int, int, int]]] = {}
    rows = (
        RatingAdjustment.objects.filter(date__isnull=False, date__gte=since[0])
        .order_by()
        .values_list("pk", "player_id", "date", "dwz", "index")
    )
    for pk, player_id, date, dwz, index in rows:
        assert date is not None and dwz is not None and index is not None  # a dated adjustment sets both
        order = adjustment_order(date, pk)
        if order >= since and pk not in removed:
            found.setdefault(player_id, []).append((order, pk, dwz, index))
    return found


def update_in_place(rows: list[tuple[Any, ...]], renewed: set[tuple[int, int]]) -> None:
    """Overwrite stored evaluation rows with ``rows`` (``write.EVALUATION_FIELDS[1:]`` order) by tournament
    and player, and delete the Restpartien of the ``renewed`` (tournament, player) pairs (the caller
    inserts their new ones). An update that keeps the keys needs no foreign-key check and no new index
    entries."""
    if rows:  # by (tournament, player), the unique key: no query for the primary keys first
        bulk.update_rows(
            Evaluation,
            EVALUATION_FIELDS[6:],
            [(*row[:2], *row[5:]) for row in rows],
            by=("tournament", "player"),
        )
    if renewed:
        gone = sorted(_ids_of_pairs(Restpartie, renewed, every=True).values())
        for chunk in chunks(gone):
            Restpartie.objects.filter(pk__in=chunk).delete()


def _ids_of_pairs(
    model: type[Evaluation | Restpartie], pairs: Collection[tuple[int, int]], *, every: bool = False
) -> dict[tuple[int, ...], int]:
    """The primary keys of ``model``'s rows of the (tournament, player) ``pairs``, read by tournament (a
    tournament's rows lie together; adding the players made PostgreSQL intersect with a scan of every row
    of those players) and narrowed here. ``every``: several rows per pair (keyed by (tournament, player,
    pk))."""
    wanted = set(pairs)
    query = model.objects.order_by().values_list("tournament_id", "player_id", "pk")
    found: dict[tuple[int, ...], int] = {}
    for part in of_players(query, {tid for tid, _ in wanted}, "tournament_id"):
        for tid, player_id, pk in part:
            if (tid, player_id) in wanted:
                found[(tid, player_id, pk) if every else (tid, player_id)] = pk
    return found
