"""Each player's board record (the "Brettpunkte" table, spec/leagues.md §5): the boards he sat at for a team,
his points and his games actually played.

Counted from the sporting result of matches with status ``played`` (a match lost by forfeit has no boards to
credit). A board whose opponent stayed empty is a point won by forfeit: it counts in ``halves`` and ``boards``
but not in ``played``. A board without a result yet counts for nobody.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .table import board_halves
from .types import PLAYED_RESULTS, Match, MatchStatus


@dataclass(frozen=True, slots=True)
class PlayerScore:
    player: str
    team: str
    boards: tuple[int, ...]  # the board numbers he played on, ascending, each once
    games: int  # boards with a result (forfeits included)
    played: int  # games actually played (rated)
    halves: int  # board points in halves

    @property
    def first_board(self) -> int:
        return self.boards[0] if self.boards else 0


@dataclass
class _Tally:
    boards: set[int]
    games: int = 0
    played: int = 0
    halves: int = 0


def player_scores(matches: Iterable[Match], *, team: str | None = None) -> tuple[PlayerScore, ...]:
    """The record of every player (of ``team`` only, when given), by team, first board, then player id."""
    tallies: dict[tuple[str, str], _Tally] = {}
    for match in matches:
        if match.status != MatchStatus.PLAYED or match.away is None:
            continue
        for board in match.boards:
            halves = board_halves(board)
            if halves is None:
                continue
            played = board.home is not None and board.away is not None and board.result in PLAYED_RESULTS
            for player, side, points in (
                (board.home, match.home, halves[0]),
                (board.away, match.away, halves[1]),
            ):
                if player is None or (team is not None and side != team):
                    continue
                tally = tallies.setdefault((side, player), _Tally(set()))
                tally.boards.add(board.number)
                tally.games += 1
                tally.played += played
                tally.halves += points
    scores = [
        PlayerScore(player, side, tuple(sorted(t.boards)), t.games, t.played, t.halves)
        for (side, player), t in tallies.items()
    ]
    return tuple(sorted(scores, key=lambda s: (s.team, s.first_board, s.player)))
