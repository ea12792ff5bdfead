"""Officer page "Ergebnisse": participants, the round-robin grid or the Swiss boards, paste boxes, the player
search and the live preview; saving goes through ``tournament_save``."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from ratings import permissions, services
from ratings.forms import (
    RESULT_TO_CELL,
    BoardFormSet,
    GameSpec,
    NewPlayerForm,
    RoundRobinForm,
    board_initial,
    parse_board_block,
    parse_participants,
    parse_round_robin_block,
    round_robin_initial,
)
from ratings.forms.public import SearchForm
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.models.player import Membership, Player
from ratings.models.tournament import Game, Tournament, TournamentEntry
from ratings.selectors import search
from ratings.services import players as players_service
from ratings.services.preview import (
    preview_tournament,
    rating_states_before,
)
from ratings.services.tournaments import TournamentConflict, TournamentGone
from ratings.views.officer import (
    _store_report,
    _trail,
    conflict_context,
    editable_tournament,
    posted_version,
    tournament_gone,
    tournament_public_url,
)

SWISS_BLANK_ROWS = 4
SEARCH_LIMIT = 15


@dataclass
class Entry:
    """The results page's state, built from the stored tournament (GET) or the posted data."""

    tournament: Tournament
    mode: str
    players: list[Player]
    participant_errors: list[str] = field(default_factory=list)
    grid: RoundRobinForm | None = None
    boards: BoardFormSet | None = None
    paste_errors: list[str] = field(default_factory=list)
    # Participants who are not members of a DSB club (WO 3.4.3): counted, but no DWZ, no Restpartien.
    non_members: set[int] = field(default_factory=set)

    @property
    def is_round_robin(self) -> bool:
        return self.mode == TournamentMode.ROUND_ROBIN

    def is_valid(self) -> bool:
        form = self.grid if self.is_round_robin else self.boards
        ok = form.is_valid()  # always validate: the errors appear at the cells
        return ok and not self.participant_errors and bool(self.players)

    def games(self) -> list[GameSpec]:
        return self.grid.games() if self.is_round_robin else self.boards.games()

    def error_list(self) -> list[str]:
        """All messages in reading order, for the preview panel."""
        out = list(self.participant_errors)
        if self.is_round_robin:
            out += [str(e) for e in self.grid.non_field_errors()]
            for name, errors in self.grid.errors.items():
                if name == "__all__":
                    continue
                label = self.grid.fields[name].label if name in self.grid.fields else name
                out += [f"{label}: {e}" for e in errors]
        else:
            out += [str(e) for e in self.boards.non_form_errors()]
            for i, form in enumerate(self.boards.forms, start=1):
                for name, errors in form.errors.items():
                    label = form.fields[name].label if name in form.fields else ""
                    out += [
                        _("Zeile %(row)s, %(field)s: %(error)s") % {"row": i, "field": label, "error": e}
                        for e in errors
                    ]
        return out


def _mode_of(tournament: Tournament) -> str:
    """The stored entry mode; without one (seeded or imported tournaments) inferred from the games."""
    mode = TournamentEntryMode.objects.filter(tournament=tournament).values_list("mode", flat=True).first()
    return mode or _inferred_mode(tournament)


def _inferred_mode(tournament: Tournament) -> str:
    """Round robin for no games or a single complete round robin (each pair exactly once, no byes and only
    results the grid can show); Swiss otherwise."""
    games = list(Game.objects.filter(tournament=tournament).values_list("white_id", "black_id", "result"))
    if not games:
        return TournamentMode.ROUND_ROBIN
    if _unrepresentable_count(games):
        return TournamentMode.SWISS
    pairs = {frozenset((w, b)) for w, b, _r in games}
    seated = set(TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    seated |= {pk for pair in pairs for pk in pair}
    n = len(seated)
    return TournamentMode.ROUND_ROBIN if len(pairs) == n * (n - 1) // 2 else TournamentMode.SWISS


def _unrepresentable_count(games: list[tuple[int, int | None, str]]) -> int:
    """How many of the (white, black, result) games the round-robin grid cannot show: byes, results
    without a cell and every repeat of a pair."""
    seen: set[frozenset[int]] = set()
    count = 0
    for white, black, result in games:
        pair = frozenset((white, black))
        if black is None or result not in RESULT_TO_CELL or pair in seen:
            count += 1
        seen.add(pair)
    return count


def _grid_refusal(tournament: Tournament) -> list[str]:
    """A message when the grid would lose stored games on saving (saving is refused then)."""
    games = list(Game.objects.filter(tournament=tournament).values_list("white_id", "black_id", "result"))
    count = _unrepresentable_count(games)
    if not count:
        return []
    return [
        ngettext(
            "%(count)s gespeicherte Partie (spielfreie Runde, Doppelrunde oder Sonderergebnis) "
            "passt nicht in die Kreuztabelle. Speichern ist hier gesperrt, damit sie nicht verloren "
            "geht; bitte das Turnier als Schweizer System / Runden erfassen.",
            "%(count)s gespeicherte Partien (spielfreie Runden, Doppelrunden oder Sonderergebnisse) "
            "passen nicht in die Kreuztabelle. Speichern ist hier gesperrt, damit sie nicht verloren "
            "gehen; bitte das Turnier als Schweizer System / Runden erfassen.",
            count,
        )
        % {"count": count}
    ]


def _existing_rounds(tournament: Tournament) -> dict[tuple[int, int], int]:
    return {
        (w, b): r
        for w, b, r in Game.objects.filter(tournament=tournament, black__isnull=False).values_list(
            "white_id", "black_id", "round"
        )
    }


def _entry_from_db(tournament: Tournament) -> Entry:
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_rank", "pk")
    )
    players = [e.player for e in entries]
    games = list(Game.objects.filter(tournament=tournament))
    entry = Entry(tournament, _mode_of(tournament), players)
    entry.non_members = {e.player_id for e in entries if not e.member}
    if entry.is_round_robin:
        entry.participant_errors += _grid_refusal(tournament)
        data = QueryDict(mutable=True)
        data.update(round_robin_initial(players, games))
        entry.grid = RoundRobinForm(
            data, players=players, rounds=tournament.rounds, existing=_existing_rounds(tournament)
        )
    else:
        initial = board_initial(games) + [{}] * SWISS_BLANK_ROWS
        entry.boards = BoardFormSet(initial=initial, players=players, rounds=tournament.rounds)
    return entry


def _entry_from_post(tournament: Tournament, data: QueryDict) -> Entry:
    players, errors = parse_participants(data.getlist("p"))
    entry = Entry(tournament, _mode_of(tournament), players, errors)
    ticked = set(data.getlist("nm"))
    entry.non_members = {p.pk for p in players if str(p.pk) in ticked}
    if entry.is_round_robin:
        entry.participant_errors += _grid_refusal(tournament)
        entry.grid = RoundRobinForm(
            data, players=players, rounds=tournament.rounds, existing=_existing_rounds(tournament)
        )
    else:
        if "b-TOTAL_FORMS" not in data:
            data["b-TOTAL_FORMS"] = "0"
            data["b-INITIAL_FORMS"] = "0"
        entry.boards = BoardFormSet(data, players=players, rounds=tournament.rounds)
    return entry


def _apply_actions(request: HttpRequest, tournament: Tournament, data: QueryDict, context: dict) -> None:
    """Participant and paste buttons change the posted data before it is bound (nothing is saved)."""
    ids = data.getlist("p")
    if data.get("add"):
        if data["add"] not in ids:
            ids.append(data["add"])
        data.setlist("p", ids)
        data["q"] = ""
    if data.get("remove"):
        data.setlist("p", [pk for pk in ids if pk != data["remove"]])
    if data.get("move_up") in ids:
        i = ids.index(data["move_up"])
        if i > 0:
            ids[i - 1], ids[i] = ids[i], ids[i - 1]
        data.setlist("p", ids)
    if "add_rows" in data:
        total = _posted_total_forms(data)
        if total is not None:  # else the formset reports the broken management form
            data["b-TOTAL_FORMS"] = str(min(total + SWISS_BLANK_ROWS * 2, BoardFormSet.absolute_max))
    if "new_player" in data:
        form = NewPlayerForm(data, clubs=permissions.manageable_clubs(request.user))
        if form.is_valid():
            c = form.cleaned_data
            player = players_service.player_create(
                user=request.user,
                surname=c["surname"],
                first_name=c["first_name"],
                birth_year=c["birth_year"],
                sex=c["sex"],
                club=c["club"],
                member_number=c["member_number"] or None,
                fide_id=c["fide_id"],
                fide_elo=c["fide_elo"],
                dwz=c["dwz"],
                index=c["index"],
            )
            data.setlist("p", [*data.getlist("p"), str(player.pk)])
            for name in list(data):
                if name.startswith("np-"):
                    del data[name]
            messages.success(
                request, _("Spieler „%(name)s“ angelegt und hinzugefügt.") % {"name": player.name}
            )
        else:
            context["new_player_form"] = form
            context["show_new_player"] = True


def _posted_total_forms(data: QueryDict) -> int | None:
    """The posted board count clamped to the formset's ``absolute_max``; None if it is not a number."""
    raw = (data.get("b-TOTAL_FORMS") or "0").strip()
    if not (raw.isascii() and raw.isdecimal()):
        return None
    return min(int(raw[:9]), BoardFormSet.absolute_max)


def _paste(entry_players: list[Player], mode: str, data: QueryDict) -> list[str]:
    text = data.get("paste", "")
    if not text.strip():
        return [_("Nichts zum Übernehmen eingefügt.")]
    if mode == TournamentMode.ROUND_ROBIN:
        values, errors = parse_round_robin_block(text, entry_players)
        for name, value in values.items():
            data[name] = value
    else:
        rows, errors = parse_board_block(text, entry_players)
        total = _posted_total_forms(data)
        if total is None:  # the formset reports the broken management form
            return errors
        # Fill blank rows first, then append.
        blank = [
            i
            for i in range(total)
            if not any((data.get(f"b-{i}-{n}") or "").strip() for n in ("round", "white", "black", "result"))
        ]
        for row in rows:
            i = blank.pop(0) if blank else total
            if i == total:
                total += 1
            for name, value in row.items():
                data[f"b-{i}-{name}"] = str(value)
        data["b-TOTAL_FORMS"] = str(total)
        data.setdefault("b-INITIAL_FORMS", "0")
    if not errors:
        data["paste"] = ""
    return errors


def _search(query: str, exclude: list[int]) -> list[Player]:
    if len((query or "").strip()) < 2:
        return []
    return search.players(query=query, limit=SEARCH_LIMIT, exclude=exclude)


def _clubs_of(players: list[Player]) -> dict[int, str]:
    """The first club of each player, also set as ``player.club_label`` for the templates."""
    out: dict[int, str] = {}
    for m in Membership.objects.current().filter(player__in=players).select_related("club").primary_first():
        out.setdefault(m.player_id, f"{m.club.name} ({m})")
    for p in players:
        p.club_label = out.get(p.pk, "")
    return out


def _ratings_then(entry: Entry) -> None:
    """Each player's DWZ and index just before this tournament (what the evaluation uses), set as
    ``player.dwz_then`` / ``player.index_then`` for the participants table."""
    states = rating_states_before(tournament=entry.tournament, player_ids=[p.pk for p in entry.players])
    for p in entry.players:
        state = states.get(p.pk)
        p.dwz_then = state.dwz if state else None
        p.index_then = state.index if state else None


def _grid_rows(entry: Entry) -> list[dict]:
    grid = entry.grid
    rows = []
    for i, a in enumerate(entry.players):
        cells = []
        for j, b in enumerate(entry.players):
            if a.pk == b.pk:
                cells.append({"self": True})
                continue
            name = grid.cell_name(a.pk, b.pk)
            cells.append(
                {
                    "name": name,
                    "mirror": grid.cell_name(b.pk, a.pk),
                    "value": grid.cell_value(a.pk, b.pk),
                    "errors": grid.errors.get(name, [])
                    if grid.is_bound and hasattr(grid, "cleaned_data")
                    else [],
                    "label": f"{a} – {b}",
                    "row": i,
                    "col": j,
                }
            )
        rows.append({"no": i + 1, "player": a, "cells": cells})
    return rows


def _render_results(
    request: HttpRequest, entry: Entry, context: dict, *, preview: bool, status: int = 200
) -> HttpResponse:
    if preview:
        context.update(_preview_context(entry))
    context.setdefault("new_player_form", NewPlayerForm(clubs=permissions.manageable_clubs(request.user)))
    _ratings_then(entry)
    context.update(
        {
            "tournament": entry.tournament,
            "entry": entry,
            "clubs": _clubs_of(entry.players),
            "grid_rows": _grid_rows(entry) if entry.is_round_robin else None,
            "public_url": tournament_public_url(entry.tournament.pk),
            "trail": _trail(entry.tournament.pk),
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
        entry = _entry_from_db(tournament)
        return _render_results(request, entry, {"version": tournament.version}, preview=bool(entry.players))
    data = request.POST.copy()
    context: dict = {"version": posted_version(data)}
    _apply_actions(request, tournament, data, context)
    if "do_paste" in data:
        players, _errors = parse_participants(data.getlist("p"))
        context["paste_errors"] = _paste(players, _mode_of(tournament), data)
    entry = _entry_from_post(tournament, data)
    context["search_query"] = data.get("q", "")
    context["search_results"] = _search(data.get("q", ""), [p.pk for p in entry.players])
    context["searched"] = bool((data.get("q") or "").strip())
    if "save" in data:
        if entry.is_valid():
            games = [
                Game(round=g.round, board=g.board, white_id=g.white_id, black_id=g.black_id, result=g.result)
                for g in entry.games()
            ]
            entries = [
                TournamentEntry(player=p, start_rank=i, member=p.pk not in entry.non_members)
                for i, p in enumerate(entry.players, start=1)
            ]
            try:
                report = services.tournament_save(
                    tournament=tournament,
                    entries=entries,
                    games=games,
                    mode=entry.mode,
                    user=request.user,
                    version=posted_version(data),
                    keep_head=True,
                )
            except TournamentGone:
                return tournament_gone(request)
            except TournamentConflict as exc:
                context.update(conflict_context(exc))
                return _render_results(request, entry, context, preview=True, status=409)
            except ValidationError as exc:
                context["save_errors"] = exc.messages
            else:
                _store_report(
                    request,
                    title=_("Ergebnisse von „%(name)s“ gespeichert") % {"name": tournament.name},
                    tournament=tournament,
                    report=report,
                )
                return redirect("ratings:officer-report")
        else:
            context["save_errors"] = [_("Nicht gespeichert: bitte die markierten Fehler beheben.")]
    return _render_results(request, entry, context, preview=True)


@login_required
@require_POST
def tournament_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The preview panel (HTMX partial) for the posted, unsaved results. Never writes."""
    tournament = permissions.get_tournament_for_user(request, pk)
    entry = _entry_from_post(tournament, request.POST.copy())
    context = {"tournament": tournament, **_preview_context(entry)}
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
