"""Typed, immutable inputs and results of one DWZ tournament evaluation.

Scores and expected scores are integers in thousandths (a win is 1000) so that sums stay exact; the
JSON layer (``contract.py``) converts them to numbers with three decimals.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def record(*, slots: bool) -> Callable[[type[_T]], type[_T]]:
    """An immutable value class: a dataclass with equality and a hash, read-only for the type checker.

    Not ``frozen=True`` at run time: a frozen dataclass's ``__init__`` sets every field through
    ``object.__setattr__``, which made building a ``PlayerResult`` 8 times slower (5 µs against 0.6 µs) and
    was the largest single cost of an evaluation. mypy still rejects assignments to the fields.
    """

    def wrap(cls: type[_T]) -> type[_T]:
        return dataclass(slots=slots, unsafe_hash=True)(cls)

    return wrap


class Result(StrEnum):
    """Result codes of the JSON contract (spec §3, §13)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_FORFEIT = "+-"
    BLACK_WINS_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"


RESULT_CODES: frozenset[str] = frozenset(r.value for r in Result)
# Forfeits never count for anybody and never become Restpartien (spec §3).
PLAYED_RESULTS: frozenset[str] = frozenset({Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW})
FORFEIT_RESULTS: frozenset[str] = RESULT_CODES - PLAYED_RESULTS
# White's score in thousandths for each played result.
WHITE_SCORE: dict[str, int] = {Result.WHITE_WINS: 1000, Result.BLACK_WINS: 0, Result.DRAW: 500}


class UnsupportedInput(ValueError):
    """Input the engine does not evaluate, e.g. a rating that is not an integer, an unknown or duplicate
    player id, an unknown result code (the JSON contract of spec §13 rejects all of them)."""


class Status(StrEnum):
    RATED = "rated"
    FIRST = "first"
    NOT_RATED = "not_rated"
    # Not a member of a DSB club (WO 3.4.3, 4.1.2): takes part in the calculation, gets no DWZ and keeps
    # no Restpartien.
    NON_MEMBER = "non_member"


def sets_rating(status: str, n: int) -> bool:
    """True if an evaluation with this status and number of counted games sets the player's DWZ: a first
    rating, or a rated player with counted games (a rated player without games keeps his DWZ)."""
    return status == Status.FIRST or (status == Status.RATED and n > 0)


class EditionName(StrEnum):
    CLASSIC = "classic"
    WO2026 = "wo2026"


@record(slots=True)
class RestpartieValue:
    """A game of an unrated player kept for a later first rating (spec §6.1, §6.10)."""

    opponent_rating: int
    score: int  # thousandths: 0, 500 or 1000
    end_date: datetime.date  # end date of the tournament the game was played in


@record(slots=True)
class PlayerInput:
    id: str
    birth_year: int | None = None
    dwz: int | None = None
    index: int | None = None  # only meaningful together with dwz; missing = 0
    fide_elo: int | None = None  # used only without dwz (take-over)
    restpartien: tuple[RestpartieValue, ...] = ()  # used only without dwz and fide_elo
    member: bool = True  # False: not a member of a DSB club (WO 3.4.3); his result is NON_MEMBER


@record(slots=True)
class GameInput:
    white: str
    black: str
    result: str  # one of RESULT_CODES


@record(slots=True)
class TournamentInput:
    end_date: datetime.date
    players: tuple[PlayerInput, ...]
    games: tuple[GameInput, ...]
    code: str | None = None
    name: str | None = None


@record(slots=True)
class PlayerResult:
    id: str
    status: str  # Status value
    dwz_old: int | None
    index_old: int | None
    n: int
    points: int  # thousandths
    expected: int | None  # thousandths
    coefficient: Decimal | None  # classic E (integral) or WO2026 K (1 decimal)
    level: int | None
    performance: int | None
    dwz_new: int | None
    index_new: int | None
    restpartien: tuple[RestpartieValue, ...]
    fide_takeover: bool = False
    # The rating with which the player entered his opponents' We (spec §3): R0, Rh for an Ausnahmespieler
    # (§7.4), the final first rating for a `first` player; None for a `not_rated` player. Also set for a
    # rated player with n = 0 (R0). Not part of the JSON contract (§13).
    entry_rating: int | None = None


@record(slots=True)
class TournamentResult:
    edition: str  # EditionName value
    players: tuple[PlayerResult, ...]
