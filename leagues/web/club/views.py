"""The club officer's page (Vereinsspielleiter): his club's ranking list with each entry's DWZ at the
season's reference date (a stored snapshot, taken again on request) and the 400-point rule's warnings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from leagues import permissions
from leagues.core.eligibility import rule_400
from leagues.models import RankingList
from leagues.services.ranking import ranking_snapshot


@login_required
def ranking_list(request: HttpRequest, pk: int) -> HttpResponse:
    ranking = get_object_or_404(RankingList.objects.select_related("club", "season"), pk=pk)
    if not permissions.can_edit_ranking_list(request.user, ranking):
        raise PermissionDenied
    if request.method == "POST":
        n = ranking_snapshot(ranking_list=ranking)
        messages.success(request, _("DWZ zum Stichtag übernommen: %(n)s Einträge geändert.") % {"n": n})
        return redirect("leagues:ranking-list", pk=ranking.pk)
    entries = list(ranking.entries.select_related("player"))
    names = {str(e.player_id): f"{e.player.surname}, {e.player.first_name}" for e in entries}
    season = ranking.season
    warnings = []
    if season.rule_400:
        warnings = [
            _(w.message.template) % dict(w.message.params)
            for w in rule_400(ranking.as_core(), season.rule_400_width, names)
        ]
    return render(
        request,
        "leagues/club/ranking_list.html",
        {"ranking": ranking, "entries": entries, "warnings": warnings},
    )
