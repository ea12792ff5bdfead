"""Officer page "Ergebnisse": participants, the round-robin grid or the Swiss boards, paste boxes, the player
search and the live preview; saving goes through ``tournament_save``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ratings import permissions, services
from ratings.models.player import Player
from ratings.models.tournament import Game, TournamentEntry
from ratings.selectors import officer_results as reads
from ratings.selectors import plausibility, search
from ratings.selectors.drafts import has_draft
from ratings.selectors.previews import preview_tournament, rating_states_before
from ratings.tournament_checks import TournamentConflict, TournamentGone
from ratings.web.officer.forms import NewPlayerForm, parse_participants
from ratings.web.officer.presenters import grid_rows
from ratings.web.officer.views.plausibility import confirmed, warnings_context
from ratings.web.officer.views.results_entry import Entry, entry_from_db, entry_from_post, mode_of
from ratings.web.officer.views.results_paste import apply_actions, paste
from ratings.web.officer.views.tournaments import (
    _trail,
    conflict_context,
    editable_tournament,
    posted_version,
    results_saved,
    tournament_gone,
    tournament_public_url,
)
from ratings.web.public.forms import SearchForm

SEARCH_LIMIT = 15


def _search(query: str, exclude: list[int]) -> list[Player]:
    if len((query or "").strip()) < 2:
        return []
    return search.players(query=query, limit=SEARCH_LIMIT, exclude=exclude)


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
    context.setdefault("new_player_form", NewPlayerForm(clubs=permissions.manageable_clubs(request.user)))
    _ratings_then(entry)
    context.update(
        {
            "tournament": entry.tournament,
            "entry": entry,
            "clubs": _clubs_of(entry.players),
            "grid_rows": grid_rows(entry) if entry.is_round_robin else None,
            "public_url": tournament_public_url(entry.tournament.pk),
            "trail": _trail(entry.tournament.pk),
            "has_draft": has_draft(tournament_id=entry.tournament.pk),
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


@login_required
@require_http_methods(["GET", "POST"])
def tournament_results(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    if request.method == "GET":
        entry = entry_from_db(tournament)
        return _render_results(request, entry, {"version": tournament.version}, preview=bool(entry.players))
    data = request.POST.copy()
    context: dict = {"version": posted_version(data)}
    apply_actions(request, data, context)
    if "do_paste" in data:
        players, _errors = parse_participants(data.getlist("p"))
        context["paste_errors"] = paste(players, mode_of(tournament), data)
    entry = entry_from_post(tournament, data)
    context["search_query"] = data.get("q", "")
    context["search_results"] = _search(data.get("q", ""), [p.pk for p in entry.players])
    context["searched"] = bool((data.get("q") or "").strip())
    if "save" not in data:
        return _render_results(request, entry, context, preview=True)
    if not entry.is_valid():
        context["save_errors"] = [_("Nicht gespeichert: bitte die markierten Fehler beheben.")]
        return _render_results(request, entry, context, preview=True)
    return _save(request, entry, data, context)


def _save(request: HttpRequest, entry: Entry, data: QueryDict, context: dict) -> HttpResponse:
    """Save the valid entry (``tournament_save_results``): to the report, or back to the page with why not."""
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
        report = services.tournament_save_results(
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


@permissions.officer_required
def player_search(request: HttpRequest) -> HttpResponse:
    """Autocomplete (HTMX): suggestion buttons that add a player to the results form."""
    exclude = [int(v) for v in request.GET.getlist("p") if v.isascii() and v.isdecimal() and len(v) <= 18]
    # The public search form's field: it refuses NUL bytes (PostgreSQL cannot compare them) and overlong text.
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    players = _search(query, exclude)
    return render(
        request,
        "ratings/officer/results.html#search-results",
        {"search_results": players, "clubs": _clubs_of(players), "searched": len(query.strip()) >= 2},
    )
