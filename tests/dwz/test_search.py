"""The search of spec §7.1: the fast ``search.solve`` (with and without start hints) equals the search from
the definition (``search.solve_general``) and the test oracle's ``solve``, including long plateaus of f,
near-0 / near-100 % scores, wide spreads, ratings outside 0-3000 and the tie rule's closest calls."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.dwz.expectation import unrounded_expected_sum
from ratings.dwz.search import (
    HIGH,
    LOW,
    MAX_N,
    packed_sum,
    rounded_at,
    solve,
    solve_general,
    solve_in_range,
    unrounded_at,
)
from tests.conftest import examples

from . import reference


def _problems(rnd: random.Random, count: int) -> list[tuple[list[int], int]]:
    problems = []
    for _ in range(count):
        n = rnd.randint(1, 25)
        center = rnd.randint(-2500, 5500)
        spread = rnd.choice((0, 1, 5, 50, 400, 1500, 4000))
        opp = [center + rnd.randint(-spread, spread) for _ in range(n)]
        if rnd.random() < 0.1:
            # Symmetric fields at an even score: S(R) = W (up to float rounding) at the centre, the closest
            # calls for the tie rule and for the packed-sum shortcut of the float sums.
            half = [rnd.randint(0, spread) for _ in range(max(n // 2, 1))]
            opp = [center + x for x in half] + [center - x for x in half]
            w = 500 * len(opp) + rnd.choice((0, 0, 1, -1))
        elif rnd.random() < 0.3:
            # Near 0 % / 100 % and half points: long plateaus of f, ties in the unrounded sums.
            w = rnd.choice((1, 2, 499, 500, 501, 1000 * n - 500, 1000 * n - 2, 1000 * n - 1))
        else:
            w = rnd.randint(1, 1000 * n - 1)
        problems.append((opp, min(max(w, 1), 1000 * len(opp) - 1)))
    return problems


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_solve_equals_the_definition_with_any_hint(seed):
    rnd = random.Random(seed)
    inside = 0
    for opps, w in _problems(rnd, 100):
        want = solve_general(opps, w)
        assert solve(opps, w) == want, (opps, w)
        if not LOW <= min(opps) <= max(opps) <= HIGH:
            continue
        inside += 1
        hint = want + rnd.choice((0, 1, -1, 3, -40, 700, -2000))
        assert solve(opps, w, hint) == want, (opps, w, hint)
        if LOW <= hint <= HIGH:
            assert solve_in_range(opps, w, hint, packed_sum(hint, opps)) == want, (opps, w, hint)
    assert inside > 50


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=30), st.data())
def test_solve_equals_the_oracle(opponents, data):
    n = len(opponents)
    w = data.draw(st.integers(min_value=1, max_value=1000 * n - 1))
    assert solve(opponents, w) == solve_general(opponents, w) == reference.solve(opponents, w)


def test_solve_equals_the_oracle_for_every_score():
    """Every W for a few fixed opponent sets, including tight and wide spreads."""
    rnd = random.Random(7)
    for _ in range(40):
        n = rnd.randint(1, 12)
        spread = rnd.choice([0, 5, 50, 400, 1500])
        base = rnd.randint(200, 2600)
        opponents = [base + rnd.randint(0, spread) for _ in range(n)]
        for w in range(1, 1000 * n):
            if w % 50 == 0 or w % 500 == 0:
                assert solve(opponents, w) == reference.solve(opponents, w), (opponents, w)


def test_more_opponents_than_the_packed_table_holds():
    rnd = random.Random(5)
    opponents = [rnd.randint(1200, 2000) for _ in range(MAX_N + 1)]
    w = 1000 * len(opponents) // 3
    assert solve(opponents, w, 1500) == solve_general(opponents, w)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(LOW, HIGH), min_size=1, max_size=60), st.integers(LOW, HIGH))
def test_packed_we_is_the_exact_we_or_abstains(opponents, rating):
    """f(R) read from the packed sum is the per-game rounded We; the 2026 We read from its e sum is the exact
    one, or None (then the caller computes it exactly)."""
    packed = packed_sum(rating, opponents)
    assert rounded_at(packed) == reference.f_rounded(rating, opponents)
    got = unrounded_at(packed, len(opponents))
    assert got is None or got == unrounded_expected_sum(rating, opponents)


def test_packed_we_abstains_next_to_a_rounding_boundary():
    """1000 (P(372) + P(691)) lies 1.13e-6 (19 units of 2**-24) from 1898.5: too close for the packed errors
    of two games, so the exact sum decides (1898, where the per-game rounded sum is 1899)."""
    packed = packed_sum(1500, [1128, 809])
    assert unrounded_at(packed, 2) is None
    assert unrounded_expected_sum(1500, [1128, 809]) == 1898
    assert rounded_at(packed) == 1899
    assert (
        unrounded_at(packed_sum(1500, [2191, 1872]), 2) == unrounded_expected_sum(1500, [2191, 1872]) == 102
    )
