"""Swiss entry by round: one round at a time, boards typed by start number (``3 7 1``, ``3-7 1``, ``5 +``)
or pasted a round at a time. Every change is saved to the tournament's draft (never rated) at once;
"Speichern und auswerten" publishes the draft. Works without JavaScript: each board is one form post."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ratings import permissions
from ratings.formats.pairing_input import (
    BoardLine,
    PairingInputError,
    apply_board,
    parse_board_line,
    parse_round_block,
    remove_board,
    unpaired,
)
from ratings.models import Tournament, TournamentDraft
from ratings.models.officer import TournamentMode
from ratings.selectors import drafts as draft_selectors
from ratings.selectors.officer_results import entry_mode
from ratings.selectors.previews import preview_tournament, rating_states_before
from ratings.services import drafts as draft_service
from ratings.tournament_checks import TournamentConflict, TournamentGone
from ratings.web.officer.forms import BOARD_DISPLAY, GameSpec, parse_board_result
from ratings.web.officer.views.plausibility import confirmed, warnings_context
from ratings.web.officer.views.tournaments import _trail, editable_tournament, results_saved, tournament_gone

ROUNDS_WITHOUT_HEAD = 9  # rounds offered when the head names none
OVERWRITES_KEY = "draft-overwrites"  # session: results just replaced, shown once beside the board input


def _overwrites(before: list[dict], after: list[dict], round_no: int) -> list[dict]:
    """The boards of ``round_no`` whose stored result the last input replaced by another one."""
    old = {(g["white"], g["black"]): g["result"] for g in before if g["round"] == round_no}
    return [
        {"round": round_no, "board": g["board"], "old": old[key], "new": g["result"]}
        for g in after
        if g["round"] == round_no
        and (key := (g["white"], g["black"])) in old
        and old[key]
        and old[key] != g["result"]
    ]


def _undo(games: list[dict], data, round_no: int) -> tuple[list[dict] | None, list[str]]:
    """The draft with one replaced result put back, if the board still shows the replacing one."""
    board, old, new = (data.get(k, "") for k in ("undo", "undo_old", "undo_new"))
    for g in games:
        if g["round"] == round_no and str(g["board"]) == board:
            if g["result"] != new or old not in BOARD_DISPLAY:
                break
            return [dict(h, result=old) if h is g else h for h in games], []
    return None, [
        _("Nichts rückgängig gemacht: Brett %(board)s wurde inzwischen geändert.") % {"board": board}
    ]


def _error_text(exc: PairingInputError) -> str:
    p = exc.params
    if exc.code == "number":
        return _("Startnummer %(no)s gibt es nicht (1–%(n)s).") % p
    if exc.code == "self":
        return _("Startnummer %(no)s kann nicht gegen sich selbst spielen.") % p
    if exc.code == "paired":
        return _("Nr. %(no)s ist in Runde %(round)s schon gepaart (Brett %(board)s).") % p
    return (
        _("„%(line)s“ verstehe ich nicht: erwartet „Weiß Schwarz Ergebnis“ (3 7 1 oder 3-7 1) oder „5 +“.")
        % p
    )


def _add(games: list[dict], line: BoardLine, round_no: int, participants: list[int]) -> list[dict]:
    """``games`` with the typed board; raises PairingInputError or ValidationError (the result)."""
    result = parse_board_result(line.result, has_black=line.black is not None) if line.result else ""
    return apply_board(
        games,
        round_no=round_no,
        white_no=line.white,
        black_no=line.black,
        result=result,
        participants=participants,
    )


def _round_count(tournament: Tournament, draft: TournamentDraft) -> int:
    played = max((g["round"] for g in draft.games), default=0)
    return max(tournament.rounds or 0, played) or ROUNDS_WITHOUT_HEAD


def _first_open_round(draft: TournamentDraft, rounds: int) -> int:
    """The first round with a participant still unpaired or a board without a result."""
    for r in range(1, rounds + 1):
        if unpaired(draft.games, round_no=r, participants=draft.participants) or any(
            not g["result"] for g in draft.games if g["round"] == r
        ):
            return r
    return rounds


def _round_url(tournament: Tournament, round_no: int) -> str:
    return reverse("ratings:tournament-round", args=[tournament.pk, round_no]) + "#board-input"


@login_required
def round_start(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    draft, _saved = draft_selectors.draft_or_stored(tournament=tournament)
    return redirect(_round_url(tournament, _first_open_round(draft, _round_count(tournament, draft))))


@login_required
@require_http_methods(["GET", "POST"])
def round_entry(request: HttpRequest, pk: int, round_no: int) -> HttpResponse:
    tournament = editable_tournament(request, pk)
    if tournament is None:
        return tournament_gone(request)
    draft, saved = draft_selectors.draft_or_stored(tournament=tournament)
    rounds = _round_count(tournament, draft)
    if not 1 <= round_no <= rounds:
        return redirect(_round_url(tournament, min(max(round_no, 1), rounds)))
    errors: list[str] = []
    typed = {"line": "", "paste": ""}
    if request.method == "POST":
        if "undo" in request.POST:
            games, errors = _undo(draft.games, request.POST, round_no)
        else:
            games, errors, typed = _apply(request.POST, draft, round_no)
        if games is not None and not errors:
            try:
                draft_service.draft_save(
                    tournament=tournament, participants=draft.participants, games=games, user=request.user
                )
            except ValidationError as exc:
                errors = exc.messages
            else:
                return _after_save(request, tournament, draft, games, round_no, rounds)
    notices = request.session.pop(OVERWRITES_KEY, None) if request.method == "GET" else None
    try:
        context = _context(tournament, draft, saved, round_no, rounds, errors, typed)
    except TournamentGone:  # deleted while the page was read (the preview)
        return tournament_gone(request)
    context["overwrites"] = _overwrite_rows(notices, tournament, round_no)
    return render(request, "ratings/officer/rounds.html", context)


def _after_save(
    request: HttpRequest,
    tournament: Tournament,
    draft: TournamentDraft,
    games: list[dict],
    round_no: int,
    rounds: int,
) -> HttpResponse:
    """Back to the round (a replaced result is said there, with its undo), or on to the next when the
    round is complete."""
    if "undo" in request.POST:
        changed = [dict(n, undone=True) for n in _overwrites(draft.games, games, round_no)]
    else:
        changed = _overwrites(draft.games, games, round_no)
    if changed:
        request.session[OVERWRITES_KEY] = {"tournament": tournament.pk, "boards": changed}
        return redirect(_round_url(tournament, round_no))
    done = not unpaired(games, round_no=round_no, participants=draft.participants)
    stay = "remove" in request.POST or "undo" in request.POST or not done or round_no >= rounds
    return redirect(_round_url(tournament, round_no if stay else round_no + 1))


def _overwrite_rows(notices, tournament: Tournament, round_no: int) -> list[dict]:
    """The session's replaced results of this round, displayed (``1-0 → 0-1``)."""
    if not notices or notices.get("tournament") != tournament.pk:
        return []
    return [
        {
            **n,
            "old_display": BOARD_DISPLAY.get(n["old"], n["old"]),
            "new_display": BOARD_DISPLAY.get(n["new"], n["new"]),
        }
        for n in notices.get("boards", [])
        if n.get("round") == round_no
    ]


def _apply(data, draft: TournamentDraft, round_no: int) -> tuple[list[dict] | None, list[str], dict]:
    """The draft's boards after the posted action, the messages, and what to show again in the inputs."""
    games = draft.games
    if "remove" in data:
        board = int(data["remove"]) if data["remove"].isascii() and data["remove"].isdecimal() else 0
        return remove_board(games, round_no=round_no, board=board), [], {"line": "", "paste": ""}
    if "do_paste" in data:
        text = data.get("paste", "")
        lines, problems = parse_round_block(text)
        errors = [_("Zeile %(row)s: %(error)s") % {"row": k, "error": _error_text(e)} for k, e in problems]
        if not lines and not errors:
            errors = [_("Nichts zum Übernehmen eingefügt.")]
        for k, line in lines:
            try:
                games = _add(games, line, round_no, draft.participants)
            except PairingInputError as exc:
                errors.append(_("Zeile %(row)s: %(error)s") % {"row": k, "error": _error_text(exc)})
            except ValidationError as exc:
                errors.append(_("Zeile %(row)s: %(error)s") % {"row": k, "error": " ".join(exc.messages)})
        return games, errors, {"line": "", "paste": text}
    text = data.get("line", "")
    if not text.strip():
        return None, [_("Bitte ein Brett eintippen, z. B. „3 7 1“.")], {"line": "", "paste": ""}
    try:
        games = _add(games, parse_board_line(text), round_no, draft.participants)
    except PairingInputError as exc:
        return None, [_error_text(exc)], {"line": text, "paste": ""}
    except ValidationError as exc:
        return None, exc.messages, {"line": text, "paste": ""}
    return games, [], {"line": "", "paste": ""}


def _context(tournament, draft, saved, round_no, rounds, errors, typed) -> dict:
    players = draft_selectors.participants(draft=draft)
    states = rating_states_before(tournament=tournament, player_ids=[p.pk for p in players])
    for p in players:  # the start list shows the rating the evaluation uses, not today's
        state = states.get(p.pk)
        # display attributes for the template, not model fields (hence unknown to django-stubs)
        p.dwz_then, p.index_then = (state.dwz, state.index) if state else (None, None)  # type: ignore[attr-defined]
    by_pk = {p.pk: p for p in players}
    start_no = {pk: i for i, pk in enumerate(draft.participants, start=1)}
    boards = [
        {
            "board": g["board"],
            "white": by_pk.get(g["white"]),
            "white_no": start_no.get(g["white"]),
            "black": by_pk.get(g["black"]),
            "black_no": start_no.get(g["black"]),
            "result": BOARD_DISPLAY.get(g["result"], g["result"]),
        }
        for g in draft.games
        if g["round"] == round_no
    ]
    open_numbers = unpaired(draft.games, round_no=round_no, participants=draft.participants)
    tabs = []
    for r in range(1, rounds + 1):
        in_round = [g for g in draft.games if g["round"] == r]
        missing = unpaired(draft.games, round_no=r, participants=draft.participants)
        tabs.append(
            {
                "no": r,
                "url": _round_url(tournament, r),
                "boards": len(in_round),
                "complete": bool(in_round) and not missing and all(g["result"] for g in in_round),
            }
        )
    return {
        "tournament": tournament,
        "draft_saved": saved,
        "draft": draft,
        "round_no": round_no,
        "rounds": rounds,
        "tabs": tabs,
        "boards": boards,
        "players": [(i, p) for i, p in enumerate(players, start=1)],
        "unpaired": [(no, by_pk.get(draft.participants[no - 1])) for no in open_numbers],
        "errors": errors,
        "typed": typed,
        "next_round": round_no + 1 if round_no < rounds else None,
        "trail": _trail(tournament.pk),
        **_preview(tournament, draft, players),
    }


def _preview(tournament: Tournament, draft: TournamentDraft, players) -> dict:
    games = [
        GameSpec(
            round=g["round"], white_id=g["white"], black_id=g["black"], result=g["result"], board=g["board"]
        )
        for g in draft.games
        if g["result"]
    ]
    if not players or not games:
        return {"preview": None, "preview_errors": []}
    return {
        "preview": preview_tournament(tournament=tournament, players=players, games=games),
        "preview_errors": [],
    }


@login_required
@require_POST
def draft_publish(request: HttpRequest, pk: int) -> HttpResponse:
    """Speichern und auswerten: the draft becomes the tournament's participants and games."""
    tournament = permissions.get_tournament_for_user(request, pk)
    draft, _saved = draft_selectors.draft_or_stored(tournament=tournament)
    back = request.POST.get("back", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("ratings:tournament-rounds", args=[tournament.pk])
    warnings = draft_selectors.draft_warnings(tournament=tournament, draft=draft)
    if not confirmed(request.POST, warnings):
        context = {"tournament": tournament, "back": back, **warnings_context(warnings)}
        return render(request, "ratings/officer/publish_confirm.html", context)
    try:
        report = draft_service.draft_publish(
            tournament=tournament,
            draft=draft,
            user=request.user,
            mode=entry_mode(tournament=tournament)
            or TournamentMode.SWISS,  # the grid's draft stays a round robin
        )
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
        return redirect(back)
    except TournamentGone:
        messages.error(request, _("Das Turnier wurde inzwischen gelöscht; der Entwurf ist damit verworfen."))
        return redirect("ratings:officer-dashboard")
    except TournamentConflict:
        draft_service.draft_rebase(tournament=tournament)
        messages.warning(
            request,
            _(
                "Nicht ausgewertet: das Turnier wurde seit Beginn dieses Entwurfs anderweitig gespeichert "
                "(siehe Änderungsprotokoll unten). Ihr Entwurf ist erhalten. Ein weiteres „Speichern "
                "und auswerten“ ersetzt den anderen Stand durch den Entwurf; „Entwurf verwerfen“ behält ihn."
            ),
        )
        return redirect(back)
    return results_saved(request, tournament=tournament, report=report)


@login_required
@require_POST
def draft_discard(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = permissions.get_tournament_for_user(request, pk)
    draft_service.draft_discard(tournament=tournament)
    messages.success(request, _("Entwurf verworfen; es gilt wieder der gespeicherte Stand."))
    return redirect("ratings:tournament-rounds", tournament.pk)
