"""Batched per-player loading for the incremental replay (``incremental.Frontier.track``): what the replay
needs of the players met in one loading round, in as few queries as the database allows.

PostgreSQL takes a list of ids of any length in one ``IN (...)``; SQLite binds at most 999 parameters, so
there the lists go in chunks of ``IN_CHUNK``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db import connection
from django.db.models import (
    BooleanField,
    Exists,
    F,
    FilteredRelation,
    Func,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Value,
)

from ratings.enums import AdjustmentKind
from ratings.models import Membership, Player

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
    """The players' own rows: current DWZ and index, start values (player pk: (dwz, index, fide_elo)) and
    which of them hold a membership."""

    current: dict[int, tuple[int | None, int | None]]
    start_values: dict[int, tuple[int | None, int | None, int | None]]
    members: set[int]


def load_player_rows(players: Collection[int]) -> PlayerRows:
    """One query (per chunk) for the player rows, their start values (a start value has a DWZ or an Elo,
    so a join without one is no start value) and their memberships. ``order_by()``: the model's ordering
    is not needed."""
    query = (
        Player.objects.annotate(
            start=FilteredRelation("adjustments", condition=Q(adjustments__kind=AdjustmentKind.START))
        )
        .order_by()
        .values_list(
            "pk",
            "dwz",
            "index",
            "start__dwz",
            "start__index",
            "start__fide_elo",
            Exists(Membership.objects.filter(player=OuterRef("pk"))),
        )
    )
    rows = PlayerRows({}, {}, set())
    for part in of_players(query, players, "pk"):
        for pk, dwz, index, start_dwz, start_index, start_fide, member in part:
            rows.current[pk] = (dwz, index)
            if start_dwz is not None or start_fide is not None:
                rows.start_values[pk] = (start_dwz, start_index, start_fide)
            if member:
                rows.members.add(pk)
    return rows
