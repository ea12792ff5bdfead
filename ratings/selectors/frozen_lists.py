"""Frozen lists (Stichtagslisten) for reading: the lists, one list's rows, and what a later recalculation
revised since it was frozen (old → new, and the tournament that gives the value now)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import F, QuerySet, Value
from django.db.models.functions import Coalesce

from ratings.models import AuditEvent, FrozenList, FrozenListRow, Tournament
from ratings.models.audit import AuditAction, AuditObjectType
from ratings.selectors import stichtag as at


def frozen_lists() -> QuerySet[FrozenList]:
    """Every frozen list, the latest Stichtag first, with its area."""
    return FrozenList.objects.select_related("organisation", "club").order_by("-stichtag", "-pk")


def frozen_list(*, pk: int) -> FrozenList | None:
    return frozen_lists().filter(pk=pk).first()


def frozen_rows(*, frozen: FrozenList) -> QuerySet[FrozenListRow]:
    """The list's rows, each with ``hidden``: its player objected to publication since (issue 30 §4)."""
    return (
        FrozenListRow.objects.filter(frozen_list=frozen)
        # A row whose player was deleted since is hidden too: whether he objected can no longer be known.
        .annotate(hidden=Coalesce(F("player__publication_objection"), Value(True)))
        .order_by("position")
    )


@dataclass(frozen=True)
class Revision:
    """A row whose DWZ-Index at the Stichtag a recalculation has changed since the list was frozen."""

    row: FrozenListRow
    dwz: int | None
    index: int | None
    tournament: Tournament | None  # the tournament of his last rating evaluation up to the Stichtag now
    new_source: bool  # that tournament is not the one the frozen value came from (entered or moved since)


def revisions(*, frozen: FrozenList, rows: Sequence[FrozenListRow] | None = None) -> list[Revision]:
    """The rows (of ``rows``, or all of the list) whose values at the Stichtag differ now (three queries per
    2,000 rows: the values now, their tournaments, the tournaments' names)."""
    rows = list(frozen_rows(frozen=frozen)) if rows is None else list(rows)
    ids = [r.player_id for r in rows if r.player_id is not None]
    now = at.values_at(player_ids=ids, day=frozen.stichtag)
    changed = [r for r in rows if r.player_id is not None and now.get(r.player_id) != (r.dwz, r.index)]
    came_from = at.sources(player_ids=[r.player_id for r in changed if r.player_id], day=frozen.stichtag)
    tournaments = Tournament.objects.in_bulk(set(came_from.values()))
    out = []
    for row in changed:
        assert row.player_id is not None
        dwz, index = now[row.player_id]
        source = came_from.get(row.player_id)
        out.append(
            Revision(
                row=row,
                dwz=dwz,
                index=index,
                tournament=tournaments.get(source) if source else None,
                new_source=source != row.source_id,
            )
        )
    return out


def changes_since(*, frozen: FrozenList, limit: int = 50) -> list[AuditEvent]:
    """What was entered, corrected or deleted since the list was frozen (tournaments, games, adjustments),
    latest first: the causes of its revisions."""
    # Tournaments and their games only: an adjustment's text names its player, who may have objected to
    # publication (issue 30 §4); a game's text names its players too, so games show their tournament.
    kinds = (AuditObjectType.TOURNAMENT,)
    return list(
        AuditEvent.objects.filter(created_at__gt=frozen.created_at, object_type__in=kinds)
        .exclude(
            action__in=(AuditAction.SUBMIT, AuditAction.ANNOUNCE, AuditAction.CONFIRM, AuditAction.DEVIATE)
        )
        .order_by("-created_at", "-pk")[:limit]
    )
