"""Who may write what. Every write view asks these helpers (healthchecks/pretix style), nothing else.

* staff (admin): everything;
* a Wertungsreferent (``OfficerScope``): tournaments organised by an organisation or club inside one of his
  scopes, and players who are members of a club inside them; a scope on an organisation covers every
  organisation and club below it;
* everybody else: read only.

WO 6.2 (spec §17) windows, counted from the tournament's end date to today (the local date):

* a Wertungsreferent may correct or delete a tournament **up to one year** after its end date, the
  anniversary included (end 2025-03-10: still on 2026-03-10, refused from 2026-03-11); a tournament ending on
  29 February reaches its anniversary on 28 February (BGB § 188 Abs. 3: a period whose last month lacks the
  day ends on that month's last day). Later only staff. ``get_tournament_for_user`` refuses every officer page
  of such a tournament (403 with ``OUTSIDE_WINDOW``); an officer may not enter or move a tournament to such an
  end date either (``check_end_date``), else he would create one he could not fill in;
* six weeks (42 days) after the end date there is no right to an evaluation any more: the dashboard lists the
  officer's tournaments past that day that are not yet evaluated (``evaluation_deadline``).

Anonymous users are sent to the login page (``login_required``); logged-in users without the right get 403.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext

from ratings.models.federation import Club, Organisation
from ratings.models.officer import OfficerScope
from ratings.models.player import Player
from ratings.models.tournament import Tournament, TournamentEntry

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
    """The tournament ``pk`` if the user may edit it: 404 if it does not exist, 403 if he may not (with
    ``OUTSIDE_WINDOW`` as the page's text when only the WO 6.2 year stands in the way)."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("organiser_club", "organiser_organisation"), pk=pk
    )
    if not can_manage_tournament(request.user, tournament):
        raise PermissionDenied
    check_correction_window(request.user, tournament)
    check_kept_elsewhere(tournament)
    return tournament


class KeptElsewhere(PermissionDenied):
    """A write on an officer's page to a tournament that another app keeps (a league division's DWZ
    tournament, kept from the approved match reports): 403 with the text saying where it is changed."""


def check_kept_elsewhere(tournament: Tournament) -> None:
    """Raise ``KeptElsewhere`` if an app keeps ``tournament`` (``settings.RATINGS_KEPT_TOURNAMENTS``: dotted
    names of ``() -> Q`` conditions, so ``ratings`` imports none of them): its next sync would overwrite what
    an officer changed here. One query, none without such an app."""
    paths = getattr(settings, "RATINGS_KEPT_TOURNAMENTS", ())
    if not paths:
        return
    condition = Q(pk__in=[])
    for path in paths:
        condition |= import_string(path)()
    if Tournament.objects.filter(condition, pk=tournament.pk).exists():
        raise KeptElsewhere(
            gettext(
                "Dieses Turnier ist die DWZ-Auswertung einer Mannschaftsstaffel und wird aus ihren "
                "Spielberichten geführt: Ergebnisse ändert der Staffelleiter, ausgewertet wird auf der Seite "
                "der Staffel."
            )
        )


# --- WO 6.2 windows --------------------------------------------------------------------------------------

EVALUATION_DAYS = 42  # six weeks after the end date there is no right to an evaluation any more


def outside_window_message() -> str:
    return gettext(
        "Turniere, die vor mehr als einem Jahr endeten, kann nur ein Administrator korrigieren oder löschen."
    )


class OutsideCorrectionWindow(PermissionDenied):
    """A Wertungsreferent's write to a tournament that ended more than a year ago (403; the text says who
    may)."""


def today() -> datetime.date:
    return timezone.localdate()


def correction_deadline(end_date: datetime.date) -> datetime.date:
    """The last day a Wertungsreferent may correct or delete a tournament ending ``end_date``: its first
    anniversary; 29 February → 28 February (BGB § 188 Abs. 3)."""
    try:
        return end_date.replace(year=end_date.year + 1)
    except ValueError:  # 29 February, next year has none
        return end_date.replace(year=end_date.year + 1, day=28)


def evaluation_deadline(end_date: datetime.date) -> datetime.date:
    """The last day with a right to an evaluation: six weeks after the end date."""
    return end_date + datetime.timedelta(days=EVALUATION_DAYS)


def evaluation_cutoff(*, on: datetime.date | None = None) -> datetime.date:
    """Tournaments ending before this day are past their six weeks (``evaluation_deadline`` < today)."""
    return (on or today()) - datetime.timedelta(days=EVALUATION_DAYS)


def days_past_evaluation_deadline(end_date: datetime.date, *, on: datetime.date | None = None) -> int:
    return ((on or today()) - evaluation_deadline(end_date)).days


def window_applies(user) -> bool:
    """Whether the one-year window binds ``user``: every Wertungsreferent, never staff."""
    return settings.OFFICER_CORRECTION_WINDOW and not user_scope(user).is_staff


def in_correction_window(end_date: datetime.date, *, on: datetime.date | None = None) -> bool:
    return (on or today()) <= correction_deadline(end_date)


def may_correct(user, tournament: Tournament, *, on: datetime.date | None = None) -> bool:
    """``user`` may write ``tournament`` (scope and window); the pages show their edit links by this."""
    if not can_manage_tournament(user, tournament):
        return False
    return not window_applies(user) or in_correction_window(tournament.end_date, on=on)


def check_correction_window(user, tournament: Tournament, *, on: datetime.date | None = None) -> None:
    """Raise ``OutsideCorrectionWindow`` if ``user`` is a Wertungsreferent and ``tournament`` (as stored)
    ended more than a year ago. For every write path that has the user: views, and before a service call."""
    if window_applies(user) and not in_correction_window(tournament.end_date, on=on):
        raise OutsideCorrectionWindow(outside_window_message())


def check_end_date(user, end_date: datetime.date | None, *, on: datetime.date | None = None) -> None:
    """A form's end date: ``ValidationError`` if a Wertungsreferent enters or moves a tournament to a day
    more than a year back (he could not correct it afterwards)."""
    if end_date is not None and window_applies(user) and not in_correction_window(end_date, on=on):
        raise ValidationError(outside_window_message(), code="correction_window")


def tournaments_outside_window(user, *, player: Player, on: datetime.date | None = None) -> list[Tournament]:
    """The tournaments ``player`` played in that ``user`` may no longer correct (a merge that drops him
    rewrites their entries); empty for staff. One query."""
    if not window_applies(user):
        return []
    day = on or today()
    ids = TournamentEntry.objects.filter(player=player).values("tournament_id")
    # A refused end date is more than 365 days back; the exact rule (leap days) decides among those.
    candidates = Tournament.objects.filter(pk__in=ids, end_date__lt=day - datetime.timedelta(days=365))
    return [t for t in candidates.order_by("end_date", "pk") if not in_correction_window(t.end_date, on=day)]


def officer_required(view):
    """Login (302 to /anmelden/ for visitors), then 403 unless staff or Wertungsreferent."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs):
        if not is_officer(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper
