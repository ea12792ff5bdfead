"""Performance (Leistung), level (Niveau) and the integer search behind both (spec §7).

f(R) = sum of p(R - R_j) is a non-decreasing step function of the integer R, so the first R with
f(R) >= W is found by bisection; the minimisers of |f(R) - W| are the plateau of equal f just below that R
and/or the plateau starting there. Ties are broken with the unrounded sum, then towards the larger R.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .editions import COMMON, CommonParameters
from .expectation import expected_score, rating_difference_for, win_probability
from .rounding import rhu_div


def rounded_sum(rating: int, opponents: Sequence[int]) -> int:
    """f(R) in thousandths."""
    return sum(expected_score(rating - o) for o in opponents)


def unrounded_sum(rating: int, opponents: Sequence[int]) -> float:
    """The tie-break sum with unrounded P, in thousandths."""
    return 1000.0 * sum(win_probability(rating - o) for o in opponents)


def _first_at_least(f: Callable[[int], float], target: float, lo: int, hi: int) -> int:
    """Smallest R in (lo, hi] with f(R) >= target, given f non-decreasing, f(lo) < target <= f(hi)."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if f(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def _best_in_plateau(start: int, end: int, opponents: Sequence[int], w: int) -> tuple[float, int]:
    """(|S(R) - W|, R) minimal over start..end for the strictly increasing unrounded sum S."""

    def s(r: int) -> float:
        return unrounded_sum(r, opponents)

    if s(start) >= w:
        return (s(start) - w, start)
    if s(end) <= w:
        return (w - s(end), end)
    c = _first_at_least(s, w, start, end)
    below, above = w - s(c - 1), s(c) - w
    # Equal distances go to the larger R.
    return (above, c) if above <= below else (below, c - 1)


def solve_reference(opponents: Sequence[int], w: int, common: CommonParameters = COMMON) -> int:
    """The integer R minimising |f(R) - W| (spec §7.1), straight from the definition.

    ``solve`` gives the same answer faster; this one is kept as its oracle and for the rare cases
    where the fast path cannot decide without the plateau extents.
    """
    n = len(opponents)
    if not 0 < w < 1000 * n:
        raise ValueError(f"solve needs 0 < W < n, got W={w / 1000} with n={n}")
    lo = min(opponents) - common.search_margin
    hi = max(opponents) + common.search_margin

    def f(r: int) -> int:
        return rounded_sum(r, opponents)

    # f(lo) = 0 < W and f(hi) = 1000 n > W because the margin exceeds the saturation of p.
    r_star = _first_at_least(f, w, lo, hi)
    f_below, f_at = f(r_star - 1), f(r_star)
    d_below, d_at = w - f_below, f_at - w
    candidates: list[tuple[float, int]] = []
    if d_below <= d_at:
        start = _first_at_least(f, f_below, lo, r_star - 1) if f_below > f(lo) else lo
        candidates.append(_best_in_plateau(start, r_star - 1, opponents, w))
    if d_at <= d_below:
        # The plateau of value f_at ends just before the first R with a larger f (or at hi).
        end = _first_at_least(f, f_at + 1, r_star, hi) - 1 if f(hi) > f_at else hi
        candidates.append(_best_in_plateau(r_star, end, opponents, w))
    # Smallest distance; among equal distances the larger R.
    return min(candidates, key=lambda c: (c[0], -c[1]))[1]


# p over a range wide enough for every difference the search can meet with ratings in 0..3000 (and
# performances of up to 4500 entering as Ausnahmespieler), so the hot loop needs no clipping.
_WIDE = 7000
_T = [expected_score(d) for d in range(-_WIDE, _WIDE + 1)]
_WALK = 32


def solve(opponents: Sequence[int], w: int, common: CommonParameters = COMMON) -> int:
    """The integer R minimising |f(R) - W| (spec §7.1); W in thousandths with 0 < W < 1000 n.

    Same result as ``solve_reference``: gallop from the normal-approximation estimate to a bracket,
    bisect to the first R* with f(R*) >= W, and settle the tie rule with the unrounded sums at R* - 1
    and R*. Only when the unrounded root lies beyond those two points (the best point of a plateau is
    then further away) does it hand over to the reference.
    """
    n = len(opponents)
    if not 0 < w < 1000 * n:
        raise ValueError(f"solve needs 0 < W < n, got W={w / 1000} with n={n}")
    low = min(opponents)
    high = max(opponents)
    lo_bound = low - common.search_margin
    hi_bound = high + common.search_margin
    if hi_bound - low > _WIDE or high - lo_bound > _WIDE:
        return solve_reference(opponents, w, common)
    shifted = [_WIDE - o for o in opponents]
    table = _T

    def f(r: int) -> int:
        return sum([table[r + i] for i in shifted])

    # Bracket: f(lo) < W <= f(hi). f(lo_bound) = 0 and f(hi_bound) = 1000 n hold by the margin.
    guess = int(sum(opponents) / n + rating_difference_for(w / (1000 * n)))
    guess = min(max(guess, lo_bound + 1), hi_bound)
    step = 8
    if f(guess) >= w:
        hi = guess
        lo = guess - step
        while lo > lo_bound and f(lo) >= w:
            hi = lo
            step *= 2
            lo = hi - step
        lo = max(lo, lo_bound)
    else:
        lo = guess
        hi = guess + step
        while hi < hi_bound and f(hi) < w:
            lo = hi
            step *= 2
            hi = lo + step
        hi = min(hi, hi_bound)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if f(mid) >= w:
            hi = mid
        else:
            lo = mid
    r_star = hi
    f_below = f(r_star - 1)
    f_at = f(r_star)
    d_below = w - f_below
    d_at = f_at - w
    if d_below < d_at:
        if unrounded_sum(r_star - 1, opponents) <= w:
            return r_star - 1
    elif d_at < d_below:
        if unrounded_sum(r_star, opponents) >= w:
            return r_star
    else:
        s_below = unrounded_sum(r_star - 1, opponents)
        s_at = unrounded_sum(r_star, opponents)
        if s_below <= w <= s_at:
            return r_star if s_at - w <= w - s_below else r_star - 1
    # The unrounded root lies beyond R* - 1 or R*: find the plateau extents by a short walk (plateaus
    # are a few points long except far out in the tails, where the reference takes over).
    candidates: list[tuple[float, int]] = []
    if d_below <= d_at:
        start = r_star - 1
        while start > lo_bound and r_star - start < _WALK and f(start - 1) == f_below:
            start -= 1
        if r_star - start >= _WALK:
            return solve_reference(opponents, w, common)
        candidates.append(_best_in_plateau(start, r_star - 1, opponents, w))
    if d_at <= d_below:
        end = r_star
        while end < hi_bound and end - r_star < _WALK and f(end + 1) == f_at:
            end += 1
        if end - r_star >= _WALK:
            return solve_reference(opponents, w, common)
        candidates.append(_best_in_plateau(r_star, end, opponents, w))
    return min(candidates, key=lambda c: (c[0], -c[1]))[1]


def level(opponents: Sequence[int]) -> int | None:
    """Niveau: rhu of the mean opponent rating; None without games (spec §7.2)."""
    if not opponents:
        return None
    return rhu_div(sum(opponents), len(opponents))


def performance(opponents: Sequence[int], w: int, common: CommonParameters = COMMON) -> int | None:
    """Leistung of a rated player (spec §7.3): None for n < 5; a fictitious draw vs the level at 0/100 %."""
    n = len(opponents)
    if n < common.min_games:
        return None
    if w == 0 or w == 1000 * n:
        lvl = level(opponents)
        assert lvl is not None
        return solve([*opponents, lvl], w + 500, common)
    return solve(opponents, w, common)
