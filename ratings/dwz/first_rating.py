"""First ratings (Erst-DWZ, spec §6): Restpartien window, Zusatzstufen test, start values, the simultaneous
(Jacobi) iteration and the edition's mapping from the final iteration value to the first rating."""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .editions import COMMON, CommonParameters, Edition
from .expectation import rating_difference_for
from .rounding import rhu
from .search import solve
from .types import RestpartieValue


def restpartie_valid(
    rp: RestpartieValue, end_date: datetime.date, years: int = COMMON.restpartien_years
) -> bool:
    """rp.end_date <= end_date <= rp.end_date + years, compared as (year, month, day) tuples.

    Comparing tuples instead of adding years to a date makes 29 Feb + 2 years act as 28 Feb (the game
    is valid up to 28 Feb, not 1 Mar) without a special case.
    """
    if rp.end_date > end_date:
        return False
    limit = (rp.end_date.year + years, rp.end_date.month, rp.end_date.day)
    return (end_date.year, end_date.month, end_date.day) <= limit


def qualifies(scores: Sequence[int], tournament_games: int, common: CommonParameters = COMMON) -> bool:
    """Zusatzstufe test (spec §6.2/6.3): >= 5 games, 0 < W < n, and at least one game of this tournament.

    ``scores`` are the thousandths of all games of the test (tournament games plus valid Restpartien).
    """
    n = len(scores)
    w = sum(scores)
    return n >= common.min_games and 0 < w < 1000 * n and tournament_games >= 1


def start_value(opponents: Sequence[int], w: int) -> int:
    """rhu(Rc + D(W/n)) with Rc the exact mean of the opponent ratings (spec §6.4)."""
    n = len(opponents)
    total = sum(opponents)
    d = rating_difference_for(w / (1000 * n))
    # The float sum decides where it is clearly off a .5 boundary (its error is far below 1e-6); closer
    # to one, the exact sum of the Fractions does.
    x = total / n + d
    below = math.floor(x)
    if abs(x - below - 0.5) > 1e-6:
        return below + 1 if x - below > 0.5 else below
    return rhu(Fraction(total, n) + Fraction(d))


@dataclass(frozen=True, slots=True)
class IterationPlayer:
    """One Zusatzstufe player as the iteration sees him."""

    fixed: tuple[int, ...]  # ratings that do not move: rated opponents (entry rating) and Restpartien
    moving: tuple[int, ...]  # keys of Zusatzstufe opponents, one per game
    points: int  # W in thousandths over all of them


def iterate(
    players: Mapping[int, IterationPlayer], start: Mapping[int, int], common: CommonParameters = COMMON
) -> tuple[dict[int, int], dict[int, int]]:
    """Jacobi iteration (spec §6.5). Returns (final values R_i, the values the last round used).

    Every round uses only the previous round's values (never values of the same round, which would be
    Gauss-Seidel and order dependent). It stops after the first round that changes nothing, or after the
    cap, where a rare +-1 two-cycle is cut deterministically. A player none of whose moving opponents
    changed in the previous round has the same inputs as then, so his value is kept without a search.
    """
    values = dict(start)
    previous = values
    changed: set[int] | None = None  # players whose value changed in the previous round (None: first round)
    for _ in range(common.iteration_cap):
        previous = values
        values = {}
        for key, p in players.items():
            if changed is not None and changed.isdisjoint(p.moving):
                values[key] = previous[key]
            else:
                opponents = [*p.fixed, *(previous[m] for m in p.moving)]
                values[key] = solve(opponents, p.points, previous[key])
        if values == previous:
            break
        changed = {key for key, v in values.items() if v != previous[key]}
    return values, previous


def map_first_rating(r_i: int, edition: Edition) -> int:
    """The first rating from the final iteration value R_i (= the performance L), spec §6.7."""
    if edition.classic is not None:
        c = edition.classic
        if r_i < c.first_low_below:
            return rhu(c.first_low_base + Fraction(r_i, c.first_low_divisor))
        return r_i
    w = edition.wo2026
    assert w is not None
    if r_i >= w.first_top:
        value: Fraction | int = r_i
    elif r_i >= w.first_floor:
        value = r_i + w.r * (w.first_top - r_i)
    else:
        # 1100 + 9 r L / 11: scaled so that it continues the middle branch (at L = 1100 both give
        # 1100 + 900 r); written with the parameters so the 9/11 follows a changed top or floor.
        value = w.first_floor + w.r * r_i * Fraction(w.first_top - w.first_floor, w.first_floor)
    return max(w.first_floor, rhu(value))
