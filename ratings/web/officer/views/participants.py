"""Participants of a tournament's draft: paste ids or names in bulk, add a whole club, search, start numbers
by DWZ or alphabetical and changeable by typing. Every change is saved to the draft at once (never rated);
the table shows each player's rating at the tournament's time, as the evaluation will use it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from ratings import permissions
from ratings.folding import search_key
from ratings.models import Player, Tournament, TournamentDraft
from ratings.models.officer import TournamentMode
from ratings.selectors import drafts as draft_selectors
from ratings.selectors import officer as reads
from ratings.selectors import search
from ratings.selectors.participant_lines import players_from_lines
from ratings.selectors.previews import rating_states_before
from ratings.services import drafts as draft_service
from ratings.web.officer.forms import NewPlayerForm
from ratings.web.officer.presenters import participant_rows
from ratings.web.officer.views.results_entry import mode_of
from ratings.web.public.forms import SearchForm

SEARCH_LIMIT = 15


def _clubs(request: HttpRequest, tournament: Tournament):
    return reads.participant_clubs(
        manageable=permissions.manageable_clubs(request.user), organiser_club_id=tournament.organiser_club_id
    )


def _int(value) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isascii() and value.isdecimal() and len(value) <= 9 else None


@login_required
@require_http_methods(["GET", "POST"])
def participants(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = permissions.get_tournament_for_user(request, pk)
    draft, saved = draft_selectors.draft_or_stored(tournament=tournament)
    errors: list[str] = []
    lines_text = ""
    new_player_form = None
    if request.method == "POST" and "new_player" in request.POST:
        new_player_form = _new_player(request, tournament, draft)
        if new_player_form is None:
            return redirect("ratings:tournament-participants", tournament.pk)
    elif request.method == "POST":
        ids, errors, lines_text = _apply(request, tournament, draft)
        if ids is not None and ids != draft.participants:
            try:
                draft = draft_service.draft_save(
                    tournament=tournament, participants=ids, games=draft.games, user=request.user
                )
                saved = True
            except ValidationError as exc:
                errors += exc.messages
        if not errors:
            return redirect("ratings:tournament-participants", tournament.pk)
    query = _query(request.POST if "q" in request.POST else request.GET)
    results = (
        search.players(query=query, limit=SEARCH_LIMIT, exclude=draft.participants) if len(query) >= 2 else []
    )
    players = draft_selectors.participants(draft=draft)
    states = rating_states_before(tournament=tournament, player_ids=[p.pk for p in players])
    rows = participant_rows(players, states=states, games=draft.games)
    context = {
        "tournament": tournament,
        "draft": draft,
        "draft_saved": saved,
        "rows": rows,
        "errors": errors,
        "lines_text": lines_text,
        "query": query,
        "results": results,
        "clubs": _clubs(request, tournament),
        "round_robin": mode_of(tournament) == TournamentMode.ROUND_ROBIN,
        "new_player_form": new_player_form or _blank_new_player(request, query),
        "show_new_player": new_player_form is not None or (len(query) >= 2 and not results),
    }
    return render(request, "ratings/officer/participants.html", context)


@permissions.officer_required
def player_search(request: HttpRequest) -> HttpResponse:
    """Autocomplete (HTMX) of the participants' search: "Hinzufügen" buttons, or "nicht gefunden – neu
    anlegen" with the name filled in. ``p``: the participants already in (left out of the hits)."""
    exclude = [int(v) for v in request.GET.getlist("p") if v.isascii() and v.isdecimal() and len(v) <= 18]
    query = _query(request.GET)
    results = search.players(query=query, limit=SEARCH_LIMIT, exclude=exclude) if len(query) >= 2 else []
    context = {
        "query": query,
        "results": results,
        "new_player_form": _blank_new_player(request, query),
        "show_new_player": len(query) >= 2 and not results,
    }
    return render(request, "ratings/officer/participants.html#search-results", context)


def _query(data) -> str:
    """The search text, through the public search form's field: it refuses NUL bytes (PostgreSQL cannot
    compare them) and overlong text."""
    form = SearchForm(data)
    return form.cleaned_data["q"].strip() if form.is_valid() else ""


def _blank_new_player(request: HttpRequest, query: str) -> NewPlayerForm:
    """The new-player form, with the name searched for ("Name, Vorname" or one name) filled in."""
    surname, _sep, first_name = query.partition(",")
    initial = (
        {}
        if any(c.isdigit() for c in query)
        else {"surname": surname.strip(), "first_name": first_name.strip()}
    )
    return NewPlayerForm(initial=initial, clubs=permissions.manageable_clubs(request.user))


def _new_player(request: HttpRequest, tournament: Tournament, draft: TournamentDraft) -> NewPlayerForm | None:
    """Create the player and add him to the draft at once; the form with its errors if it is refused."""
    form = NewPlayerForm(request.POST, clubs=permissions.manageable_clubs(request.user))
    if not form.is_valid():
        return form
    fields = {k: v for k, v in form.cleaned_data.items() if k != "confirm_duplicate"}
    fields["member_number"] = fields["member_number"] or None
    try:
        player, saved = draft_service.draft_player_create(
            tournament=tournament, draft=draft, user=request.user, player=fields
        )
    except ValidationError as exc:
        for message in exc.messages:
            form.add_error(None, message)
        return form
    messages.success(
        request,
        _("Spieler „%(name)s“ angelegt und als Nr. %(no)s in den Entwurf aufgenommen.")
        % {"name": player.name, "no": len(saved.participants)},
    )
    return None


def _apply(request: HttpRequest, tournament: Tournament, draft: TournamentDraft):
    """The new participant list (None: unchanged), messages, and the pasted text to show again."""
    data = request.POST
    ids = list(draft.participants)
    if "lines" in data:
        return _pasted(request, ids, data["lines"])
    if "add" in data:
        pk = _int(data["add"])
        if pk is not None and pk in ids:
            _already_in(request, ids, [pk])
        elif pk is not None and reads.player_exists(pk=pk):
            return [*ids, pk], [], ""
        return None, [], ""
    if "club" in data:
        return _club_added(request, tournament, ids, data["club"])
    if "remove" in data:
        pk = _int(data["remove"])
        if any(pk in (g["white"], g["black"]) for g in draft.games):
            return None, [_("Der Spieler hat schon Partien; bitte zuerst seine Bretter entfernen.")], ""
        return [i for i in ids if i != pk], [], ""
    if "order" in data:
        return _ordered(tournament, ids, data["order"]), [], ""
    if "renumber" in data:
        return _renumbered(ids, data), [], ""
    return None, [], ""


def _pasted(request: HttpRequest, ids: list[int], text: str):
    """Players found in the pasted lines appended; the lines not found are shown again."""
    found, errors = players_from_lines(text)
    added = list(dict.fromkeys(p.pk for p in found if p.pk not in ids))
    _already_in(request, ids, [p.pk for p in found if p.pk in ids])
    if added:
        messages.success(
            request,
            ngettext("%(n)d Teilnehmer hinzugefügt.", "%(n)d Teilnehmer hinzugefügt.", len(added))
            % {"n": len(added)},
        )
    failed = "\n".join(line for line in text.splitlines() if line.strip() and not _names_any(line, found))
    return ids + added, errors, failed if errors else ""


def _already_in(request: HttpRequest, ids: list[int], pks: list[int]) -> None:
    """Say who was asked for again although he is a participant already, by name and start number."""
    pks = list(dict.fromkeys(pks))
    if not pks:
        return
    players = reads.players_by_pk(pks=pks)
    names = ", ".join(
        _("%(name)s (Nr. %(no)s)") % {"name": players[pk].name, "no": ids.index(pk) + 1}
        for pk in pks
        if pk in players
    )
    messages.info(
        request,
        _("Schon Teilnehmer, nicht doppelt aufgenommen: %(names)s.") % {"names": names},
    )


def _club_added(request: HttpRequest, tournament: Tournament, ids: list[int], raw: str):
    """The current members of the chosen club appended (alphabetical), if the officer may choose it."""
    club = reads.chosen_club(clubs=_clubs(request, tournament), pk=_int(raw))
    if club is None:
        return None, [_("Bitte einen Verein wählen.")], ""
    members = [pk for pk in reads.club_member_ids(club=club) if pk not in ids]
    messages.success(
        request,
        ngettext(
            "%(n)d Mitglied von %(club)s hinzugefügt.",
            "%(n)d Mitglieder von %(club)s hinzugefügt.",
            len(members),
        )
        % {"n": len(members), "club": club.name},
    )
    return ids + members, [], ""


def _names_any(line: str, found: list[Player]) -> bool:
    text = search_key(line)
    return any(search_key(p.key) in text or search_key(p.surname) in text for p in found)


def _ordered(tournament: Tournament, ids: list[int], order: str) -> list[int]:
    players = reads.players_by_pk(pks=ids)
    if order == "alpha":
        return sorted(ids, key=lambda pk: (players[pk].name_sort, pk))
    states = rating_states_before(tournament=tournament, player_ids=ids)

    def strength(pk: int):
        s = states.get(pk)
        dwz = s.dwz if s and s.dwz is not None else None
        elo = s.fide_elo if s and s.fide_elo is not None else players[pk].fide_elo
        return (dwz is None, -(dwz or 0), elo is None, -(elo or 0), players[pk].name_sort)

    return sorted(ids, key=strength)


def _renumbered(ids: list[int], data) -> list[int]:
    """Each typed start number moves its player there; the others keep their order around them."""
    wanted = {}
    for i, pk in enumerate(ids, start=1):
        no = _int(data.get(f"no-{pk}"))
        if no is not None and no != i:
            wanted[pk] = min(max(no, 1), len(ids))
    rest = [pk for pk in ids if pk not in wanted]
    for pk, no in sorted(wanted.items(), key=lambda item: item[1]):
        rest.insert(no - 1, pk)
    return rest
