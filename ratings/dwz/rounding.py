"""Half-up rounding helpers (spec §2).

The rating rules round "half up" (half away from zero) and only at fixed points. Python's ``round()`` rounds
half to even (1664.5 -> 1664), which changes official results, so it must never be used in this package.
All helpers work on exact values (int, Fraction, Decimal); a float is converted exactly first, because the
spec allows floating point only inside erf, exp and the inverse normal distribution.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

Exact = int | Fraction | Decimal | float


def rhu_div(numerator: int, denominator: int) -> int:
    """Round numerator/denominator half away from zero, in integer arithmetic (the hot path)."""
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    if numerator >= 0:
        return (2 * numerator + denominator) // (2 * denominator)
    return -((-2 * numerator + denominator) // (2 * denominator))


def clamp(value: int, low: int, high: int) -> int:
    """min(max(value, low), high) for ``low <= high``; the two builtins cost several times this on 3.11."""
    if value < low:
        return low
    return high if value > high else value


def _as_fraction(value: Exact) -> Fraction:
    # Fraction(float) is exact: the binary value is kept, so no second rounding sneaks in here.
    return value if isinstance(value, Fraction) else Fraction(value)


def rhu(value: Exact) -> int:
    """Round to an integer, half away from zero."""
    if isinstance(value, int):
        return value
    f = _as_fraction(value)
    return rhu_div(f.numerator, f.denominator)


def rhu_scaled(value: Exact, places: int) -> int:
    """Round ``value`` to ``places`` decimals and return it scaled by 10**places (e.g. 25.667 -> 257 at 1)."""
    f = _as_fraction(value) * 10**places
    return rhu_div(f.numerator, f.denominator)


def rhu_decimal(value: Exact, places: int) -> Decimal:
    """Round to ``places`` decimals and return a Decimal with exactly that many decimals (80 -> 80.0)."""
    if isinstance(value, Decimal):
        return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return Decimal(rhu_scaled(value, places)).scaleb(-places)
