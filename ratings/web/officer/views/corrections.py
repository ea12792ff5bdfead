"""Officer page: restore the version of a tournament before a given save (issue 32). The confirmation shows
what the restore changes against the stored state (head, participants, cells old → new); saving it is one
more save through ``services.tournament_restore_version`` (recalculated, audited), ending on the report."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ratings import services
from ratings.selectors import audit as audit_selectors
from ratings.services import audit
from ratings.tournament_checks import TournamentConflict, TournamentGone
from ratings.web.officer.presenters import version_changes
from ratings.web.officer.views.tournaments import (
    _store_report,
    conflict_context,
    editable_tournament,
    posted_version,
    tournament_gone,
)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_restore_version(request: HttpRequest, pk: int, event: int) -> HttpResponse:
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    save = audit_selectors.tournament_save(tournament_id=pk, pk=event)
    previous = audit_selectors.version_before(event=save) if save is not None else None
    if save is None or previous is None:
        raise Http404(_("Für diese Änderung ist keine vorherige Fassung gespeichert."))
    context: dict = {"tournament": tournament, "save": save, "previous": previous}
    context["version"] = tournament.version
    status = 200
    if request.method == "POST":
        try:
            restored, report = services.tournament_restore_version(
                event=save, user=request.user, version=posted_version(request.POST)
            )
        except TournamentGone:
            return tournament_gone(request)
        except TournamentConflict as exc:
            context.update(conflict_context(exc))
            tournament.refresh_from_db()
            status = 409
        except ValidationError as exc:
            context["errors"] = exc.messages
        else:
            title = _("Frühere Fassung von „%(name)s“ wiederhergestellt") % {"name": restored.name}
            _store_report(request, title=title, tournament=restored, report=report)
            return redirect("ratings:officer-report")
    current = audit.stored_snapshot(tournament_id=tournament.pk)
    context["changes"] = version_changes(before=current, after=previous.snapshot)
    return render(request, "ratings/officer/restore_version.html", context, status=status)
