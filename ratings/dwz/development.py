"""Development coefficients and follow-up ratings: classic E (spec §4) and WO2026 K (spec §5).

All arithmetic between two roundings is exact (Fractions / integers); only SBr uses exp in floating point,
which the spec allows, and its double is converted to a Fraction exactly.
"""

from __future__ import annotations

import math
from enum import Enum
from fractions import Fraction

from .editions import ClassicParameters, CommonParameters, Wo2026Parameters
from .rounding import rhu, rhu_div


class AgeClass(Enum):
    YOUTH = "youth"
    JUNIOR = "junior"
    ADULT = "adult"

    # Members are singletons compared by identity; the C hash keeps cache keys holding an age class cheap
    # (Enum's own ``__hash__`` is a Python function).
    __hash__ = object.__hash__


_E0_SCALE = 10**12


def age_class(age: int | None, common: CommonParameters) -> AgeClass:
    """Youth <= 20, junior 21-25, adult >= 26; an unknown age counts as adult (spec §2)."""
    if age is None or age > common.junior_max_age:
        return AgeClass.ADULT
    if age > common.youth_max_age:
        return AgeClass.JUNIOR
    return AgeClass.YOUTH


def classic_e(
    r0: int, age: AgeClass, index: int, points: int, expected: int, params: ClassicParameters
) -> int:
    """E of the classic rules. ``index`` is the old index (1 for a FIDE take-over); scores in thousandths."""
    j = {AgeClass.YOUTH: params.j_youth, AgeClass.JUNIOR: params.j_junior, AgeClass.ADULT: params.j_adult}[
        age
    ]
    # E0 = R0^4 / 10^12 + J, kept as the integer numerator over 10^12: exact, and much cheaper than Fractions.
    e0 = r0**4 + j * _E0_SCALE
    sbr: Fraction | int = 0
    if age is AgeClass.YOUTH and points >= expected:
        # fB also at W = We exactly (spec §4): then Rn = R0 anyway, only the printed E changes.
        fb = min(max(Fraction(r0, params.fb_divisor), params.fb_min), params.fb_max)
        e = rhu_div(e0 * fb.numerator, _E0_SCALE * fb.denominator)
    elif r0 < params.sbr_below and points < expected:
        sbr = Fraction(math.exp((params.sbr_below - r0) / params.sbr_scale)) - 1
        e = rhu(Fraction(e0, _E0_SCALE) + sbr)
    else:
        e = rhu_div(e0, _E0_SCALE)
    cap = params.e_max_sbr if sbr > 0 else min(params.e_max, params.e_per_index * index)
    # The minimum wins over the cap, so index 0 (cap 0) still gives E = 5.
    return max(params.e_min, min(e, cap))


def classic_rating(r0: int, e: int, n: int, points: int, expected: int, params: ClassicParameters) -> int:
    """Rn = rhu(R0 + 800 (W - We) / (E + n)) with W, We in thousandths."""
    den = 1000 * (e + n)
    return rhu_div(r0 * den + params.scale * (points - expected), den)


def wo2026_k(
    r0: int,
    age: AgeClass,
    index: int,
    points: int,
    expected: int,
    params: Wo2026Parameters,
) -> int:
    """K in tenths (257 = 25.7). ``index`` is the old index (1 for a FIDE take-over)."""
    if age is not AgeClass.ADULT and r0 < params.group_a_below:
        row = params.k0_a
    elif age is AgeClass.ADULT and r0 < params.group_b_below:
        row = params.k0_b
    else:
        row = params.k0_c
    # Columns 1..10 and ">10"; index 0 uses column 1.
    k0 = row[min(max(index, 1), len(row)) - 1]
    # K = K0 * b + a, rounded to k_decimals: as one exact integer division per case.
    scale: int = 10**params.k_decimals
    if points < expected:
        if r0 < params.b_below:
            # b = (R0 + u) / (b_below + u)
            k = rhu_div(k0 * (r0 + params.u) * scale, params.b_below + params.u)
        else:
            k = k0 * scale
    elif age is AgeClass.YOUTH:
        # a = (a_youth_below - R0) / t
        if r0 < params.a_youth_below:
            k = rhu_div((k0 * params.t + params.a_youth_below - r0) * scale, params.t)
        else:
            k = k0 * scale
    elif r0 < params.a_other_below:
        k = (k0 + (params.a1 if age is AgeClass.JUNIOR else params.a2)) * scale
    else:
        k = k0 * scale
    return max(params.k_min * scale, min(k, params.k_max * scale))


def wo2026_rating(r0: int, k_scaled: int, points: int, expected: int, params: Wo2026Parameters) -> int:
    """Rn = max(1100, rhu(R0 + K (W - We))) with K scaled by 10**k_decimals and W, We in thousandths."""
    den = 1000 * 10**params.k_decimals
    rn = rhu_div(r0 * den + k_scaled * (points - expected), den)
    return rn if rn > params.floor else params.floor  # max() is slow on 3.11: this runs for every player
