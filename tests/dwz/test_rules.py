"""Branch and boundary tests derived by hand from the rules (spec §2-§7, §10, §11)."""

from __future__ import annotations

import dataclasses
import datetime
import random
from decimal import Decimal
from fractions import Fraction

import pytest

from ratings.dwz import edition_for, expected_score, rhu, rhu_decimal, rhu_div, strength_category
from ratings.dwz.development import AgeClass, age_class, classic_e, classic_rating, wo2026_k, wo2026_rating
from ratings.dwz.editions import CLASSIC, COMMON, WO2026
from ratings.dwz.first_rating import map_first_rating, qualifies, restpartie_valid
from ratings.dwz.performance import level, performance
from ratings.dwz.rounding import clamp
from ratings.dwz.search import solve
from ratings.dwz.types import RestpartieValue

C = CLASSIC.classic
W26 = WO2026.wo2026
LOSS = {"points": 0, "expected": 500}  # W < We
WIN = {"points": 1000, "expected": 500}  # W >= We


# --- rounding ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("num", "den", "want"),
    [
        (5, 2, 3),
        (3, 2, 2),
        (-5, 2, -3),
        (-3, 2, -2),
        (7, -2, -4),
        (16645, 10, 1665),
        (16644, 10, 1664),
        (0, 7, 0),
    ],
)
def test_rhu_div_half_away_from_zero(num, den, want):
    """x.5 goes away from zero (2.5 -> 3, -2.5 -> -3); banker's rounding would give 2 and -2."""
    assert rhu_div(num, den) == want


def test_rhu_types():
    assert rhu(Fraction(1, 2)) == 1
    assert rhu(2.5) == 3  # round(2.5) would be 2
    assert rhu(Decimal("1664.5")) == 1665
    assert rhu_decimal(Fraction(25667, 1000), 1) == Decimal("25.7")
    assert str(rhu_decimal(80, 1)) == "80.0"
    assert rhu_decimal(Decimal("0.0005"), 3) == Decimal("0.001")


def test_clamp_is_min_of_max():
    """``clamp`` replaces min(max(value, low), high) in the per-player code: equal for every low <= high."""
    for low in range(-3, 4):
        for high in range(low, 5):
            for value in range(-6, 8):
                assert clamp(value, low, high) == min(max(value, low), high), (value, low, high)


# --- expected score ---------------------------------------------------------------------------------


def test_p_at_saturation_boundary():
    """P(930) = 0.999496 -> 0.999; from 931 on p is 1.000 (and symmetric)."""
    assert expected_score(930) == 999
    assert expected_score(931) == 1000
    assert expected_score(-930) == 1
    assert expected_score(-931) == 0
    assert expected_score(5000) == 1000 and expected_score(-5000) == 0


def test_p_examples():
    """P(-200) = 0.23975 -> 0.240 (spec §2); P(0) = 0.5; p(-223) = 0.215 (E5)."""
    assert expected_score(-200) == 240
    assert expected_score(200) == 760
    assert expected_score(0) == 500
    assert expected_score(-223) == 215


def test_p_symmetric_and_monotone():
    for d in range(-1000, 1001):
        assert expected_score(-d) == 1000 - expected_score(d)
        assert expected_score(d + 1) >= expected_score(d)


# --- age classes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("age", "cls"),
    [
        (20, AgeClass.YOUTH),
        (21, AgeClass.JUNIOR),
        (25, AgeClass.JUNIOR),
        (26, AgeClass.ADULT),
        (None, AgeClass.ADULT),
    ],
)
def test_age_classes(age, cls):
    assert age_class(age, COMMON) is cls


# --- classic E --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("age", "want"), [(20, 21), (21, 26), (25, 26), (26, 30), (None, 30)])
def test_e_by_age(age, want):
    """R0 2000, W < We: E0 = 2^4 + J = 21 (youth), 26 (junior), 31 (adult, capped at 30 by index 20)."""
    assert classic_e(2000, age_class(age, COMMON), 20, **LOSS, params=C) == want


@pytest.mark.parametrize(("r0", "want"), [(900, 5), (1600, 9), (2400, 30)])
def test_e_youth_acceleration(r0, want):
    """Youth, W >= We: fB = clamp(R0/2000, 0.5, 1).
    900: fB 0.5, (0.6561 + 5)*0.5 = 2.83 -> 3 -> min 5.  1600: 0.8*(6.5536 + 5) = 9.24 -> 9.
    2400: fB 1, 33.18 + 5 = 38.18 -> 38 -> cap 30 (index 20)."""
    assert classic_e(r0, AgeClass.YOUTH, 20, **WIN, params=C) == want


def test_e_sbr_boundary_1299_1300():
    """Adult, W < We, index 1. 1299: E0 = 1.299^4 + 15 = 17.847, SBr = e^(1/150) - 1 = 0.0067 -> 18, cap 150
    (SBr > 0) -> 18.  1300: no SBr, 17.856 -> 18, cap 5*1 -> 5."""
    assert classic_e(1299, AgeClass.ADULT, 1, **LOSS, params=C) == 18
    assert classic_e(1300, AgeClass.ADULT, 1, **LOSS, params=C) == 5


def test_e_sbr_needs_w_below_we():
    """1200 adult, W = We: no SBr, E0 = 2.0736 + 15 = 17.07 -> 17, cap 5*2 = 10."""
    assert classic_e(1200, AgeClass.ADULT, 2, points=500, expected=500, params=C) == 10


def test_e_cap_150():
    """300 adult, W < We: SBr = e^(1000/150) - 1 = 785.1 -> E capped at 150."""
    assert classic_e(300, AgeClass.ADULT, 5, **LOSS, params=C) == 150


@pytest.mark.parametrize(
    ("index", "want"),
    [(0, 5), (1, 5), (2, 10), (3, 15), (4, 20), (5, 25), (6, 30), (7, 30), (11, 30), (50, 30)],
)
def test_e_cap_by_index(index, want):
    """R0 2000 adult, W < We: E0 = 31; cap min(30, 5*index); E >= 5 wins (index 0)."""
    assert classic_e(2000, AgeClass.ADULT, index, **LOSS, params=C) == want


def test_e_w_equals_we_uses_fb_not_sbr():
    """E4: 1250 youth, W = We: fB 0.625 * 7.4414 = 4.65 -> 5 (SBr would have given 7.44 + 0.39)."""
    assert classic_e(1250, AgeClass.YOUTH, 9, points=2000, expected=2000, params=C) == 5


def test_classic_rating_half_up_tie():
    """E5: 1655 + 800 * 0.285 / 24 = 1664.5 exactly -> 1665."""
    assert classic_rating(1655, 23, 1, 500, 215, C) == 1665


def test_classic_rating_w_equals_we():
    assert classic_rating(1250, 5, 4, 2000, 2000, C) == 1250


# --- WO2026 K ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("age", "r0", "want"),
    [(25, 2199, 320), (25, 2200, 250), (26, 1999, 280), (26, 2000, 250), (15, 2199, 320), (15, 2200, 250)],
)
def test_k_groups(age, r0, want):
    """Column >10, W >= We, no a (R0 >= 2000 for youths, >= 1600 others): K = K0 of A 32, B 28, C 25."""
    assert wo2026_k(r0, age_class(age, COMMON), 11, **WIN, params=W26) == want


@pytest.mark.parametrize(
    ("index", "want"),
    [(0, 600), (1, 600), (2, 600), (3, 440), (4, 420), (5, 400), (10, 300), (11, 280), (99, 280)],
)
def test_k_columns(index, want):
    """Group B (adult 1800), W < We but R0 >= 1600 (b = 1): K0 by column; 0 -> column 1, > 10 -> '>10'."""
    assert wo2026_k(1800, AgeClass.ADULT, index, **LOSS, params=W26) == want


def test_k_a_terms():
    """W >= We, column >10.  Junior 1599: 32 + a1 4 = 36.0; 1600: 32.0.  Adult 1599: 28 + a2 4 = 32.0; 1600:
    28.0.  Youth 1985: 32 + 15/30 = 32.5; 1999: 32 + 1/30 = 32.03 -> 32.0; 2000: 32.0."""
    assert wo2026_k(1599, AgeClass.JUNIOR, 11, **WIN, params=W26) == 360
    assert wo2026_k(1600, AgeClass.JUNIOR, 11, **WIN, params=W26) == 320
    assert wo2026_k(1599, AgeClass.ADULT, 11, **WIN, params=W26) == 320
    assert wo2026_k(1600, AgeClass.ADULT, 11, **WIN, params=W26) == 280
    assert wo2026_k(1985, AgeClass.YOUTH, 11, **WIN, params=W26) == 325
    assert wo2026_k(1999, AgeClass.YOUTH, 11, **WIN, params=W26) == 320
    assert wo2026_k(2000, AgeClass.YOUTH, 11, **WIN, params=W26) == 320


def test_k_b_term():
    """Adult, W < We, column >10 (28). 1200: b = 2000/2400, 23.33 -> 23.3.  1599: 28*2399/2400 = 27.988
    -> 28.0.  1600: b = 1 -> 28.0.  No a when W < We (junior 1500: 32*2300/2400 = 30.67 -> 30.7)."""
    assert wo2026_k(1200, AgeClass.ADULT, 11, **LOSS, params=W26) == 233
    assert wo2026_k(1599, AgeClass.ADULT, 11, **LOSS, params=W26) == 280
    assert wo2026_k(1600, AgeClass.ADULT, 11, **LOSS, params=W26) == 280
    assert wo2026_k(1500, AgeClass.JUNIOR, 11, **LOSS, params=W26) == 307


def test_k_max_80():
    """Youth 1000, column 1, W >= We: 60 + 1000/30 = 93.3 -> Kmax 80.0."""
    assert wo2026_k(1000, AgeClass.YOUTH, 1, **WIN, params=W26) == 800


def test_k_min_5():
    """No official K0 reaches the minimum, so a changed table (K0 2) shows it: 2.0 -> 5.0."""
    params = dataclasses.replace(W26, k0_c=(2,) * 11)
    assert wo2026_k(2500, AgeClass.ADULT, 11, **WIN, params=params) == 50


def test_wo2026_floor():
    """E11 L: 1105 - 27.0 * 0.669 = 1086.94 -> floor 1100.  A classic-era 900 with W = We also gets 1100."""
    assert wo2026_rating(1105, 270, 0, 669, W26) == 1100
    assert wo2026_rating(900, 300, 2000, 2000, W26) == 1100
    assert wo2026_rating(1500, 480, 3000, 2532, W26) == 1522  # E11 J: 1500 + 48 * 0.468 = 1522.46


# --- first ratings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("r_i", "want"), [(2500, 2500), (800, 800), (799, 800), (100, 713), (0, 700)])
def test_classic_first_rating(r_i, want):
    """R < 800 -> rhu(700 + R/8): 799 -> 799.875 -> 800; 100 -> 712.5 -> 713 (half up); 0 -> 700."""
    assert map_first_rating(r_i, CLASSIC) == want


@pytest.mark.parametrize(
    ("l_value", "want"),
    [(2500, 2500), (2000, 2000), (1999, 1999), (1100, 1172), (1099, 1172), (870, 1157), (0, 1100)],
)
def test_wo2026_first_rating(l_value, want):
    """L >= 2000: L.  1999 + 0.08 = 1999.08 -> 1999.  1100 + 0.08*900 = 1172.  1099: 1100 + 0.72*1099/11
    = 1171.93 -> 1172.  870: 1156.95 -> 1157.  0 -> 1100."""
    assert map_first_rating(l_value, WO2026) == want


@pytest.mark.parametrize(
    ("played", "end", "valid"),
    [
        ("2021-03-19", "2023-03-19", True),  # exactly two years
        ("2021-03-19", "2023-03-20", False),
        ("2023-03-19", "2023-03-19", True),  # same tournament day
        ("2023-03-20", "2023-03-19", False),  # from a later tournament
        ("2020-02-29", "2022-02-28", True),  # 29 Feb + 2 years acts as 28 Feb
        ("2020-02-29", "2022-03-01", False),
        ("2020-12-31", "2023-03-19", False),  # E9's expired Restpartie
    ],
)
def test_restpartie_window(played, end, valid):
    rp = RestpartieValue(1500, 500, datetime.date.fromisoformat(played))
    assert restpartie_valid(rp, datetime.date.fromisoformat(end)) is valid


@pytest.mark.parametrize(
    ("scores", "tournament_games", "ok"),
    [
        ([500] * 5, 1, True),
        ([1000] * 5, 5, False),  # 100 %
        ([0] * 5, 5, False),  # 0 %
        ([1000, 0, 500, 500], 4, False),  # only 4 games
        ([1000, 0, 500, 500, 500], 0, False),  # Restpartien alone never start an evaluation
        ([1000, 1000, 1000, 1000, 0], 1, True),
    ],
)
def test_zusatzstufe_test(scores, tournament_games, ok):
    assert qualifies(scores, tournament_games) is ok


# --- performance and level --------------------------------------------------------------------------


def test_level_half_up():
    """(1000 + 1001) / 2 = 1000.5 -> 1001; no games -> None."""
    assert level([1000, 1001]) == 1001
    assert level([]) is None


def test_performance_needs_five_games():
    assert performance([1500] * 4, 2000) is None
    assert performance([1500] * 5, 2500) == 1500


def test_performance_zero_percent():
    """0/5 against 1500s: a draw against the level 1500 is added, 0.5 of 6 -> f(R) = 6 p(R - 1500) = 500
    needs p = 0.083; the nearest 6p to 500 decides."""
    r = performance([1500] * 5, 0)
    assert r == solve([1500] * 6, 500)
    assert r < 1500 - 300


def test_solve_rejects_zero_and_full_scores():
    with pytest.raises(ValueError):
        solve([1500] * 5, 0)
    with pytest.raises(ValueError):
        solve([1500] * 5, 5000)


def test_solve_exact_hit():
    """One opponent at 1500, W = 0.5: f(1500) = 0.500 exactly and p(1) = 0.501, so R = 1500."""
    assert solve([1500], 500) == 1500


def test_solve_tie_goes_to_larger_r():
    """Opponents 1000 and 1001, W = 1: f(1000) = .500 + .499 = 0.999, f(1001) = .501 + .500 = 1.001 tie;
    the unrounded sums are 1 -/+ (P(1) - 1/2), an exact tie again, so the larger R wins."""
    assert solve([1000, 1001], 1000) == 1001


# --- categories and editions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dwz", "label"),
    [
        (0, "Anfänger"),
        (999, "Anfänger"),
        (1000, "Fortgeschrittener"),
        (1299, "Fortgeschrittener"),
        (1300, "Normaler Vereinsspieler"),
        (1599, "Normaler Vereinsspieler"),
        (1600, "Überdurchschnittlicher Vereinsspieler"),
        (1899, "Überdurchschnittlicher Vereinsspieler"),
        (1900, "Herausragender Vereinsspieler"),
        (2099, "Herausragender Vereinsspieler"),
        (2100, "Oberligaspieler"),
        (2299, "Oberligaspieler"),
        (2300, "Bundesligaspieler"),
        (2499, "Bundesligaspieler"),
        (2500, "Großmeister"),
        (2700, "Großmeister"),
        (2701, "Weltklassespieler"),
        (3000, "Weltklassespieler"),
    ],
)
def test_strength_categories(dwz, label):
    assert strength_category(dwz).label_de == label


def test_strength_category_english():
    assert strength_category(1450).label_en == "Average club player"
    assert strength_category(2750).label_en == "World class"


def test_edition_boundary():
    assert edition_for(datetime.date(2026, 6, 7)) is CLASSIC
    assert edition_for(datetime.date(2026, 6, 8)) is WO2026
    assert edition_for(datetime.date(1990, 1, 1)) is CLASSIC


def test_start_value_is_the_exact_half_up_rounding():
    """The float shortcut of ``start_value`` gives rhu of the exact sum Rc + D(W/n), also at .5 ties."""
    from ratings.dwz.expectation import rating_difference_for
    from ratings.dwz.first_rating import start_value

    rnd = random.Random(4)
    for _ in range(20000):
        n = rnd.randint(1, 20)
        opponents = [rnd.randint(0, 3000) for _ in range(n)]
        w = rnd.randint(1, 1000 * n - 1) if rnd.random() < 0.5 else 500 * rnd.randint(1, 2 * n - 1)
        exact = Fraction(sum(opponents), n) + Fraction(rating_difference_for(w / (1000 * n)))
        assert start_value(opponents, w) == rhu(exact)
    # W = n/2: D = 0, so the mean alone decides, including the .5 ties (rounded half up).
    for total in range(2990, 3010):
        assert start_value([total - 1000, 1000], 1000) == rhu(Fraction(total, 2))
