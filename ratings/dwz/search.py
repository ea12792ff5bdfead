"""The fast search of spec §7.1 (performances, the first-rating iteration): ``solve`` with a start hint.

``solve_general`` follows the definition: bisection for R* over the whole search range, then the plateaus
of f next to it. ``solve`` returns exactly the same (tests/dwz/test_search.py checks both against the
oracle) with only a few passes over the opponents:

* p, the unrounded P and a *packed* table are lists indexed by ``D + _H``. One packed entry holds, for one
  difference D, the slope of P, p at D - 1, D, D + 1 and the rounding errors 1000 P - p at the same three
  points, so one pass over the opponents gives f(R - 1), f(R), f(R + 1), the slope of f and the unrounded
  sums at the same points;
* R* (the first R with f(R) >= W, which does not depend on how it is found) is bracketed by safeguarded
  Newton steps from the hint (R0, or an earlier answer) or from the normal approximation;
* the tie rule is decided by the packed unrounded sums where they are clearly (by more than their error
  bound) on one side, otherwise by the float sums computed exactly as ``solve_general`` computes them;
  plateaus of f are searched as ``solve_general`` searches them.

Opponents outside ``LOW..HIGH`` or more than ``MAX_N`` of them (never from valid input in practice) go to
``solve_general``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .editions import COMMON
from .expectation import expected_score, expected_sum, rating_difference_for, unrounded_sum, win_probability
from .rounding import clamp

# p(D) (thousandths) and the unrounded P(D) for D = -_H.._H, read at index D + _H.
_H = 10_600
P_LIST: list[int] = [expected_score(d) for d in range(-_H, _H + 1)]
P_UNROUNDED: list[float] = [win_probability(d) for d in range(-_H, _H + 1)]
# Ratings (opponents, hints) that every table lookup of a search can take: R within the search margin of
# the opponents, plus one, stays inside the tables.
LOW, HIGH = -3000, 6000
_MARGIN = COMMON.search_margin
_A = LOW - _MARGIN + _H
_B = HIGH + _MARGIN + _H
assert _B + 1 - LOW <= 2 * _H and _A - 1 - HIGH >= 0
OFFSET = _H
# The packed table: one int per D holding
#   bits   0- 31  2**20 * 1000 dP/dD (the density, < 1.42 per point), for the Newton steps;
#   bits  32- 91  p(D - 1), p(D), p(D + 1) in 20-bit fields;
#   bits  92-193  e(D - 1), e(D), e(D + 1) in 34-bit fields, e = 1000 P - p (|e| <= 1/2) in units of 2**-24,
#                 offset by 2**23 so that it is never negative.
# Sums stay exact while n <= MAX_N (1000 n < 2**20, n * 2**24 < 2**34, the density sum < 2**32); the ends
# are clamped, where p and P are saturated anyway.
MAX_N = 1000
assert MAX_N < 2**10  # the key of _D_BY_SCORE
_M20 = (1 << 20) - 1
_M32 = (1 << 32) - 1
_M34 = (1 << 34) - 1
_E_UNITS = 24
_E_SCALE: int = 2**_E_UNITS
_E_OFFSET: int = 2 ** (_E_UNITS - 1)
_LAST = 2 * _H
_F_SHIFT = (32, 52, 72)  # f at R - 1, R, R + 1
_E_SHIFT = (92, 126, 160)  # e sums at R - 1, R, R + 1
_NEWTON_STEPS = 8  # then bisection: the bracket at least halves at every further step


def _density(d: int) -> int:
    x = d / COMMON.erf_divisor
    return int(2**20 * 1000.0 * math.exp(-x * x) / (COMMON.erf_divisor * math.sqrt(math.pi)) + 0.5)


def _error(k: int) -> int:
    """(1000 P - p) at table index k in units of 2**-24, offset by 2**23 (the float error is < 1e-12)."""
    return math.floor((1000.0 * P_UNROUNDED[k] - P_LIST[k]) * _E_SCALE + 0.5) + _E_OFFSET


def _packed_table() -> list[int]:
    p = [P_LIST[0], *P_LIST, P_LIST[_LAST]]  # clamped at both ends, where p and P are saturated
    e = [_error(0), *map(_error, range(_LAST + 1)), _error(_LAST)]
    assert all(0 <= x <= 2**_E_UNITS for x in e)
    return [
        _density(k - _H)
        | p[k] << 32
        | p[k + 1] << 52
        | p[k + 2] << 72
        | e[k] << 92
        | e[k + 1] << 126
        | e[k + 2] << 160
        for k in range(_LAST + 1)
    ]


PACKED: list[int] = _packed_table()
assert P_LIST[0] == 0 and P_LIST[_LAST] == 1000 and P_UNROUNDED[0] == 0.0 and P_UNROUNDED[_LAST] == 1.0


def packed_sum(rating: int, opponents: list[int]) -> int:
    """The packed-table sum at ``rating`` (both in LOW..HIGH); ``rounded_at`` reads f(rating) from it."""
    table, r = PACKED, rating + _H
    total = 0
    for o in opponents:  # a plain loop: cheaper than sum() over a list comprehension on Python 3.11
        total += table[r - o]
    return total


# f(R) of a packed sum at R: (packed >> F_SHIFT) & F_MASK.
F_SHIFT, F_MASK = _F_SHIFT[1], _M20


def rounded_at(packed: int) -> int:
    """f(R) in thousandths from ``packed_sum(R, ...)`` (We with per-game rounded p)."""
    return (packed >> F_SHIFT) & F_MASK


_M24 = (1 << _E_UNITS) - 1


def unrounded_at(packed: int, n: int) -> int | None:
    """rhu(1000 * the sum of the unrounded P, 3) at R in thousandths from ``packed_sum(R, ...)`` over ``n``
    opponents (the 2026 We), or None where that sum is too close to a rounding boundary for the packed
    errors to tell: then ``expectation.unrounded_expected_sum`` decides exactly.

    S = f + sum(e): the packed e sum holds it to within n/2 units of 2**-24 (plus float rounding far below one
    unit), so rhu(S) = f + floor(sum(e) + 1/2) is certain wherever sum(e) + 1/2 is more than n + 16 units
    away from an integer.
    """
    y = ((packed >> _E_SHIFT[1]) & _M34) - (n << (_E_UNITS - 1)) + (1 << (_E_UNITS - 1))
    rest = y & _M24
    margin = n + 16
    if margin < rest < _M24 - margin:
        return ((packed >> _F_SHIFT[1]) & _M20) + (y >> _E_UNITS)
    return None


def _f(r: int, opps: list[int]) -> int:
    """f(R) in thousandths, with R given as R + _H."""
    p = P_LIST
    total = 0
    for o in opps:
        total += p[r - o]
    return total


def _s(r: int, opps: list[int]) -> float:
    """``unrounded_sum`` on the tables (same terms, same float result)."""
    wp = P_UNROUNDED
    return 1000.0 * math.fsum([wp[r - o] for o in opps])


def solve(opponents: list[int], w: int, hint: int | None = None, packed: int | None = None) -> int:
    """The integer R minimising |f(R) - W| (spec §7.1) for 0 < W < 1000 n; the same result as
    ``solve_general``. ``hint`` is a rating near the answer (R0, an earlier answer) and ``packed`` the
    ``packed_sum`` there, if the caller has it."""
    if not opponents or min(opponents) < LOW or max(opponents) > HIGH or len(opponents) > MAX_N:
        return solve_general(opponents, w)
    if not 0 < w < 1000 * len(opponents):
        raise ValueError(f"solve needs 0 < W < n, got W={w / 1000} with n={len(opponents)}")
    return solve_in_range(opponents, w, hint, packed)


def solve_in_range(opponents: list[int], w: int, hint: int | None = None, packed: int | None = None) -> int:
    """``solve`` for callers that know 0 < W < 1000 n, at most MAX_N opponents and all in LOW..HIGH.

    Brackets R* (table positions: f(a) = fa < W <= fb = f(b), b = a + 1) with safeguarded Newton steps inside
    a shrinking bracket; each pass reads f at r - 1, r, r + 1. ``ta`` / ``tb`` are the packed sums in which
    a / b were seen and ``sa`` / ``sb`` the shifts of their e fields (None: not seen in one). One function,
    no bracket object: this runs for every rated player with five games or more.
    """
    table = PACKED
    t = packed
    if hint is None or not LOW <= hint <= HIGH:
        r = clamp(_estimate(opponents, w), _A + 1, _B - 1)
        t = None
    else:
        r = hint + _H
    n = len(opponents)
    # f(a) = 0 < W and f(b) = 1000 n >= W for any opponents in range (the margin exceeds the saturation).
    a, fa, b, fb = _A, 0, _B, 1000 * n
    ta: int | None = None
    tb: int | None = None
    sa = sb = 0
    steps = 0
    while True:
        if t is None:
            t = 0
            for o in opponents:  # a plain loop: cheaper than sum() over a list comprehension on Python 3.11
                t += table[r - o]
        f0 = (t >> 52) & _M20
        if f0 >= w:
            fm = (t >> 32) & _M20
            if fm < w:
                a, fa, ta, sa, b, fb, tb, sb = r - 1, fm, t, 92, r, f0, t, 126
                break
            b, fb, tb, sb = r - 1, fm, t, 92
        else:
            fp = (t >> 72) & _M20
            if fp >= w:
                a, fa, ta, sa, b, fb, tb, sb = r, f0, t, 126, r + 1, fp, t, 160
                break
            a, fa, ta, sa = r + 1, fp, t, 160
        if b - a == 1:
            break
        steps += 1
        slope = t & _M32
        # Newton: floor of R + (W - f) / f'; outside the bracket, or without slope, interpolation between
        # the bracket ends; bisection if it ever takes long.
        nxt = r + (((w - f0) << 20) // slope) if slope else a
        if steps > _NEWTON_STEPS:
            nxt = (a + b) >> 1
        elif nxt <= a or nxt >= b:
            nxt = clamp(a + (w - fa) * (b - a) // (fb - fa), a + 1, b - 1)
        r, t = nxt, None
    decided = _tie_by_sums(a, fa, ta, sa, b, fb, tb, sb, opponents, w)
    if decided is not None:
        return decided - _H
    return _plateau_choice(a, fa, b, fb, opponents, w) - _H


# D(W / n) of the estimate by (W << 10) | n (n <= MAX_N < 2**10): the inverse normal is a Python function of
# several µs, and the fictitious draw of every 0 % / 100 % performance asks for the same few fractions.
_D_BY_SCORE: dict[int, float] = {}


def _estimate(opps: list[int], w: int) -> int:
    """The normal approximation, widened by the opponents' spread, as a table position R + _H."""
    n = len(opps)
    d = _D_BY_SCORE.get(key := w << 10 | n)
    if d is None:
        d = _D_BY_SCORE[key] = rating_difference_for(w / (1000 * n))
    mean = sum(opps) / n
    var = sum([o * o for o in opps]) / n - mean * mean
    sigma2 = (COMMON.erf_divisor / math.sqrt(2)) ** 2
    return int(mean + d * math.sqrt(1.0 + var / sigma2) if var > 0.0 else mean + d) + _H


def _tie_by_sums(  # noqa: PLR0913 -- existing; issue 27
    a: int,
    fa: int,
    ta: int | None,
    sa: int,
    b: int,
    fb: int,
    tb: int | None,
    sb: int,
    opps: list[int],
    w: int,
) -> int | None:
    """The tie rule between R* - 1 = a and R* = b when the unrounded root lies between them (else None).

    The packed sums give S = 1000 sum(P) to within n/2 units of 2**-24 (plus float rounding far below one
    unit), so where they are clearly on one side of W they decide; otherwise the float sums are computed as
    ``solve_general`` computes them, so that the decision is the same.
    """
    n = len(opps)
    half = n << (_E_UNITS - 1)
    d_below, d_at = w - fa, fb - w
    # S(R* - 1) - W and S(R*) - W in units of 2**-24 (to within n/2 + 1), where known.
    xa = None if ta is None else (-d_below << _E_UNITS) + ((ta >> sa) & _M34) - half
    xb = None if tb is None else (d_at << _E_UNITS) + ((tb >> sb) & _M34) - half
    margin = n + 16
    if d_below < d_at:
        if xa is not None and xa < -margin:
            return a
        if (xa is None or xa <= margin) and _s(a, opps) <= w:
            return a
        return None
    if d_at < d_below:
        if xb is not None and xb > margin:
            return b
        if (xb is None or xb >= -margin) and _s(b, opps) >= w:
            return b
        return None
    if xa is not None and xb is not None and xa < -margin and xb > margin:
        # S(R* - 1) < W < S(R*): the nearer one, the larger R on equal distances.
        if xa + xb < -2 * margin:
            return b
        if xa + xb > 2 * margin:
            return a
    s_below, s_at = _s(a, opps), _s(b, opps)
    if s_below <= w <= s_at:
        return b if s_at - w <= w - s_below else a
    return None


def _plateau_choice(a: int, fa: int, b: int, fb: int, opps: list[int], w: int) -> int:
    """The unrounded root lies beyond R* - 1 or R*, on a plateau of f: the best point of the plateau(s)."""
    n = len(opps)
    d_below, d_at = w - fa, fb - w
    candidates: list[tuple[float, int]] = []
    if d_below <= d_at:
        # f is 0 all the way down: the search bound is where the plateau ends.
        start = min(opps) - _MARGIN + _H if fa == 0 else _plateau_start(a, fa, opps)
        if start == a and d_below < d_at:
            return a  # the plateau is R* - 1 alone and the only candidate
        candidates.append(_best_in_plateau(start, a, opps, w))
    if d_at <= d_below:
        end = max(opps) + _MARGIN + _H if fb == 1000 * n else _plateau_end(b, fb, opps)
        if end == b and d_at < d_below:
            return b  # the plateau is R* alone and the only candidate
        candidates.append(_best_in_plateau(b, end, opps, w))
    return min(candidates, key=lambda c: (c[0], -c[1]))[1]


def _plateau_start(top: int, value: int, opps: list[int]) -> int:
    """The first R with f(R) >= value, given f(top) = value: gallop down, then bisect."""
    floor = min(opps) - _MARGIN + _H
    step = 1
    while True:
        bottom = top - step
        if bottom <= floor:
            bottom = floor
            break
        if _f(bottom, opps) < value:
            break
        top = bottom
        step += step
    while top - bottom > 1:
        mid = (top + bottom) >> 1
        if _f(mid, opps) >= value:
            top = mid
        else:
            bottom = mid
    return top


def _plateau_end(bottom: int, value: int, opps: list[int]) -> int:
    """The last R with f(R) <= value, given f(bottom) = value: gallop up, then bisect."""
    ceiling = max(opps) + _MARGIN + _H
    step = 1
    while True:
        top = bottom + step
        if top >= ceiling:
            top = ceiling
            break
        if _f(top, opps) > value:
            break
        bottom = top
        step += step
    while top - bottom > 1:
        mid = (top + bottom) >> 1
        if _f(mid, opps) > value:
            top = mid
        else:
            bottom = mid
    return bottom


def _best_in_plateau(start: int, end: int, opps: list[int], w: int) -> tuple[float, int]:
    """(|S(R) - W|, R) minimal over start..end (table positions) for the strictly increasing S."""
    s0 = _s(start, opps)
    if s0 >= w:
        return (s0 - w, start)
    s1 = _s(end, opps)
    if s1 <= w:
        return (w - s1, end)
    lo, hi = start, end
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _s(mid, opps) >= w:
            hi = mid
        else:
            lo = mid
    below, above = w - _s(hi - 1, opps), _s(hi, opps) - w
    return (above, hi) if above <= below else (below, hi - 1)


# ---------------------------------------------------------------------------------------------- general


def solve_general(opponents: list[int], w: int) -> int:
    """The integer R minimising |f(R) - W| (spec §7.1), straight from the definition, for any opponents.

    f(lo) = 0 < W and f(hi) = 1000 n > W at the bounds, because the margin exceeds the saturation of p.
    """
    n = len(opponents)
    if not 0 < w < 1000 * n:
        raise ValueError(f"solve needs 0 < W < n, got W={w / 1000} with n={n}")
    lo = min(opponents) - _MARGIN
    hi = max(opponents) + _MARGIN

    def f(r: int) -> int:
        return expected_sum(r, opponents)

    r_star = _first_at_least(f, w, lo, hi)
    f_below, f_at = f(r_star - 1), f(r_star)
    d_below, d_at = w - f_below, f_at - w
    candidates: list[tuple[float, int]] = []
    if d_below <= d_at:
        start = _first_at_least(f, f_below, lo, r_star - 1) if f_below > f(lo) else lo
        candidates.append(_best_general(start, r_star - 1, opponents, w))
    if d_at <= d_below:
        # The plateau of value f_at ends just before the first R with a larger f (or at hi).
        end = _first_at_least(f, f_at + 1, r_star, hi) - 1 if f(hi) > f_at else hi
        candidates.append(_best_general(r_star, end, opponents, w))
    # Smallest distance; among equal distances the larger R.
    return min(candidates, key=lambda c: (c[0], -c[1]))[1]


def _first_at_least(f: Callable[[int], float], target: float, lo: int, hi: int) -> int:
    """Smallest R in (lo, hi] with f(R) >= target, given f non-decreasing, f(lo) < target <= f(hi)."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if f(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def _best_general(start: int, end: int, opponents: list[int], w: int) -> tuple[float, int]:
    """(|S(R) - W|, R) minimal over start..end for the strictly increasing unrounded sum S."""

    def s(r: int) -> float:
        return unrounded_sum(r, opponents)

    if s(start) >= w:
        return (s(start) - w, start)
    if s(end) <= w:
        return (w - s(end), end)
    c = _first_at_least(s, w, start, end)
    below, above = w - s(c - 1), s(c) - w
    return (above, c) if above <= below else (below, c - 1)
