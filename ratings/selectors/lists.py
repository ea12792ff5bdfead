"""Rating lists (Ranglisten): players with their current DWZ, primary club and rank.

The rank is the position by DWZ among the rows the caller filters (a window over the filtered rows).
"""

from __future__ import annotations

import datetime

from django.db.models import F, OuterRef, QuerySet, Subquery, Value, Window
from django.db.models.functions import Coalesce, Rank

from ratings.models import Club, Membership, Organisation, Player


def _primary_membership() -> QuerySet[Membership]:
    """The player's primary club: current memberships, A over P (formats.md §3.2)."""
    return Membership.objects.current().filter(player=OuterRef("pk")).primary_first()


def rating_list() -> QuerySet[Player]:
    """Players with their primary club (name, ZPS, member number) and a rank by DWZ, best first."""
    primary = _primary_membership()
    return (
        Player.objects.annotate(
            club_name=Subquery(primary.values("club__name")[:1]),
            club_zps=Subquery(primary.values("club__zps")[:1]),
            member_number=Subquery(primary.values("member_number")[:1]),
            # Sort keys with unrated/unknown values below every real one, on SQLite and PostgreSQL alike.
            dwz_sort=Coalesce("dwz", Value(-1)),
            elo_sort=Coalesce("fide_elo", Value(-1)),
            last_sort=Coalesce("last_evaluated", Value(datetime.date(1900, 1, 1))),
        )
        .annotate(rank=Window(Rank(), order_by=F("dwz").desc(nulls_last=True)))
        # Equal DWZ share a rank; among them the higher index (the better established rating) first.
        .order_by(
            F("dwz").desc(nulls_last=True), F("index").desc(nulls_last=True), "surname", "first_name", "pk"
        )
    )


def club_members(*, club: Club) -> QuerySet[Player]:
    """The rating list of a club's current members, with their member number in this club."""
    number = Membership.objects.current().filter(player=OuterRef("pk"), club=club).values("member_number")[:1]
    return rating_list().in_club(club).annotate(club_member_number=Subquery(number))


def organisation_members(*, organisation: Organisation) -> QuerySet[Player]:
    """The rating list of the current members of the clubs of ``organisation`` and below."""
    return rating_list().in_organisation(organisation)
