"""Typed, immutable values of a division: teams, matches, boards, and the messages the checks produce."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


def gettext_noop(message: str) -> str:
    """Marks a message for translation (picked up by ``makemessages``); translated by the caller."""
    return message


class Result(StrEnum):
    """A board's result from the home player's side (the import contract)."""

    HOME_WINS = "1-0"
    AWAY_WINS = "0-1"
    DRAW = "1/2-1/2"
    HOME_WINS_FORFEIT = "+-"
    AWAY_WINS_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"


RESULT_CODES: frozenset[str] = frozenset(r.value for r in Result)
RESULT_CODES_SORTED: list[str] = sorted(RESULT_CODES)
PLAYED_RESULTS: frozenset[str] = frozenset({Result.HOME_WINS, Result.AWAY_WINS, Result.DRAW})
# The home side's board points (halves) for each result.
HOME_HALVES: dict[str, int] = {
    Result.HOME_WINS: 2,
    Result.AWAY_WINS: 0,
    Result.DRAW: 1,
    Result.HOME_WINS_FORFEIT: 2,
    Result.AWAY_WINS_FORFEIT: 0,
    Result.DOUBLE_FORFEIT: 0,
}
AWAY_HALVES: dict[str, int] = {
    Result.HOME_WINS: 0,
    Result.AWAY_WINS: 2,
    Result.DRAW: 1,
    Result.HOME_WINS_FORFEIT: 0,
    Result.AWAY_WINS_FORFEIT: 2,
    Result.DOUBLE_FORFEIT: 0,
}


class MatchStatus(StrEnum):
    """``home_forfeit``: the home team lost by forfeit (did not appear); likewise ``away_forfeit``."""

    SCHEDULED = "scheduled"
    PLAYED = "played"
    HOME_FORFEIT = "home_forfeit"
    AWAY_FORFEIT = "away_forfeit"
    DOUBLE_FORFEIT = "double_forfeit"
    BYE = "bye"


FORFEIT_STATUSES: frozenset[str] = frozenset(
    {MatchStatus.HOME_FORFEIT, MatchStatus.AWAY_FORFEIT, MatchStatus.DOUBLE_FORFEIT}
)


@dataclass(frozen=True, slots=True)
class MatchPoints:
    win: int = 2
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True, slots=True)
class Team:
    id: str
    name: str = ""
    club: str | None = None  # the ranking list's key (the leading club's ZPS for a playing community)
    number: int = 1  # the team number within the club
    withdrawn_on: datetime.date | None = None
    match_point_deduction: int = 0
    board_point_deduction: int = 0  # halves

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True, slots=True)
class Board:
    number: int
    home: str | None = None  # player id; None: the board was left empty
    away: str | None = None
    result: str | None = None  # sporting result (Result value); None: not reported
    rated_result: str | None = None  # for the DWZ; None: as ``result``
    played_on: datetime.date | None = None  # None: the match's day
    home_white: bool | None = None  # None: the division's rule (home has white on odd boards)


@dataclass(frozen=True, slots=True)
class Match:
    round: int
    home: str  # team id
    away: str | None  # None: a bye
    date: datetime.date  # scheduled
    status: str = MatchStatus.SCHEDULED
    boards: tuple[Board, ...] = ()
    played_on: datetime.date | None = None  # a postponed match's day
    cycle: int = 1
    id: str | None = None

    @property
    def day(self) -> datetime.date:
        """The day the match was actually played (or is scheduled)."""
        return self.played_on or self.date

    def teams(self) -> tuple[str, ...]:
        return (self.home,) if self.away is None else (self.home, self.away)


@dataclass(frozen=True, slots=True)
class Message:
    """A German message with its parameters: ``template % params`` (the caller translates the template)."""

    template: str
    params: Mapping[str, str | int] = field(default_factory=dict, hash=False)

    @property
    def text(self) -> str:
        return self.template % dict(self.params)


def halves_text(halves: int) -> str:
    """Board points for display: 9 → "4½", 1 → "½", -3 → "-1½"."""
    sign = "-" if halves < 0 else ""
    whole, half = divmod(abs(halves), 2)
    if half and not whole:
        return f"{sign}½"
    return f"{sign}{whole}{'½' if half else ''}"
