"""Who may write what. Every write view asks these helpers (healthchecks/pretix style), nothing else.

* staff (admin): everything;
* a Wertungsreferent (``OfficerScope``): tournaments organised by an organisation or club inside one of his
  scopes, and players who are members of a club inside them; a scope on an organisation covers every
  organisation and club below it;
* everybody else: read only.

Anonymous users are sent to the login page (``login_required``); logged-in users without the right get 403.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from ratings.models.federation import Club, Organisation
from ratings.models.officer import OfficerScope
from ratings.models.player import Player
from ratings.models.tournament import Tournament

_CACHE_ATTR = "_officer_scope_cache"


@dataclass(frozen=True)
class Scope:
    """The organisations and clubs one user may edit (ids, descendants included)."""

    organisation_ids: frozenset[int]
    club_ids: frozenset[int]
    is_staff: bool = False

    @property
    def is_empty(self) -> bool:
        return not (self.is_staff or self.organisation_ids or self.club_ids)


def user_scope(user) -> Scope:
    """The user's scope, computed once per request (cached on the user object)."""
    cached = getattr(user, _CACHE_ATTR, None)
    if cached is not None:
        return cached
    if not user.is_authenticated or not user.is_active:
        scope = Scope(frozenset(), frozenset())
    elif user.is_staff:
        scope = Scope(frozenset(), frozenset(), is_staff=True)
    else:
        rows = list(OfficerScope.objects.filter(user=user).values_list("organisation_id", "club_id"))
        roots = {org for org, _club in rows if org is not None}
        clubs = {club for _org, club in rows if club is not None}
        orgs: set[int] = set()
        if roots:
            children: dict[int | None, list[int]] = {}
            for pk, parent in Organisation.objects.values_list("pk", "parent_id"):
                children.setdefault(parent, []).append(pk)
            stack = list(roots)
            while stack:
                pk = stack.pop()
                if pk in orgs:
                    continue
                orgs.add(pk)
                stack.extend(children.get(pk, ()))
            clubs.update(Club.objects.filter(organisation_id__in=orgs).values_list("pk", flat=True))
        scope = Scope(frozenset(orgs), frozenset(clubs))
    setattr(user, _CACHE_ATTR, scope)
    return scope


def is_officer(user) -> bool:
    """Staff or a Wertungsreferent with at least one scope: may create tournaments."""
    return not user_scope(user).is_empty


def can_manage_tournament(user, tournament: Tournament) -> bool:
    scope = user_scope(user)
    if scope.is_staff:
        return True
    if tournament.organiser_club_id is not None:
        return tournament.organiser_club_id in scope.club_ids
    if tournament.organiser_organisation_id is not None:
        return tournament.organiser_organisation_id in scope.organisation_ids
    return False


def can_manage_player(user, player: Player) -> bool:
    scope = user_scope(user)
    if scope.is_staff:
        return True
    if player.pk is None:
        return False
    return player.memberships.filter(club_id__in=scope.club_ids).exists()


def manageable_clubs(user) -> QuerySet[Club]:
    scope = user_scope(user)
    qs = Club.objects.select_related("organisation")
    return qs if scope.is_staff else qs.filter(pk__in=scope.club_ids)


def manageable_organisations(user) -> QuerySet[Organisation]:
    scope = user_scope(user)
    return (
        Organisation.objects.all()
        if scope.is_staff
        else Organisation.objects.filter(pk__in=scope.organisation_ids)
    )


def manageable_tournaments(user) -> QuerySet[Tournament]:
    scope = user_scope(user)
    qs = Tournament.objects.select_related("organiser_club", "organiser_organisation")
    if scope.is_staff:
        return qs
    return qs.filter(
        Q(organiser_club_id__in=scope.club_ids) | Q(organiser_organisation_id__in=scope.organisation_ids)
    )


def get_tournament_for_user(request: HttpRequest, pk: int) -> Tournament:
    """The tournament ``pk`` if the user may edit it: 404 if it does not exist, 403 if he may not."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("organiser_club", "organiser_organisation"), pk=pk
    )
    if not can_manage_tournament(request.user, tournament):
        raise PermissionDenied
    return tournament


def officer_required(view):
    """Login (302 to /anmelden/ for visitors), then 403 unless staff or Wertungsreferent."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs):
        if not is_officer(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper
