"""Officer pages: the dashboard, the report after a save, the tournament head (create, edit), delete, and the
concurrency helpers the results and rounds pages share.

Views stay thin: they bind forms, ask ``ratings.permissions`` and call one service. All pages work without
JavaScript (plain form posts); only the autocomplete needs it.
"""

from __future__ import annotations

import datetime
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ratings import permissions, services
from ratings.models.audit import AuditAction
from ratings.models.tournament import Tournament
from ratings.recalculation import RecalculationReport
from ratings.selectors import audit as audit_selectors
from ratings.selectors import drafts as draft_selectors
from ratings.selectors import officer as reads
from ratings.selectors import officer_results as result_reads
from ratings.selectors import plausibility
from ratings.selectors import tournament_states as state_reads
from ratings.selectors.previews import (
    later_after_delete,
    later_tournaments,
)
from ratings.tournament_checks import TournamentConflict, TournamentGone
from ratings.web.audit_display import with_lines
from ratings.web.notices import recalculation_job
from ratings.web.officer.forms import (
    TournamentHeadForm,
)
from ratings.web.officer.presenters import (
    dashboard_rows,
    report_changes,
    report_tournaments,
    version_changes,
    with_restore_links,
)
from ratings.web.officer.views.plausibility import confirmed, warnings_context

REPORT_SESSION_KEY = "officer_report"


def tournament_public_url(tournament_id: int) -> str:
    return reverse("ratings:tournament-detail", args=[tournament_id])


# --- dashboard and report --------------------------------------------------------------------------------


@permissions.officer_required
def dashboard(request: HttpRequest) -> HttpResponse:
    manageable = permissions.manageable_tournaments(request.user)
    tournaments = list(reads.dashboard_tournaments(manageable=manageable))
    overdue = reads.overdue_tournaments(manageable=manageable, ended_before=permissions.evaluation_cutoff())
    today = permissions.today()
    unsubmitted = state_reads.unsubmitted_tournaments(
        manageable=manageable, today=today, since=today - datetime.timedelta(days=365)
    )
    not_entered = state_reads.announced_not_entered(manageable=manageable, today=today)
    scopes = reads.officer_scopes(user=request.user)
    states = state_reads.tournament_states(tournaments=tournaments)
    return render(
        request,
        "ratings/officer/dashboard.html",
        {
            "tournaments": dashboard_rows(request.user, tournaments, states=states),
            "overdue": dashboard_rows(request.user, overdue),
            "unsubmitted": dashboard_rows(request.user, unsubmitted),
            "not_entered": list(not_entered),
            "scopes": scopes,
            "is_staff": request.user.is_staff,
            "window_message": permissions.outside_window_message(),
        },
    )


def _store_report(
    request: HttpRequest, *, title: str, tournament: Tournament | None, report: RecalculationReport
):
    names = reads.tournament_names(pks=report.tournaments)
    players = reads.players_by_pk(pks=report.rating_changes)
    request.session[REPORT_SESSION_KEY] = {
        "title": title,
        "tournament_id": tournament.pk if tournament and tournament.pk else None,
        "version": tournament.version if tournament and tournament.pk else None,  # the one this save made
        "tournaments": [[pk, names.get(pk, str(pk))] for pk in report.tournaments],
        "changes": [
            [pk, players[pk].name if pk in players else str(pk), old, new]
            for pk, (old, new) in sorted(
                report.rating_changes.items(),
                key=lambda item: players[item[0]].name_sort if item[0] in players else "",
            )
        ],
    }


def results_saved(
    request: HttpRequest, *, tournament: Tournament, report: RecalculationReport
) -> HttpResponse:
    """The end of a results save, from the grid and from the rounds screen alike: the report page."""
    title = _("Ergebnisse von „%(name)s“ gespeichert") % {"name": tournament.name}
    _store_report(request, title=title, tournament=tournament, report=report)
    return redirect("ratings:officer-report")


@permissions.officer_required
def report_view(request: HttpRequest) -> HttpResponse:
    data = request.session.get(REPORT_SESSION_KEY)
    if not data:
        return redirect("ratings:officer-dashboard")
    tournament = None
    if data.get("tournament_id"):
        tournament = reads.tournament_or_none(pk=data["tournament_id"])
    keys = reads.player_keys(pks=[c[0] for c in data["changes"]])
    changes = report_changes(data["changes"], keys=keys)
    tournaments = report_tournaments(data["tournaments"])
    return render(
        request,
        "ratings/officer/report.html",
        {
            "title": data["title"],
            "tournament": tournament,
            "tournament_url": tournament_public_url(tournament.pk) if tournament else None,
            "tournaments": tournaments,
            "changes": changes,
            "recalculation_job": recalculation_job(tournament=tournament),
            **_saved_version(request, tournament, data.get("version")),
        },
    )


def _saved_version(request: HttpRequest, tournament: Tournament | None, version: int | None) -> dict:
    """The report's "Änderungen am Turnier": what the save that made ``version`` changed in the tournament
    itself (head, participants, cells old → new) and, where the version before it is stored and the officer
    may still correct the tournament, the link to restore that one."""
    if tournament is None or not version:
        return {}
    event = audit_selectors.save_event(tournament_id=tournament.pk, version=version)
    if event is None:
        return {}
    previous = audit_selectors.version_before(event=event)
    if previous is None and event.action != AuditAction.CREATE:  # no state before it stored: its own lines
        return {"saved_lines": with_lines([event])[0].lines, "saved_event": event}
    restorable = previous is not None and permissions.may_correct(request.user, tournament)
    url = reverse("ratings:tournament-restore-version", args=[tournament.pk, event.pk])
    return {
        "saved": version_changes(before=previous.snapshot if previous else None, after=event.snapshot),
        "saved_event": event,
        "restore_url": url if restorable else None,
    }


# --- tournament head -------------------------------------------------------------------------------------


def _head_form(request: HttpRequest, *, instance: Tournament | None = None, data=None) -> TournamentHeadForm:
    mode = None
    if instance is not None and instance.pk:
        mode = result_reads.entry_mode(tournament=instance)
    return TournamentHeadForm(
        data,
        instance=instance,
        clubs=permissions.manageable_clubs(request.user),
        organisations=permissions.manageable_organisations(request.user),
        mode=mode,
        user=request.user,
    )


@permissions.officer_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = _head_form(request, instance=Tournament(), data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        try:
            services.tournament_create(
                tournament=tournament, entries=[], games=[], mode=form.cleaned_data["mode"], user=request.user
            )
        except ValidationError as exc:
            _add_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Turnier „%(name)s“ angelegt. Jetzt Teilnehmer und Ergebnisse eintragen.")
                % {"name": tournament.name},
            )
            # participants first (search, paste, new players), then the rounds or the grid
            return redirect("ratings:tournament-participants", tournament.pk)
    return render(request, "ratings/officer/tournament_form.html", {"form": form, "tournament": None})


def _add_service_errors(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for name, errors in exc.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    form = _head_form(request, instance=tournament, data=request.POST or None)
    max_round = reads.last_round(tournament=tournament)
    context: dict = {"version": tournament.version, "status": 200}
    if request.method == "POST":
        context["version"] = posted_version(request.POST)
    if request.method == "POST" and form.is_valid():
        rounds = form.cleaned_data.get("rounds")
        if rounds and max_round and rounds < max_round:
            form.add_error("rounds", _("Es gibt schon Partien in Runde %(round)s.") % {"round": max_round})
        else:
            head = form.save(commit=False)
            warnings = _new_head_warnings(head)
            if warnings is None:
                return tournament_gone(request)
            if not confirmed(request.POST, warnings):
                context.update(warnings_context(warnings), form_id="tournament-head")
                context.update(form=form, tournament=tournament, later_count=0, **_stored(tournament.pk))
                return render(request, "ratings/officer/tournament_form.html", context, status=200)
            try:
                report = services.tournament_save_head(
                    tournament=head,
                    mode=form.cleaned_data["mode"],
                    user=request.user,
                    version=posted_version(request.POST),
                )
            except TournamentGone:
                return tournament_gone(request)
            except TournamentConflict as exc:
                context.update(conflict_context(exc), status=409)
                form.data = data = cast(QueryDict, form.data).copy()  # the posted QueryDict
                data["version"] = str(exc.current)  # saving again now is a deliberate choice
            except ValidationError as exc:
                _add_service_errors(form, exc)
            else:
                _store_report(request, title=_("Turnierkopf gespeichert"), tournament=head, report=report)
                return redirect("ratings:officer-report")
        try:
            tournament.refresh_from_db()
        except Tournament.DoesNotExist:  # deleted while the officer's save waited
            return tournament_gone(request)
    players = result_reads.seated_ids(tournament=tournament)
    later = later_tournaments(tournament=tournament, player_ids=players) if tournament.rated else []
    context.update(form=form, tournament=tournament, later_count=len(later), **_stored(tournament.pk))
    return render(request, "ratings/officer/tournament_form.html", context, status=context.pop("status"))


def _new_head_warnings(head: Tournament) -> list | None:
    """The plausibility warnings a changed head brings (a new end date, another time control) with the
    stored participants and games; those the stored head had already were confirmed when it was saved.
    None if the tournament was deleted meanwhile."""
    stored = Tournament.objects.filter(pk=head.pk).first()
    if stored is None:
        return None
    players = [e.player for e in result_reads.entries(tournament=stored)]
    games = result_reads.games(tournament=stored)
    warned = plausibility.tournament_warnings(tournament=stored, players=players, games=games)
    before = {(w.code, w.message) for w in warned}
    now = plausibility.tournament_warnings(tournament=head, players=players, games=games)
    return [w for w in now if (w.code, w.message) not in before]


def _trail(tournament_id: int):
    """The tournament's audit trail with the "Fassung davor wiederherstellen" links of its saves."""
    restorable = audit_selectors.restorable_saves(tournament_id=tournament_id)
    trail = with_lines(audit_selectors.audit_trail(tournament_id=tournament_id))
    return with_restore_links(trail, tournament_id=tournament_id, restorable=restorable)


def _stored(tournament_id: int) -> dict:
    """Beside the stored head: its audit trail and whether an unevaluated draft waits (``_draft_notice``)."""
    has_draft = draft_selectors.has_draft(tournament_id=tournament_id)
    return {"trail": _trail(tournament_id), "has_draft": has_draft}


# --- concurrent officers ---------------------------------------------------------------------------------


def posted_version(data: QueryDict) -> int | None:
    """The tournament version the posted form was loaded at (None if the form carries none)."""
    raw = (data.get("version") or "").strip()
    return int(raw) if raw.isascii() and raw.isdecimal() and len(raw) <= 9 else None


def editable_tournament(request: HttpRequest, pk: int) -> Tournament | None:
    """The tournament for an officer's page (403/404 as ``get_tournament_for_user``); None if it was
    deleted: a form of it posted later answers "Turnier wurde inzwischen gelöscht" instead of a 404."""
    if (
        permissions.is_officer(request.user)
        and not reads.tournament_exists(pk=pk)
        and audit_selectors.tournament_deleted(tournament_id=pk)
    ):
        return None
    return permissions.get_tournament_for_user(request, pk)


def tournament_gone(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/officer/tournament_gone.html", status=410)


def conflict_context(exc: TournamentConflict) -> dict:
    """What the officer sees when his form was outdated: the saves since (who, what) and the current
    version, so that saving his kept input again is a deliberate choice."""
    events = audit_selectors.tournament_events_since(tournament_id=exc.tournament_id, version=exc.version)
    return {"conflict": with_lines(events), "version": exc.current}


# --- delete ----------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tournament_delete(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    context: dict = {"version": tournament.version}
    status = 200
    if request.method == "POST":
        try:
            report = services.tournament_delete(
                tournament=tournament, user=request.user, version=posted_version(request.POST)
            )
        except TournamentGone:
            return tournament_gone(request)
        except TournamentConflict as exc:
            context.update(conflict_context(exc))
            try:
                tournament.refresh_from_db()
            except Tournament.DoesNotExist:  # saved by another officer, then deleted
                return tournament_gone(request)
            status = 409
        else:
            _store_report(
                request,
                title=_("Turnier „%(name)s“ gelöscht") % {"name": str(tournament)},
                tournament=None,
                report=report,
            )
            return redirect("ratings:officer-report")
    try:
        later, background = later_after_delete(tournament=tournament) if tournament.rated else ([], False)
    except TournamentGone:  # deleted while the page was read
        return tournament_gone(request)
    players = result_reads.seated_ids(tournament=tournament)
    game_count, bye_count = reads.game_counts(tournament=tournament)
    context |= {
        "later_background": background,
        "tournament": tournament,
        "player_count": len(players),
        "game_count": game_count,
        "bye_count": bye_count,
        "evaluated_count": reads.evaluated_count(tournament=tournament),
        "later_count": len(later),
        "later": reads.tournaments_by_date(pks=later[:10]),
    }
    return render(request, "ratings/officer/tournament_delete.html", context, status=status)
