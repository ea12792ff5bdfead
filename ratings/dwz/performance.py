"""Performance (Leistung) and level (Niveau) of a player's games (spec §7.2, §7.3)."""

from __future__ import annotations

from collections.abc import Sequence

from .editions import COMMON, CommonParameters
from .rounding import rhu_div
from .search import solve


def level(opponents: Sequence[int]) -> int | None:
    """Niveau: rhu of the mean opponent rating; None without games (spec §7.2)."""
    if not opponents:
        return None
    return rhu_div(sum(opponents), len(opponents))


def performance(
    opponents: Sequence[int], w: int, common: CommonParameters = COMMON, hint: int | None = None
) -> int | None:
    """Leistung of a rated player (spec §7.3): None for n < 5; a fictitious draw vs the level at 0/100 %.

    ``hint`` is a rating near the answer (R0, or an earlier performance); it only saves work.
    """
    n = len(opponents)
    if n < common.min_games:
        return None
    if w == 0 or w == 1000 * n:
        lvl = level(opponents)
        assert lvl is not None
        return solve([*opponents, lvl], w + 500, hint)
    return solve(list(opponents), w, hint)
