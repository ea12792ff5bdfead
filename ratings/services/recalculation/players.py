"""Batched per-player loading for the incremental replay (``incremental.Frontier.track``): what the replay
needs of the players it tracks in one loading round, in as few queries as the database allows.

PostgreSQL takes the ids of a round in one query (one array parameter, ``of_players``); SQLite binds at
most 999 parameters, so there the lists go in ``IN`` chunks of ``IN_CHUNK``.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import connection
from django.db.models import BooleanField, F, Func, QuerySet, TextField, Value

from ratings.dwz.replay import OrderKey, adjustment_order
from ratings.models import Evaluation, RatingAdjustment, Restpartie
from ratings.services import bulk

from .base import IN_CHUNK, chunks
from .write import EVALUATION_FIELDS

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


def of_players(queryset: QuerySet, players: Collection[int], column: str = "player_id") -> list[QuerySet]:
    """``queryset`` restricted to ``players`` (in ``column``): one query on PostgreSQL, one per chunk of
    ``IN_CHUNK`` ids on SQLite."""
    if connection.vendor != "postgresql":
        return [queryset.filter(**{f"{column}__in": chunk}) for chunk in player_chunks(players)]
    ids = Value("{" + ",".join(map(str, sorted(players))) + "}", output_field=TextField())
    return [queryset.filter(AnyOf(F(column), ids))]


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


def update_in_place(rows: list[tuple], renewed: set[tuple[int, int]]) -> None:
    """Overwrite stored evaluation rows with ``rows`` (``write.EVALUATION_FIELDS[1:]`` order) by tournament
    and player, and delete the Restpartien of the ``renewed`` (tournament, player) pairs (the caller
    inserts their new ones). An update that keeps the keys needs no foreign-key check and no new index
    entries."""
    if rows:
        wanted = {(row[0], row[1]): row for row in rows}
        ids = _ids_of_pairs(Evaluation, wanted.keys())
        bulk.update_rows(
            Evaluation, EVALUATION_FIELDS[6:], [(ids[pair], *row[5:]) for pair, row in wanted.items()]
        )
    if renewed:
        gone = sorted(_ids_of_pairs(Restpartie, renewed, every=True).values())
        for chunk in chunks(gone):
            Restpartie.objects.filter(pk__in=chunk).delete()


def _ids_of_pairs(model, pairs: Collection[tuple[int, int]], *, every: bool = False) -> dict:
    """The primary keys of ``model``'s rows of the (tournament, player) ``pairs``, read by tournament (a
    tournament's rows lie together; adding the players made PostgreSQL intersect with a scan of every row
    of those players) and narrowed here. ``every``: several rows per pair (keyed by (tournament, player,
    pk))."""
    wanted = set(pairs)
    query = model.objects.order_by().values_list("tournament_id", "player_id", "pk")
    found: dict = {}
    for part in of_players(query, {tid for tid, _ in wanted}, "tournament_id"):
        for tid, player_id, pk in part:
            if (tid, player_id) in wanted:
                found[(tid, player_id, pk) if every else (tid, player_id)] = pk
    return found
