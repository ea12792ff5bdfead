"""The director's and the rating officer's pages: the division (reports to approve, completeness, the DWZ
tournament with its preview, "Auswerten", parts), one match (approve, results, status), invitations."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import permissions
from leagues.models import Board, Division, LeagueResult, Match, MatchStatus, RankingList, Team
from leagues.selectors.checks import division_checks
from leagues.selectors.division_games import part_preview, part_states, proposed_split
from leagues.services.division_tournament import division_evaluate, division_split
from leagues.services.matches import (
    board_result_change,
    match_approve,
    match_played_on_set,
    match_reopen,
    match_status_set,
)
from leagues.services.roles import Role, captain_invite, role_invite
from leagues.web.captain.forms import score_text
from ratings.tournament_checks import TournamentConflict


def _division(request: HttpRequest, pk: int) -> tuple[Division, bool, bool]:
    division = get_object_or_404(Division.objects.select_related("season"), pk=pk)
    director = permissions.is_director(request.user, division)
    officer = permissions.is_rating_officer(request.user, division)
    if not (director or officer):
        raise PermissionDenied
    return division, director, officer


@login_required
def division_manage(request: HttpRequest, pk: int) -> HttpResponse:
    division, director, officer = _division(request, pk)
    matches = list(
        Match.objects.filter(division=division).select_related("home", "away").prefetch_related("boards")
    )
    teams = list(Team.objects.filter(division=division).select_related("club"))
    ranking_lists = list(_division_ranking_lists(division).select_related("club", "officer"))
    # The preview only where the page shows it: the rating officer's, of a part with a draft.
    parts = [
        {
            "part": state.part,
            "evaluated": state.evaluated,
            "draft": state.draft,
            "preview": part_preview(part=state.part) if officer and state.draft else None,
        }
        for state in part_states(division=division)
    ]
    return render(
        request,
        "leagues/director/division.html",
        {
            "division": division,
            "matches": matches,
            "teams": teams,
            "ranking_lists": ranking_lists,
            "warnings": division_checks(division=division),
            "parts": parts,
            "proposal": proposed_split(division=division),
            "director": director,
            "officer": officer,
        },
    )


@login_required
@require_POST
def division_evaluate_view(request: HttpRequest, pk: int) -> HttpResponse:
    division, _director, officer = _division(request, pk)
    if not officer:
        raise PermissionDenied
    if division_checks(division=division) and not request.POST.get("confirm"):
        messages.error(request, _("Bitte bestätigen Sie die Warnungen, bevor Sie auswerten."))
        return redirect("leagues:division-manage", pk=division.pk)
    try:
        done = division_evaluate(division=division, user=request.user)
    except ValidationError as exc:  # a game the rating services refuse: say which instead of a 500
        for m in exc.messages:
            messages.error(request, m)
    except TournamentConflict:
        messages.error(
            request, _("Die Auswertung wurde inzwischen geändert. Bitte prüfen und erneut auswerten.")
        )
    else:
        messages.success(request, _("Ausgewertet: %(n)s Teil(e).") % {"n": done})
    return redirect("leagues:division-manage", pk=division.pk)


@login_required
@require_POST
def division_split_view(request: HttpRequest, pk: int) -> HttpResponse:
    division, _director, officer = _division(request, pk)
    if not officer:
        raise PermissionDenied
    try:
        dates = [datetime.date.fromisoformat(d) for d in request.POST.getlist("from_date") if d]
        division_split(division=division, from_dates=dates, user=request.user)
    except ValueError:
        messages.error(request, _("Ungültiges Datum."))
    except ValidationError as exc:
        for m in exc.messages:
            messages.error(request, m)
    return redirect("leagues:division-manage", pk=division.pk)


@login_required
def match_manage(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("home", "away", "division", "division__season"), pk=pk
    )
    if not permissions.is_director(request.user, match.division):
        raise PermissionDenied
    if request.method == "POST":
        try:
            _apply(request, match)
        except ValidationError as exc:
            for m in exc.messages:
                messages.error(request, m)
        return redirect("leagues:match-manage", pk=match.pk)
    boards = Board.objects.filter(match=match).select_related("home_player", "away_player")
    return render(
        request,
        "leagues/director/match.html",
        {
            "match": match,
            "boards": boards,
            "results": LeagueResult.choices,
            "statuses": MatchStatus.choices,
            "score": score_text(match),
        },
    )


def _apply(request: HttpRequest, match: Match) -> None:
    action = request.POST.get("action")
    user = request.user
    if action == "approve":
        match_approve(match=match, user=user)
        messages.success(request, _("Spielbericht bestätigt."))
    elif action == "reopen":
        match_reopen(match=match, user=user)
    elif action == "status":
        match_status_set(match=match, status=request.POST.get("status", ""), user=user)
    elif action == "date":
        try:
            day = datetime.date.fromisoformat(request.POST.get("played_on", ""))
        except ValueError:
            raise ValidationError(_("Ungültiges Datum.")) from None
        match_played_on_set(match=match, played_on=day, user=user)
    elif action == "result":
        number = request.POST.get("board", "")
        if not (number.isascii() and number.isdigit() and len(number) <= 3):
            raise ValidationError(_("Unbekanntes Brett."))
        board = get_object_or_404(Board, match=match, number=int(number))
        board_result_change(board=board, result=request.POST.get("result", ""), user=user)
        messages.success(request, _("Ergebnis geändert; gewertet wird weiter das gespielte."))


@login_required
@require_POST
def captain_invite_view(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.select_related("division"), pk=pk)
    try:
        captain_invite(team=team, email=request.POST.get("email", ""), user=request.user, request=request)
    except ValidationError as exc:
        for m in exc.messages:
            messages.error(request, m)
    else:
        messages.success(request, _("Einladung verschickt."))
    return redirect("leagues:division-manage", pk=team.division_id)


def _division_ranking_lists(division: Division):
    """The ranking lists of the season of the clubs with a team in the division."""
    clubs = Team.objects.filter(division=division).values("club_id")
    return RankingList.objects.filter(season_id=division.season_id, club_id__in=clubs)


@login_required
@require_POST
def role_invite_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The director invites the division's rating officer or a club officer of one of its clubs."""
    division = get_object_or_404(Division.objects.select_related("season"), pk=pk)
    role = request.POST.get("role", "")
    target: Division | RankingList
    if role == Role.RATING_OFFICER:
        target = division
    elif role == Role.CLUB_OFFICER:
        chosen = request.POST.get("ranking_list", "")
        if not (chosen.isascii() and chosen.isdecimal()):
            raise Http404
        target = get_object_or_404(_division_ranking_lists(division), pk=int(chosen))
    else:
        messages.error(request, _("Unbekannte Rolle."))
        return redirect("leagues:division-manage", pk=division.pk)
    try:
        role_invite(
            role=role, target=target, email=request.POST.get("email", ""), user=request.user, request=request
        )
    except ValidationError as exc:
        for m in exc.messages:
            messages.error(request, m)
    else:
        messages.success(request, _("Einladung verschickt."))
    return redirect("leagues:division-manage", pk=division.pk)
