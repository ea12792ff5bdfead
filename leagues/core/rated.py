"""The games a division's DWZ tournament holds, its end date and the proposed parts (WO 2.2.2, 2.2.3, 3.1).

One game per board actually played: both players present, a played result (the rated result where the
director changed the sporting one), in a match with status ``played``. Forfeits, empty boards, byes and
forfeited matches are never rated. Each game carries the day it was played (the board's, else the match's:
the postponed date or the scheduled one). The end date is the day of the last game played.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .types import PLAYED_RESULTS, Match, MatchStatus, Result

PART_GAP = datetime.timedelta(weeks=8)  # WO 2.2.2: a break of more than 8 weeks
_FLIP = {Result.HOME_WINS: Result.AWAY_WINS, Result.AWAY_WINS: Result.HOME_WINS, Result.DRAW: Result.DRAW}


@dataclass(frozen=True, slots=True)
class RatedGame:
    round: int
    board: int
    white: str
    black: str
    result: str  # "1-0" | "0-1" | "1/2-1/2" from white's side
    played_on: datetime.date
    home: str  # the home team's id
    away: str


def home_has_white(board: int, home_white_on_odd: bool = True) -> bool:
    return (board % 2 == 1) == home_white_on_odd


def rated_games(matches: Iterable[Match], *, home_white_on_odd: bool = True) -> tuple[RatedGame, ...]:
    """The rated games in the order played (day, round, board)."""
    games = []
    for match in matches:
        if match.status != MatchStatus.PLAYED or match.away is None:
            continue
        for board in match.boards:
            result = board.rated_result or board.result
            if board.home is None or board.away is None or result not in PLAYED_RESULTS:
                continue
            assert result is not None
            white_home = board.home_white
            if white_home is None:
                white_home = home_has_white(board.number, home_white_on_odd)
            white, black = (board.home, board.away) if white_home else (board.away, board.home)
            code = result if white_home else _FLIP[Result(result)]
            day = board.played_on or match.day
            games.append(
                RatedGame(match.round, board.number, white, black, str(code), day, match.home, match.away)
            )
    return tuple(sorted(games, key=lambda g: (g.played_on, g.round, g.home, g.board)))


def end_date(games: Iterable[RatedGame]) -> datetime.date | None:
    """The day of the last game played (WO 2.2.3); None without games."""
    return max((g.played_on for g in games), default=None)


def start_date(games: Iterable[RatedGame]) -> datetime.date | None:
    return min((g.played_on for g in games), default=None)


@dataclass(frozen=True, slots=True)
class Part:
    number: int
    from_date: datetime.date  # the first game's day
    to_date: datetime.date  # the last game's day
    games: int
    rounds: tuple[int, ...]


def proposed_parts(games: Sequence[RatedGame], gap: datetime.timedelta = PART_GAP) -> tuple[Part, ...]:
    """The parts the division falls into at every break of more than ``gap`` between two game days (one part
    without such a break; none without games). A proposal only: the officer decides."""
    days = sorted({g.played_on for g in games})
    if not days:
        return ()
    starts = [days[0]] + [b for a, b in itertools.pairwise(days) if b - a > gap]
    return tuple(
        _part(k + 1, start, starts[k + 1] if k + 1 < len(starts) else None, games)
        for k, start in enumerate(starts)
    )


def _part(number: int, start: datetime.date, stop: datetime.date | None, games: Sequence[RatedGame]) -> Part:
    inside = [g for g in games if g.played_on >= start and (stop is None or g.played_on < stop)]
    return Part(
        number=number,
        from_date=start,
        to_date=max(g.played_on for g in inside),
        games=len(inside),
        rounds=tuple(sorted({g.round for g in inside})),
    )


def games_of_part(
    games: Iterable[RatedGame], from_date: datetime.date | None, until: datetime.date | None
) -> tuple[RatedGame, ...]:
    """The games of a part that starts ``from_date`` (None: the beginning) and ends before ``until`` (None:
    open); the same rule as ``DivisionPart``."""
    return tuple(
        g
        for g in games
        if (from_date is None or g.played_on >= from_date) and (until is None or g.played_on < until)
    )
