"""Rule editions and their numeric parameters (Stellgrößen, spec §10) as data with a valid-from date.

Every number of the rating rules lives here, so that a changed official value is a one-line change. The
computing modules read these objects and contain no rule constants of their own.
"""

from __future__ import annotations

import datetime
import enum
from dataclasses import dataclass
from fractions import Fraction

from .types import EditionName


@dataclass(frozen=True, slots=True)
class CommonParameters:
    """Numbers shared by both editions."""

    # Age classes (age = year(end date) - birth year; no birth year = adult).
    youth_max_age: int = 20
    junior_max_age: int = 25
    # Expected score: P(D) = Phi(D / sigma), sigma = 200*sqrt(2), i.e. 1/2 (1 + erf(D / erf_divisor)).
    erf_divisor: int = 400
    p_decimals: int = 3
    # p(D) is exactly 0 or 1 beyond this difference (spec §2).
    p_saturation: int = 931
    min_games: int = 5  # Zusatzstufen and performance
    restpartien_years: int = 2
    ausnahme_from: datetime.date = datetime.date(2016, 8, 1)
    ausnahme_margin: int = 300
    takeover_index_shown: int = 6
    takeover_index_used: int = 1
    takeover_index_after: int = 7
    first_rating_index: int = 1
    iteration_cap: int = 100
    search_margin: int = 1500


@dataclass(frozen=True, slots=True)
class ClassicParameters:
    """Classic follow-up rating Rn = R0 + scale*(W - We)/(E + n) and its first-rating correction."""

    scale: int = 800
    j_youth: int = 5
    j_junior: int = 10
    j_adult: int = 15
    fb_min: Fraction = Fraction(1, 2)
    fb_max: Fraction = Fraction(1)
    fb_divisor: int = 2000
    sbr_below: int = 1300  # SBr applies for R0 < sbr_below
    sbr_scale: int = 150
    e_min: int = 5
    e_per_index: int = 5
    e_max: int = 30
    e_max_sbr: int = 150
    # First rating: R < low_below -> low_base + R / low_divisor.
    first_low_below: int = 800
    first_low_base: int = 700
    first_low_divisor: int = 8


@dataclass(frozen=True, slots=True)
class Wo2026Parameters:
    """WO2026 follow-up rating Rn = max(floor, R0 + K*(W - We)) and its first-rating mapping."""

    # K0 by group and index column 1..10, then ">10".
    k0_a: tuple[int, ...] = (60, 60, 48, 46, 44, 42, 40, 38, 36, 34, 32)
    k0_b: tuple[int, ...] = (60, 60, 44, 42, 40, 38, 36, 34, 32, 30, 28)
    k0_c: tuple[int, ...] = (60, 60, 41, 39, 37, 35, 33, 31, 29, 27, 25)
    group_a_below: int = 2200  # age <= junior_max_age and R0 < this
    group_b_below: int = 2000  # adults with R0 < this
    u: int = 800
    b_below: int = 1600
    t: int = 30
    a1: int = 4
    a2: int = 4
    a_youth_below: int = 2000
    a_other_below: int = 1600
    k_min: int = 5
    k_max: int = 80
    k_decimals: int = 1
    floor: int = 1100
    # First rating from the performance L (har64 DWZ-Calc mapping).
    r: Fraction = Fraction(8, 100)
    first_top: int = 2000
    first_floor: int = 1100


class WeRounding(enum.Enum):
    """How a rated player's We (the one that decides E / K and enters Rn) is rounded (spec §10, §16)."""

    PER_GAME = "per_game"  # the exact sum of the per-game 3-decimal p (DeWIS cards, classic)
    SUM = "sum"  # the unrounded sum of P, rounded half up to 3 decimals once (the 2026 portal)


@dataclass(frozen=True, slots=True)
class Edition:
    name: EditionName
    valid_from: datetime.date
    common: CommonParameters
    we_rounding: WeRounding
    classic: ClassicParameters | None = None  # exactly one of classic / wo2026 is set
    wo2026: Wo2026Parameters | None = None


COMMON = CommonParameters()

CLASSIC = Edition(
    name=EditionName.CLASSIC,
    valid_from=datetime.date.min,
    common=COMMON,
    we_rounding=WeRounding.PER_GAME,
    classic=ClassicParameters(),
)
WO2026 = Edition(
    name=EditionName.WO2026,
    valid_from=datetime.date(2026, 6, 8),
    common=COMMON,
    we_rounding=WeRounding.SUM,
    wo2026=Wo2026Parameters(),
)

# Ascending by valid_from; the last edition that is valid on the end date applies.
EDITIONS: tuple[Edition, ...] = (CLASSIC, WO2026)


def edition_for(end_date: datetime.date) -> Edition:
    """The edition that applies to a tournament ending on ``end_date`` (spec §1)."""
    chosen = EDITIONS[0]
    for edition in EDITIONS:
        if edition.valid_from <= end_date:
            chosen = edition
    return chosen
