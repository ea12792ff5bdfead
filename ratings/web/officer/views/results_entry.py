"""The state of the round robin's "Kreuztabelle" tab: the draft's participants and the grid, bound to the
draft or the stored tournament (GET) or the posted data; the entry mode, stored or inferred from the games."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import QueryDict
from django.utils.translation import ngettext

from ratings.formats import result_entry
from ratings.models.draft import TournamentDraft
from ratings.models.officer import TournamentMode
from ratings.models.player import Player
from ratings.models.tournament import Tournament
from ratings.selectors import drafts as draft_selectors
from ratings.selectors import officer_results as reads
from ratings.web.officer.forms import GameSpec, RoundRobinForm, parse_participants


@dataclass
class Entry:
    """The grid page's state, built from the draft (GET) or the posted data."""

    tournament: Tournament
    mode: str
    players: list[Player]
    participant_errors: list[str] = field(default_factory=list)
    grid: RoundRobinForm | None = None
    paste_errors: list[str] = field(default_factory=list)
    # Participants who are not members of a DSB club (WO 3.4.3): counted, but no DWZ, no Restpartien.
    non_members: set[int] = field(default_factory=set)

    @property
    def is_round_robin(self) -> bool:
        return self.mode == TournamentMode.ROUND_ROBIN

    @property
    def grid_form(self) -> RoundRobinForm:
        """The grid (``entry_from_draft`` and ``entry_from_post`` set it)."""
        assert self.grid is not None, "an Entry has its grid"
        return self.grid

    def is_valid(self) -> bool:
        ok = self.grid_form.is_valid()  # always validate: the errors appear at the cells
        return ok and not self.participant_errors and bool(self.players)

    def games(self) -> list[GameSpec]:
        return self.grid_form.games()

    def error_list(self) -> list[str]:
        """All messages in reading order, for the preview panel."""
        out = list(self.participant_errors)
        grid = self.grid_form
        out += [str(e) for e in grid.non_field_errors()]
        for name, errors in grid.errors.items():
            if name == "__all__":
                continue
            label = grid.fields[name].label if name in grid.fields else name
            out += [f"{label}: {e}" for e in errors]
        return out


def mode_of(tournament: Tournament) -> str:
    """The stored entry mode; without one (seeded or imported tournaments) inferred from the games: round
    robin for none or a single complete round robin the grid can show, Swiss otherwise."""
    mode = reads.entry_mode(tournament=tournament)
    if mode:
        return mode
    games = reads.stored_games(tournament=tournament)
    if games and not result_entry.unrepresentable_count(games):  # else no need to ask who is seated
        seated = reads.seated_ids(tournament=tournament)
        rr = result_entry.is_round_robin(games, seated=seated)
    else:
        rr = not games
    return TournamentMode.ROUND_ROBIN if rr else TournamentMode.SWISS


def _grid_refusal(games: list[tuple[int, int | None, str]]) -> list[str]:
    """A message when the grid would lose games on saving (saving is refused then)."""
    count = result_entry.unrepresentable_count(games)
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


def _grid(tournament: Tournament, data: QueryDict, players: list[Player], existing=None) -> RoundRobinForm:
    if existing is None:
        existing = reads.pairing_rounds(tournament=tournament)
    return RoundRobinForm(data, players=players, rounds=tournament.rounds, existing=existing)


def entry_from_draft(tournament: Tournament) -> tuple[Entry, TournamentDraft, bool]:
    """The grid of the tournament's draft (else of its stored state), the draft, and whether it is saved. The
    participants are the draft's (the "Teilnehmer" tab adds and orders them); "Nichtmitglied" is stored."""
    draft, saved = draft_selectors.draft_or_stored(tournament=tournament)
    players = draft_selectors.participants(draft=draft)
    games = [(g["white"], g["black"], g["result"]) for g in draft.games if g["result"]]
    entry = Entry(tournament, mode_of(tournament), players)
    entry.non_members = {e.player_id for e in reads.entries(tournament=tournament) if not e.member}
    entry.participant_errors += _grid_refusal(games)
    data = QueryDict(mutable=True)
    cells = result_entry.grid_cells(games)
    data.update({RoundRobinForm.cell_name(row, col): value for (row, col), value in cells.items()})
    existing = {(g["white"], g["black"]): g["round"] for g in draft.games if g["black"] is not None}
    entry.grid = _grid(tournament, data, players, existing)
    return entry, draft, saved


def entry_from_post(tournament: Tournament, data: QueryDict) -> Entry:
    players, errors = parse_participants(data.getlist("p"))
    entry = Entry(tournament, mode_of(tournament), players, errors)
    ticked = set(data.getlist("nm"))
    entry.non_members = {p.pk for p in players if str(p.pk) in ticked}
    entry.participant_errors += _grid_refusal(reads.stored_games(tournament=tournament))
    entry.grid = _grid(tournament, data, players)
    return entry
