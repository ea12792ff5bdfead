"""The state of the "Ergebnisse" page: participants and the grid or board forms, bound to the stored
tournament (GET) or the posted data; the entry mode, stored or inferred from the games."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.formats import result_entry
from ratings.models.officer import TournamentMode
from ratings.models.player import Player
from ratings.models.tournament import Tournament
from ratings.selectors import officer_results as reads
from ratings.web.officer.forms import (
    BaseBoardFormSet,
    BoardFormSet,
    GameSpec,
    RoundRobinForm,
    board_initial,
    parse_participants,
    round_robin_initial,
)

SWISS_BLANK_ROWS = 4


@dataclass
class Entry:
    """The results page's state, built from the stored tournament (GET) or the posted data."""

    tournament: Tournament
    mode: str
    players: list[Player]
    participant_errors: list[str] = field(default_factory=list)
    grid: RoundRobinForm | None = None
    boards: BaseBoardFormSet | None = None
    paste_errors: list[str] = field(default_factory=list)
    # Participants who are not members of a DSB club (WO 3.4.3): counted, but no DWZ, no Restpartien.
    non_members: set[int] = field(default_factory=set)

    @property
    def is_round_robin(self) -> bool:
        return self.mode == TournamentMode.ROUND_ROBIN

    @property
    def grid_form(self) -> RoundRobinForm:
        """The grid of a round robin (``entry_from_db`` and ``entry_from_post`` set it)."""
        assert self.grid is not None, "a round robin's Entry has its grid"
        return self.grid

    @property
    def board_formset(self) -> BaseBoardFormSet:
        """The board rows of a Swiss (``entry_from_db`` and ``entry_from_post`` set them)."""
        assert self.boards is not None, "a Swiss Entry has its board rows"
        return self.boards

    def is_valid(self) -> bool:
        form = self.grid_form if self.is_round_robin else self.board_formset
        ok = form.is_valid()  # always validate: the errors appear at the cells
        return ok and not self.participant_errors and bool(self.players)

    def games(self) -> list[GameSpec]:
        return self.grid_form.games() if self.is_round_robin else self.board_formset.games()

    def error_list(self) -> list[str]:
        """All messages in reading order, for the preview panel."""
        out = list(self.participant_errors)
        if self.is_round_robin:
            grid = self.grid_form
            out += [str(e) for e in grid.non_field_errors()]
            for name, errors in grid.errors.items():
                if name == "__all__":
                    continue
                label = grid.fields[name].label if name in grid.fields else name
                out += [f"{label}: {e}" for e in errors]
        else:
            boards = self.board_formset
            out += [str(e) for e in boards.non_form_errors()]
            for i, form in enumerate(boards.forms, start=1):
                for name, errors in form.errors.items():
                    label = form.fields[name].label if name in form.fields else ""
                    out += [
                        _("Zeile %(row)s, %(field)s: %(error)s") % {"row": i, "field": label, "error": e}
                        for e in errors
                    ]
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


def _grid_refusal(tournament: Tournament) -> list[str]:
    """A message when the grid would lose stored games on saving (saving is refused then)."""
    count = result_entry.unrepresentable_count(reads.stored_games(tournament=tournament))
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


def _grid(tournament: Tournament, data: QueryDict, players: list[Player]) -> RoundRobinForm:
    return RoundRobinForm(
        data, players=players, rounds=tournament.rounds, existing=reads.pairing_rounds(tournament=tournament)
    )


def entry_from_db(tournament: Tournament) -> Entry:
    entries = reads.entries(tournament=tournament)
    players = [e.player for e in entries]
    games = reads.games(tournament=tournament)
    entry = Entry(tournament, mode_of(tournament), players)
    entry.non_members = {e.player_id for e in entries if not e.member}
    if entry.is_round_robin:
        entry.participant_errors += _grid_refusal(tournament)
        data = QueryDict(mutable=True)
        data.update(round_robin_initial(players, games))
        entry.grid = _grid(tournament, data, players)
    else:
        initial = board_initial(games) + [{}] * SWISS_BLANK_ROWS
        entry.boards = BoardFormSet(initial=initial, players=players, rounds=tournament.rounds)
    return entry


def entry_from_post(tournament: Tournament, data: QueryDict) -> Entry:
    players, errors = parse_participants(data.getlist("p"))
    entry = Entry(tournament, mode_of(tournament), players, errors)
    ticked = set(data.getlist("nm"))
    entry.non_members = {p.pk for p in players if str(p.pk) in ticked}
    if entry.is_round_robin:
        entry.participant_errors += _grid_refusal(tournament)
        entry.grid = _grid(tournament, data, players)
    else:
        if "b-TOTAL_FORMS" not in data:
            data["b-TOTAL_FORMS"] = "0"
            data["b-INITIAL_FORMS"] = "0"
        entry.boards = BoardFormSet(data, players=players, rounds=tournament.rounds)
    return entry
