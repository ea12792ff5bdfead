"""The captain's pages (Mannschaftsführer): his matches and the match report on a phone."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from leagues import permissions
from leagues.models import LeagueResult, Match
from leagues.selectors.line_ups import order_warnings, report_form
from leagues.services.matches import match_report_save

from .forms import boards_from_post, score_text


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    matches = (
        permissions.captain_matches(request.user)
        .select_related("home", "away", "division", "division__season")
        .order_by("scheduled_date", "round")
    )
    divisions = permissions.directed_divisions(request.user).select_related("season")
    rankings = permissions.ranking_lists(request.user).select_related("club", "season")
    return render(
        request,
        "leagues/captain/my_matches.html",
        {"matches": matches, "divisions": divisions, "rankings": rankings},
    )


def _match(pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("home", "away", "division", "division__season", "reported_by"), pk=pk
    )


@login_required
def match_report(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    if not permissions.can_see_report(request.user, match):
        raise PermissionDenied
    editable = permissions.can_report(request.user, match)
    errors: list[str] = []
    if request.method == "POST":
        if not editable:
            raise PermissionDenied
        boards, errors = boards_from_post(request.POST, match.division.boards)
        if not errors:
            try:
                match_report_save(match=match, boards=boards, user=request.user)
            except ValidationError as exc:
                errors = exc.messages
            else:
                messages.success(request, _("Spielbericht gespeichert."))
                for pair in order_warnings(match=match):
                    messages.warning(
                        request,
                        _("Brettreihenfolge: Bretter %(pair)s folgen nicht der Rangliste.") % {"pair": pair},
                    )
                return redirect("leagues:match-report", pk=match.pk)
    form = report_form(match=match)
    return render(
        request,
        "leagues/captain/match_report.html",
        {
            "match": match,
            "form": form,
            "editable": editable,
            "score": score_text(match),
            "errors": errors,
            "results": LeagueResult.choices,
            "quick": request.POST.get("quick", "") if request.method == "POST" else "",
        },
        status=400 if errors else 200,
    )
