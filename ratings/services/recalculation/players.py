"""Batched per-player loading for the incremental replay (``incremental.Frontier.track``): what the replay
needs of the players met in one loading round, in as few queries as the database allows.

PostgreSQL takes the ids of a round in one query (one array parameter, ``of_players``); SQLite binds at
most 999 parameters, so there the lists go in ``IN`` chunks of ``IN_CHUNK``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db import connection
from django.db.models import BooleanField, F, Func, IntegerField, QuerySet, Value

from ratings.enums import AdjustmentKind
from ratings.models import Membership, RatingAdjustment

from .base import IN_CHUNK, chunks

# On PostgreSQL a round's players in one query (a round meets a few thousand at 2 M evaluations).
PG_CHUNK = 50_000


def player_chunks(players: Collection[int]) -> list[list[int]]:
    """``players`` in lists small enough for one query each, sorted."""
    return list(chunks(sorted(players), IN_CHUNK if connection.vendor == "sqlite" else PG_CHUNK))


class AnyOf(Func):
    """``column = ANY(%s)`` with the ids as one array parameter (PostgreSQL): an ``IN`` list of 5,000 ids
    costs the ORM and psycopg a parameter each to build and parse (a third of the late chain's CPU at 2 M
    evaluations, profiled), an array one."""

    arg_joiner = " = ANY("
    template = "%(expressions)s)"
    output_field = BooleanField()


def of_players(queryset: QuerySet, players: Collection[int], column: str = "player_id") -> list[QuerySet]:
    """``queryset`` restricted to ``players`` (in ``column``): one query on PostgreSQL, one per chunk of
    ``IN_CHUNK`` ids on SQLite."""
    if connection.vendor != "postgresql":
        return [queryset.filter(**{f"{column}__in": chunk}) for chunk in player_chunks(players)]
    from django.contrib.postgres.fields import ArrayField  # psycopg: only imported on PostgreSQL

    ids = Value(sorted(players), output_field=ArrayField(IntegerField()))
    return [queryset.filter(AnyOf(F(column), ids))]


@dataclass(slots=True)
class PlayerRows:
    """The players' start values (player pk: (dwz, index, fide_elo)) and which of them hold a membership."""

    start_values: dict[int, tuple[int | None, int | None, int | None]]
    members: set[int]


def load_player_rows(players: Collection[int]) -> PlayerRows:
    """Start values and memberships of ``players``: two index scans (the partial unique index of start
    values, the membership's player index). One query joining both to the player rows made PostgreSQL
    hash all 70,000 start values and 106,000 memberships at 2 M (0.2-0.4 s per loading round, against
    10-25 ms for the two). ``order_by()``: the models' orderings would join the player and club tables."""
    start = RatingAdjustment.objects.filter(kind=AdjustmentKind.START).order_by()
    members = Membership.objects.order_by().values_list("player_id", flat=True).distinct()
    return PlayerRows(
        {
            pk: (dwz, index, fide)
            for part in of_players(start.values_list("player_id", "dwz", "index", "fide_elo"), players)
            for pk, dwz, index, fide in part
        },
        {pk for part in of_players(members, players) for pk in part},
    )
