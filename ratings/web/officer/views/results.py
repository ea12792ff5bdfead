"""The round robin's "Kreuztabelle" tab of the draft: the draft's participants (added on the "Teilnehmer" tab)
in the grid, the paste box and the live preview; "Speichern und auswerten" saves through
``tournament_save_results`` and drops the draft. A Swiss is entered round by round (``rounds.py``). The old
"Ergebnisse" URL redirects to the tab a tournament is at (``results_moved``, ``tournament_entry``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ratings.formats.result_entry import number_boards
from ratings.models.officer import TournamentMode
from ratings.models.player import Player
from ratings.models.tournament import Game, TournamentEntry
from ratings.selectors import drafts as draft_selectors
from ratings.selectors import officer_results as reads
from ratings.selectors import plausibility
from ratings.selectors.previews import preview_tournament, rating_states_before
from ratings.services import drafts as draft_service
from ratings.tournament_checks import TournamentConflict, TournamentGone
from ratings.web.officer.forms import parse_participants
from ratings.web.officer.presenters import grid_rows
from ratings.web.officer.views.plausibility import confirmed, warnings_context
from ratings.web.officer.views.results_entry import Entry, entry_from_draft, entry_from_post, mode_of
from ratings.web.officer.views.results_paste import paste
from ratings.web.officer.views.tournaments import (
    _trail,
    conflict_context,
    editable_tournament,
    posted_version,
    results_saved,
    tournament_gone,
    tournament_public_url,
)


def _clubs_of(players: list[Player]) -> dict[int, str]:
    """The first club of each player, also set as ``player.club_label`` for the templates."""
    memberships = reads.primary_memberships(players=players)
    out = {pk: f"{m.club.name} ({m})" for pk, m in memberships.items()}
    for p in players:
        p.club_label = out.get(p.pk, "")  # type: ignore[attr-defined]  # a display attribute, not a model field
    return out


def _ratings_then(entry: Entry) -> None:
    """Each player's DWZ and index just before this tournament (what the evaluation uses), set as
    ``player.dwz_then`` / ``player.index_then`` for the participants table."""
    states = rating_states_before(tournament=entry.tournament, player_ids=[p.pk for p in entry.players])
    for p in entry.players:
        state = states.get(p.pk)
        # display attributes for the template, not model fields (hence unknown to django-stubs)
        p.dwz_then = state.dwz if state else None  # type: ignore[attr-defined]
        p.index_then = state.index if state else None  # type: ignore[attr-defined]


def _render_results(
    request: HttpRequest, entry: Entry, context: dict, *, preview: bool, status: int = 200
) -> HttpResponse:
    if preview:
        try:
            context.update(_preview_context(entry))
        except TournamentGone:  # deleted while the page was read
            return tournament_gone(request)
    _ratings_then(entry)
    context.update(
        {
            "tournament": entry.tournament,
            "entry": entry,
            "clubs": _clubs_of(entry.players),
            "grid_rows": grid_rows(entry) if entry.is_round_robin else None,
            "public_url": tournament_public_url(entry.tournament.pk),
            "trail": _trail(entry.tournament.pk),
            "is_round_robin": True,
        }
    )
    return render(request, "ratings/officer/results.html", context, status=status)


def _preview_context(entry: Entry) -> dict:
    valid = entry.is_valid()
    if not valid:
        errors = entry.error_list()
        if not entry.players:
            errors.insert(0, _("Noch keine Teilnehmer."))
        return {"preview_errors": errors, "preview": None}
    preview = preview_tournament(
        tournament=entry.tournament, players=entry.players, games=entry.games(), non_members=entry.non_members
    )
    return {"preview": preview, "preview_errors": []}


def results_moved(request: HttpRequest, pk: int) -> HttpResponse:
    """The old "Ergebnisse" page: gone, its URL moved for good to the draft. A search (``q``) to the
    participants' search, everything else to the entry (which opens the tab the tournament is at)."""
    query = (request.GET.get("q") or "").strip()
    if query:
        url = reverse("ratings:tournament-participants", args=[pk]) + "?" + urlencode({"q": query[:100]})
    else:
        url = reverse("ratings:tournament-entry", args=[pk])
    return HttpResponsePermanentRedirect(url)


@login_required
def tournament_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """Where entering a tournament continues: the participants while there are none, then the rounds of a
    Swiss or the grid of a round robin (the dashboard's and the tournament page's links)."""
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    draft, _saved = draft_selectors.draft_or_stored(tournament=tournament)
    if not draft.participants:
        return redirect("ratings:tournament-participants", tournament.pk)
    if mode_of(tournament) == TournamentMode.ROUND_ROBIN:
        return redirect("ratings:tournament-grid", tournament.pk)
    return redirect("ratings:tournament-rounds", tournament.pk)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_grid(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    if mode_of(tournament) != TournamentMode.ROUND_ROBIN:  # a Swiss: round by round
        return redirect("ratings:tournament-rounds", tournament.pk)
    if request.method == "GET":
        entry, shown, saved = entry_from_draft(tournament)
        stored: dict = {"version": tournament.version, "draft_saved": saved, "draft": shown}
        return _render_results(request, entry, stored, preview=bool(entry.players))
    data = request.POST.copy()
    draft = draft_selectors.saved_draft(tournament_id=pk)
    context: dict = {"version": posted_version(data), "draft_saved": draft is not None, "draft": draft}
    if "do_paste" in data:
        players, _errors = parse_participants(data.getlist("p"))
        context["paste_errors"] = paste(players, data)
    entry = entry_from_post(tournament, data)
    if "keep" in data and entry.is_valid():
        return _keep(request, entry, context)
    if "save" not in data and "keep" not in data:
        return _render_results(request, entry, context, preview=True)
    if not entry.is_valid():
        context["save_errors"] = [_("Nicht gespeichert: bitte die markierten Fehler beheben.")]
        return _render_results(request, entry, context, preview=True)
    return _save(request, entry, data, context)


def _keep(request: HttpRequest, entry: Entry, context: dict) -> HttpResponse:
    """ "Als Entwurf speichern": the participants and the grid's games into the draft, not evaluated."""
    games = [
        {"round": g.round, "board": g.board, "white": g.white_id, "black": g.black_id, "result": g.result}
        for g in number_boards(entry.games())
    ]
    try:
        draft_service.draft_save(
            tournament=entry.tournament,
            participants=[p.pk for p in entry.players],
            games=games,
            user=request.user,
        )
    except ValidationError as exc:
        context["save_errors"] = exc.messages
        return _render_results(request, entry, context, preview=True)
    messages.success(
        request, _("Als Entwurf gespeichert; ausgewertet wird erst mit „Speichern und auswerten“.")
    )
    return redirect("ratings:tournament-grid", entry.tournament.pk)


def _save(request: HttpRequest, entry: Entry, data: QueryDict, context: dict) -> HttpResponse:
    """Save the valid entry and drop the draft (``draft_results_save``): to the report, or back to the page
    with why not."""
    tournament = entry.tournament
    games = [
        Game(round=g.round, board=g.board, white_id=g.white_id, black_id=g.black_id, result=g.result)
        for g in entry.games()
    ]
    entries = [
        TournamentEntry(player=p, start_rank=i, member=p.pk not in entry.non_members)
        for i, p in enumerate(entry.players, start=1)
    ]
    warnings = plausibility.tournament_warnings(tournament=tournament, players=entry.players, games=games)
    if not confirmed(data, warnings):
        context.update(warnings_context(warnings))
        return _render_results(request, entry, context, preview=True)
    try:
        report = draft_service.draft_results_save(
            tournament=tournament,
            entries=entries,
            games=games,
            mode=entry.mode,
            user=request.user,
            version=posted_version(data),
        )
    except TournamentGone:
        return tournament_gone(request)
    except TournamentConflict as exc:
        context.update(conflict_context(exc))
        return _render_results(request, entry, context, preview=True, status=409)
    except ValidationError as exc:
        context["save_errors"] = exc.messages
        return _render_results(request, entry, context, preview=True)
    return results_saved(request, tournament=tournament, report=report)


@login_required
@require_POST
def tournament_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The preview panel (HTMX partial) for the posted, unsaved results. Never writes."""
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    entry = entry_from_post(tournament, request.POST.copy())
    try:
        context = {"tournament": tournament, **_preview_context(entry)}
    except TournamentGone:
        return tournament_gone(request)
    return render(request, "ratings/officer/results.html#preview", context)
