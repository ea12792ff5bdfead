"""The DSB XML export on the officer's side: the check list before the download, the download (which records
the submission), and the announcement of a tournament before its start.

Officers see only the tournaments of their scope (404 for an unknown one, 403 outside the scope, like the
other officer pages). The export is a read of the stored tournament: the WO 6.2 year does not limit it.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ratings import permissions
from ratings.models.tournament import Tournament
from ratings.selectors import officer as reads
from ratings.selectors.dsb_xml_export import dsb_export, dsb_report, export_check, xml_filename
from ratings.selectors.tournament_states import tournament_states
from ratings.services.submissions import tournament_announce, tournament_submit
from ratings.web.officer.forms import TournamentHeadForm


def _managed_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = reads.tournament_or_none(pk=pk)
    if tournament is None:
        raise Http404
    if not permissions.can_manage_tournament(request.user, tournament):
        raise PermissionDenied
    return tournament


@permissions.officer_required
@require_http_methods(["GET"])
def dsb_export_page(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Für den DSB exportieren": every check with ok or its problems, the state, the last submission, and
    the download button when nothing blocks."""
    tournament = _managed_tournament(request, pk)
    check = export_check(report=dsb_report(tournament=tournament, user=request.user))
    state = tournament_states(tournaments=[tournament])[tournament.pk]
    return render(
        request,
        "ratings/officer/dsb_export.html",
        {"tournament": tournament, "check": check, "state": state, "filename": xml_filename(tournament)},
    )


@permissions.officer_required
@require_POST
def dsb_export_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The file, recorded as submitted; back to the check list when a check fails meanwhile."""
    tournament = _managed_tournament(request, pk)
    check, data = dsb_export(tournament=tournament, user=request.user)
    if data is None:
        messages.error(request, _("Der Bericht kann nicht exportiert werden: bitte die Prüfliste ansehen."))
        return redirect("ratings:tournament-dsb-export", tournament.pk)
    tournament_submit(
        tournament=tournament, user=request.user, data=data, file_uuid=check.report.header.file_uuid
    )
    response = HttpResponse(data, content_type="application/xml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{xml_filename(tournament)}"'
    return response


@permissions.officer_required
@require_http_methods(["GET", "POST"])
def announce(request: HttpRequest) -> HttpResponse:
    """ "Turnier anmelden": the head of a tournament before its start (WO 7.6), results entered later."""
    form = TournamentHeadForm(
        request.POST or None,
        instance=Tournament(),
        clubs=permissions.manageable_clubs(request.user),
        organisations=permissions.manageable_organisations(request.user),
        user=request.user,
    )
    if request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        try:
            tournament_announce(tournament=tournament, mode=form.cleaned_data["mode"], user=request.user)
        except ValidationError as exc:
            if hasattr(exc, "error_dict"):
                for name, errors in exc.error_dict.items():
                    form.add_error(name if name in form.fields else None, errors)
            else:
                form.add_error(None, exc)
        else:
            messages.success(request, _("Turnier „%(name)s“ angemeldet.") % {"name": tournament.name})
            return redirect("ratings:officer-dashboard")
    return render(request, "ratings/officer/announce.html", {"form": form})
