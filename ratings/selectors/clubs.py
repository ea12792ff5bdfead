"""Clubs and federations (Organisation): the club list, a club's page, a federation's page."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from ratings.models import Club, Membership, Organisation, Tournament, TournamentEntry
from ratings.models.player import current_membership_q
from ratings.selectors.tournaments import tournament_list


def club_list() -> QuerySet[Club]:
    """Clubs with their federation and number of current members, by ZPS.

    The members are counted per club row (an index probe each, for the rows a page reads), not by joining
    and grouping every membership of the federation: at 2 M that cost 420 ms a page, and the page's count
    joined them too."""
    current = (
        Membership.objects.filter(current_membership_q(), club=OuterRef("pk"))
        .order_by()
        .values("club")
        .annotate(n=Count("*"))
        .values("n")
    )
    return (
        Club.objects.select_related("organisation")
        .annotate(members=Coalesce(Subquery(current, output_field=IntegerField()), Value(0)))
        .order_by("zps")
    )


def club(*, zps: str) -> Club | None:
    return Club.objects.select_related("organisation__parent").filter(zps=zps.upper()[:5]).first()


def club_tournaments(*, club: Club, limit: int = 20) -> QuerySet[Tournament]:
    """The latest ``limit`` tournaments organised by the club or with one of its current members taking part,
    latest first (three queries)."""
    members = Membership.objects.current().filter(club=club).values("player_id")
    # The members' entries through the entry's player index (no join of every entry and no DISTINCT).
    played = TournamentEntry.objects.filter(player__in=members).values("tournament_id")
    order = ("-end_date", "-pk")
    # The latest of each side on its own: ORed in one query, PostgreSQL read the members' side as a hashed
    # subplan over every entry of the federation; alone, a large club's walks the latest tournaments and a
    # small club's reads its few entries.
    organised = Tournament.objects.filter(organiser_club=club).order_by(*order)
    ids = [
        *organised.values_list("pk", flat=True)[:limit],
        *Tournament.objects.filter(pk__in=played).order_by(*order).values_list("pk", flat=True)[:limit],
    ]
    return tournament_list().filter(pk__in=ids).order_by(*order)[:limit]


def club_past_members(*, club: Club) -> QuerySet[Membership]:
    """Ended memberships of the club (the membership history), latest first."""
    return (
        Membership.objects.filter(club=club, valid_until__isnull=False)
        .select_related("player", "club")
        .order_by("-valid_until", "player__name_sort", "pk")
    )


def organisation(*, code: str) -> Organisation | None:
    return Organisation.objects.select_related("parent").filter(code=code.upper()[:3]).first()


def organisation_children(*, organisation: Organisation) -> QuerySet[Organisation]:
    return Organisation.objects.filter(parent=organisation).order_by("code")


def organisation_clubs(*, organisation: Organisation) -> QuerySet[Club]:
    """The clubs directly in ``organisation`` (not those of the federations below it)."""
    return club_list().filter(organisation=organisation)


def organisation_and_below(*, organisation: Organisation) -> QuerySet[Organisation]:
    """``organisation`` and every federation below it, by code (the federation filter's choices)."""
    return Organisation.objects.subtree(organisation).order_by("code")


def organisations_for_choice() -> QuerySet[Organisation]:
    """Every federation by code, for a select (code and name only)."""
    return Organisation.objects.only("code", "name").order_by("code")
