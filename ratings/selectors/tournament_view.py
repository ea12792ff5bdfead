"""The tournament page's presentation: start list rows with scoresheets, crosstable and progress cells.

Built from rows already loaded (``ratings.selectors.tournaments.tournament_view`` loads them); nothing here
queries. The entry ratings come from what the engine stored (``Evaluation.entry_rating``) and the expected
scores from the engine.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Protocol

from ratings.dwz import expected_score
from ratings.enums import ResultCode
from ratings.models import Club, Evaluation, Player, Tournament, TournamentEntry


class GameRow(Protocol):
    """What the page reads of a game (a ``Game`` or a ``values_list(..., named=True)`` row): read-only."""

    @property
    def round(self) -> int: ...
    @property
    def white_id(self) -> int: ...
    @property
    def black_id(self) -> int | None: ...
    @property
    def result(self) -> str: ...


# Results as seen from one side: (points for white, points for black) for display and progress tables.
# Keyed by ``str``: the rows give the stored code (a ResultCode is a str).
_WHITE_POINTS: dict[str, Decimal] = {
    ResultCode.WHITE_WINS: Decimal(1),
    ResultCode.BLACK_WINS: Decimal(0),
    ResultCode.DRAW: Decimal("0.5"),
    ResultCode.WHITE_WINS_FORFEIT: Decimal(1),
    ResultCode.BLACK_WINS_FORFEIT: Decimal(0),
    ResultCode.DOUBLE_FORFEIT: Decimal(0),
    ResultCode.BYE: Decimal(1),
    ResultCode.FULL_POINT_BYE: Decimal(1),
    ResultCode.HALF_POINT_BYE: Decimal("0.5"),
    ResultCode.UNPAIRED: Decimal(0),
    ResultCode.ZERO_POINT_BYE: Decimal(0),
}
_BLACK_POINTS: dict[str, Decimal] = {
    ResultCode.WHITE_WINS: Decimal(0),
    ResultCode.BLACK_WINS: Decimal(1),
    ResultCode.DRAW: Decimal("0.5"),
    ResultCode.WHITE_WINS_FORFEIT: Decimal(0),
    ResultCode.BLACK_WINS_FORFEIT: Decimal(1),
    ResultCode.DOUBLE_FORFEIT: Decimal(0),
}
_FORFEIT_SYMBOL: dict[str, tuple[str, str]] = {
    ResultCode.WHITE_WINS_FORFEIT: ("+", "−"),
    ResultCode.BLACK_WINS_FORFEIT: ("−", "+"),
    ResultCode.DOUBLE_FORFEIT: ("−", "−"),
}
_BYE_SYMBOL: dict[str, str] = {
    ResultCode.BYE: "+",
    ResultCode.FULL_POINT_BYE: "+",
    ResultCode.HALF_POINT_BYE: "½",
}
_PLAYED = {ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW}


def _symbol(points: Decimal) -> str:
    return {Decimal(1): "1", Decimal("0.5"): "½", Decimal(0): "0"}[points]


@dataclass
class ScoreLine:
    """One round of a player's scoresheet."""

    round: int
    opponent: TournamentEntry | None
    opponent_rating: int | None  # the opponent's entry rating used for We (None: game not counted)
    colour: str  # "w", "s" or ""
    result: str  # "1", "½", "0", "+", "−", or a bye label
    points: Decimal | None
    expected: Decimal | None  # p per game from the engine, None when not counted
    counted: bool


@dataclass
class ProgressCell:
    """One round in the progress table (Fortschrittstabelle): opponent number, colour, result, running sum."""

    opponent: int | None
    colour: str
    result: str
    total: Decimal | None


@dataclass
class EntryRow:
    entry: TournamentEntry
    number: int  # position in the start list (1-based)
    evaluation: Evaluation | None
    club: Club | None
    points: Decimal = Decimal(0)
    games: int = 0
    lines: list[ScoreLine] = field(default_factory=list)
    cells: dict = field(default_factory=dict)  # crosstable: opponent number -> symbols
    progress: list[ProgressCell] = field(default_factory=list)

    @property
    def player(self) -> Player:
        return self.entry.player

    @property
    def change(self) -> int | None:
        e = self.evaluation
        if e is None or e.dwz_new is None or e.dwz_old is None:
            return None
        return e.dwz_new - e.dwz_old

    @property
    def expected_sum(self) -> Decimal | None:
        values = [line.expected for line in self.lines if line.expected is not None]
        return sum(values, Decimal(0)) if values else None

    @property
    def we_from_unrounded_sum(self) -> Decimal | None:
        """The stored We of a rated player when it is not the sum of the shown per-game P: in the WO 2026
        edition We is the unrounded sum of P rounded once (spec §16), the scoresheet shows rounded P."""
        e = self.evaluation
        if e is None or not _entered_rated(e) or e.expected is None:
            return None
        shown = self.expected_sum
        return e.expected if shown is not None and shown != e.expected else None


@dataclass
class TournamentView:
    tournament: Tournament
    rows: list[EntryRow]
    rounds: list[int]
    round_robin: bool
    games: int
    played: int

    @property
    def evaluated(self) -> bool:
        return any(r.evaluation is not None for r in self.rows)


def own_rating_for_expectation(evaluation: Evaluation | None) -> int | None:
    """The player's own rating in his We, as the engine stored it: R0 (``dwz_old``) for a player who entered
    rated, also an Ausnahmespieler, whose ``entry_rating`` is Rh but whose own We uses R0 (spec §7.4); the
    final iteration value R_i (``performance``) for a first rating (spec §6.9). A non-member (WO 3.4.3)
    keeps these values under his own status. None for a player outside the calculation (``entry_rating``
    NULL: not rated; rows stored before that field existed also count as outside until ``recalculate``)."""
    if evaluation is None or evaluation.entry_rating is None:
        return None
    return evaluation.dwz_old if evaluation.dwz_old is not None else evaluation.performance


def _entered_rated(e: Evaluation) -> bool:
    """In the calculation with an R0: rated, or a non-member (WO 3.4.3) who entered with his DWZ or Elo."""
    return e.entry_rating is not None and e.dwz_old is not None


def _entered_first(e: Evaluation) -> bool:
    """In the calculation without an R0: a first rating, or a non-member without a rating who reached a
    Zusatzstufe."""
    return e.entry_rating is not None and e.dwz_old is None


def _both_first(mine: Evaluation | None, theirs: Evaluation | None) -> bool:
    return mine is not None and theirs is not None and _entered_first(mine) and _entered_first(theirs)


def _add_game(
    game: GameRow, by_player: dict[int, EntryRow], counted_players: set[int], pairs, games_shown: bool
) -> None:
    white = by_player.get(game.white_id)
    if white is None:
        return
    if game.black_id is None:
        pts = _WHITE_POINTS.get(game.result, Decimal(0))
        label = _BYE_SYMBOL.get(game.result, "−")
        white.lines.append(ScoreLine(game.round, None, None, "", label, pts, None, False))
        white.points += pts
        return
    black = by_player.get(game.black_id)
    if black is None:
        return
    pairs[frozenset((white.number, black.number))] += 1
    counted = game.result in _PLAYED and game.white_id in counted_players and game.black_id in counted_players
    for me, opp, colour, pts_map, idx in (
        (white, black, "w", _WHITE_POINTS, 0),
        (black, white, "s", _BLACK_POINTS, 1),
    ):
        pts = pts_map[game.result]
        text = _FORFEIT_SYMBOL[game.result][idx] if game.result in _FORFEIT_SYMBOL else _symbol(pts)
        opp_rating = opp.evaluation.entry_rating if counted and opp.evaluation else None
        if counted and opp.evaluation is not None and _both_first(me.evaluation, opp.evaluation):
            # Spec §6.5/§6.9: between two first ratings the engine used the opponent's iteration value
            # (stored as his performance), not his first rating.
            opp_rating = opp.evaluation.performance
        own_rating = own_rating_for_expectation(me.evaluation) if counted and games_shown else None
        expected = None
        if own_rating is not None and opp_rating is not None:
            expected = Decimal(expected_score(own_rating - opp_rating)) / 1000
        me.lines.append(ScoreLine(game.round, opp.entry, opp_rating, colour, text, pts, expected, counted))
        me.points += pts
        if game.result in _PLAYED:
            me.games += 1
        if games_shown:
            me.cells.setdefault(opp.number, []).append(text)


def _fill_progress(
    rows: list[EntryRow], by_player: dict[int, EntryRow], rounds: list[int], games_shown: bool
) -> None:
    for row in rows:
        row.lines.sort(key=lambda line: line.round)
        if not games_shown:
            continue
        by_round = {line.round: line for line in row.lines}
        total = Decimal(0)
        for rnd in rounds:
            line = by_round.get(rnd)
            if line is None:
                row.progress.append(ProgressCell(None, "", "", None))
                continue
            total += line.points or 0
            opp_number = by_player[line.opponent.player_id].number if line.opponent is not None else None
            row.progress.append(ProgressCell(opp_number, line.colour, line.result, total))
        row.cells = {k: "".join(v) for k, v in row.cells.items()}


def build(
    *,
    tournament: Tournament,
    entries: list[TournamentEntry],
    evaluations: dict[int, Evaluation],
    clubs: dict[int, Club],
    games: Sequence[GameRow],
    games_shown: bool = True,
) -> TournamentView:
    """The page from the loaded rows: ``entries`` in start-list order, ``evaluations`` and ``clubs`` by
    player id, ``games`` by round and board. Without ``games_shown`` the rows have their scoresheet lines
    (points, opponents, colours: enough for the placing) but no per-game expectations, crosstable cells or
    progress cells (a large tournament's page leaves those to a request of their own)."""
    rows = [
        EntryRow(entry=e, number=i, evaluation=evaluations.get(e.player_id), club=clubs.get(e.player_id))
        for i, e in enumerate(entries, start=1)
    ]
    by_player = {row.entry.player_id: row for row in rows}
    # A game counts for the rating when both players entered the evaluation (Auswahl II) and it was played.
    counted_players = {pid for pid, ev in evaluations.items() if ev.entry_rating is not None}
    pairs: dict[frozenset, int] = defaultdict(int)
    for game in games:
        _add_game(game, by_player, counted_players, pairs, games_shown)
    rounds = sorted({g.round for g in games})
    _fill_progress(rows, by_player, rounds, games_shown)
    n = len(rows)
    return TournamentView(
        tournament=tournament,
        rows=rows,
        rounds=rounds,
        round_robin=n >= 2 and len(pairs) == n * (n - 1) // 2 and bool(pairs),
        games=sum(1 for g in games if g.black_id is not None),
        played=sum(1 for g in games if g.result in _PLAYED),
    )
