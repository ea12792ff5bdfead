"""Reads for lists and exports (see docs/recalculation.md for the meaning of the derived fields)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from ratings.models import Membership, Player


def rating_list(*, only_rated: bool = True) -> QuerySet[Player]:
    """Players with their current DWZ, best first, memberships (with clubs) prefetched."""
    qs = Player.objects.all()
    if only_rated:
        qs = qs.filter(dwz__isnull=False)
    return qs.order_by("-dwz", "surname", "first_name", "pk").prefetch_related(
        Prefetch("memberships", queryset=Membership.objects.current().select_related("club").primary_first())
    )


def player_club(player: Player):
    """The player's primary club (current memberships prefetched, primary first, to avoid a query)."""
    memberships = list(player.memberships.all())
    return memberships[0].club if memberships else None
