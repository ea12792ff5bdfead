"""Club figures: members, rated members, active/passive per membership, average DWZ of all rated members and
of the best 8 and best 10; the club comparison of a federation (ranked by the average of the best 10).

The current memberships with their player's DWZ, summed up here.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery

from ratings.dwz.rounding import rhu_div
from ratings.enums import PlayerStatus
from ratings.models import Club, Membership, Organisation, Player
from ratings.selectors.stichtag import split, value_at


@dataclass(frozen=True, slots=True)
class ClubStats:
    members: int
    rated: int
    active: int
    passive: int
    average: int | None  # of every rated member, half up
    best8: int | None  # of the best 8 (None with fewer than 8 rated members)
    best10: int | None


def _stats(rows: list[tuple[int | None, str]]) -> ClubStats:
    ratings = sorted((dwz for dwz, _status in rows if dwz is not None), reverse=True)

    def mean(values: list[int], need: int) -> int | None:
        return rhu_div(sum(values), len(values)) if values and len(values) >= need else None

    return ClubStats(
        members=len(rows),
        rated=len(ratings),
        active=sum(1 for _dwz, status in rows if status == PlayerStatus.ACTIVE),
        passive=sum(1 for _dwz, status in rows if status == PlayerStatus.PASSIVE),
        average=mean(ratings, 1),
        best8=mean(ratings[:8], 8),
        best10=mean(ratings[:10], 10),
    )


def club_stats(*, club: Club, stichtag: datetime.date | None = None) -> ClubStats:
    """The club's figures (one query: its current memberships from the club's index, each with its player's
    DWZ looked up by primary key; at ``stichtag``: his DWZ at that day, ``selectors.stichtag``)."""
    if stichtag is not None:
        day_rows = (
            Membership.objects.current()
            .filter(club=club)
            .order_by()
            .annotate(day_value=value_at(stichtag, pk="player_id"))
            .values_list("day_value", "status")
        )
        return _stats([(split(value)[0], status) for value, status in day_rows])
    # Joined, PostgreSQL hashed every player of the federation (a sequential scan of 100,000 players for a
    # club of 1,235 members); the members' keys as a list of parameters cost more than the lookups.
    dwz = Player.objects.filter(pk=OuterRef("player_id")).order_by().values("dwz")[:1]
    rows = (
        Membership.objects.current()
        .filter(club=club)
        .order_by()
        .annotate(player_dwz=Subquery(dwz))
        .values_list("player_dwz", "status")
    )
    return _stats(list(rows))


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    rank: int | None
    club: Club
    stats: ClubStats


def club_comparison(*, organisation: Organisation) -> list[ComparisonRow]:
    """The clubs of ``organisation`` and below, best average of the best 10 first (equal averages share a
    rank; clubs with fewer than 10 rated members follow, unranked, by their average)."""
    below = Organisation.objects.subtree(organisation)
    clubs = {c.pk: c for c in Club.objects.filter(organisation__in=below).select_related("organisation")}
    by_club: dict[int, list[tuple[int | None, str]]] = defaultdict(list)
    rows = (
        Membership.objects.current()
        .filter(club__organisation__in=below)
        .values_list("club_id", "player__dwz", "status")
    )
    for club_id, dwz, status in rows:
        by_club[club_id].append((dwz, status))
    stats = [(clubs[pk], _stats(by_club.get(pk, []))) for pk in clubs]
    stats.sort(key=lambda cs: (cs[1].best10 is None, -(cs[1].best10 or 0), -(cs[1].average or 0), cs[0].zps))
    out: list[ComparisonRow] = []
    for i, (club, s) in enumerate(stats):
        rank = None
        if s.best10 is not None:
            previous = out[-1] if out else None
            same = previous is not None and previous.stats.best10 == s.best10
            rank = previous.rank if previous is not None and same else i + 1
        out.append(ComparisonRow(rank, club, s))
    return out
