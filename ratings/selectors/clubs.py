"""Clubs and federations (Organisation): the club list, a club's page, a federation's page."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from ratings.models import Club, Membership, Organisation, Tournament, TournamentEntry
from ratings.models.player import current_membership_q
from ratings.selectors.tournaments import tournament_list


def club_list() -> QuerySet[Club]:
    """Clubs with their federation and number of current members, by ZPS."""
    return (
        Club.objects.select_related("organisation")
        .annotate(members=Count("memberships", filter=current_membership_q("memberships__"), distinct=True))
        .order_by("zps")
    )


def club(*, zps: str) -> Club | None:
    return Club.objects.select_related("organisation__parent").filter(zps=zps.upper()[:5]).first()


def club_tournaments(*, club: Club) -> QuerySet[Tournament]:
    """Tournaments organised by the club or with one of its current members taking part, latest first."""
    members = Membership.objects.current().filter(club=club).values("player_id")
    # The members' entries through the entry's player index (no join of every entry and no DISTINCT).
    played = TournamentEntry.objects.filter(player__in=members).values("tournament_id")
    return tournament_list().filter(Q(organiser_club=club) | Q(pk__in=played)).order_by("-end_date", "-pk")


def club_past_members(*, club: Club) -> QuerySet[Membership]:
    """Ended memberships of the club (the membership history), latest first."""
    return (
        Membership.objects.filter(club=club, valid_until__isnull=False)
        .select_related("player", "club")
        .order_by("-valid_until", "player__surname", "player__first_name", "pk")
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
