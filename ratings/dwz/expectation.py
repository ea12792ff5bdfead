"""Expected score of one game (spec §2): p(D) = rhu(Phi(D / (200*sqrt(2))), 3), in thousandths.

D is an integer and p is rounded to 3 decimals, so p is a table over -930..930, computed once at import.
Outside that range p is exactly 0 or 1000. The spec guarantees that no integer D lies within 3e-7 of a
rounding boundary, so the double-precision erf gives the official table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from statistics import NormalDist

from .editions import COMMON
from .rounding import rhu_div

_ERF_DIVISOR = COMMON.erf_divisor
# Offset so that index 0 is "D <= -saturation" (p = 0) and the last index is "D >= saturation" (p = 1000).
P_OFFSET = COMMON.p_saturation
_QUANTUM = Decimal(1).scaleb(-COMMON.p_decimals)
_SCALE: int = 10**COMMON.p_decimals


def win_probability(d: float) -> float:
    """Unrounded P(D) = 1/2 (1 + erf(D/400))."""
    return 0.5 * (1.0 + math.erf(d / _ERF_DIVISOR))


def _rounded(d: int) -> int:
    # Decimal(float) is the exact binary value, so quantize rounds it exactly once, half up.
    return int(Decimal(win_probability(d)).quantize(_QUANTUM, rounding=ROUND_HALF_UP) * _SCALE)


P_TABLE: tuple[int, ...] = tuple(_rounded(d) for d in range(-P_OFFSET, P_OFFSET + 1))
_LAST = len(P_TABLE) - 1
assert P_TABLE[0] == 0 and P_TABLE[-1] == _SCALE


def expected_score(d: int) -> int:
    """p(D) in thousandths for an integer rating difference D = own - opponent."""
    i = d + P_OFFSET
    if i <= 0:
        return 0
    if i >= _LAST:
        return _SCALE
    return P_TABLE[i]


def expected_sum(rating: int, opponents: Iterable[int]) -> int:
    """We in thousandths as the exact sum of the per-game rounded p (``expected_score`` inlined)."""
    table, last, r = P_TABLE, _LAST, rating + P_OFFSET
    return sum([table[i] if 0 < (i := r - o) < last else (0 if i <= 0 else _SCALE) for o in opponents])


# The unrounded P of a double is m / 2**k with k <= 1074: as an integer in units of 2**-1074 every sum of
# them is exact, and one half-up rounding of that exact sum is the rated player's We of spec §16.
_EXACT_BITS = 1074
_EXACT: dict[int, int] = {}


def _exact_probability(d: int) -> int:
    got = _EXACT.get(d)
    if got is None:
        numerator, denominator = win_probability(d).as_integer_ratio()
        got = _EXACT[d] = numerator << (_EXACT_BITS - denominator.bit_length() + 1)
    return got


def unrounded_expected_sum(rating: int, opponents: Iterable[int]) -> int:
    """We in thousandths as rhu(sum of the unrounded P, 3): the sum exact, rounded half up once."""
    total = sum([_exact_probability(rating - o) for o in opponents])
    return rhu_div(total * _SCALE, 1 << _EXACT_BITS)


def unrounded_sum(rating: int, opponents: Sequence[int]) -> float:
    """1000 * the sum of the unrounded P, in float: the tie-break sum of the search (spec §7.1).

    ``math.fsum`` rounds the exact sum once, so the tie-break does not depend on the order of the games: a
    running ``sum`` can land on either side of a near tie depending on that order.
    """
    return 1000.0 * math.fsum([win_probability(rating - o) for o in opponents])


_NORMAL = NormalDist()
_SIGMA = _ERF_DIVISOR / math.sqrt(2)  # 200*sqrt(2)


def rating_difference_for(score_fraction: float) -> float:
    """D(p) = 200*sqrt(2) * Phi^-1(p), the unrounded inverse of P (start values, spec §6.4)."""
    return _SIGMA * _NORMAL.inv_cdf(score_fraction)
