"""The lean single-tournament path (``ratings/dwz/single.py``) against the straightforward reference.

``evaluate_single`` is called directly (no fallback can hide a difference or an exception) and must give
exactly what ``reference_impl.evaluate_reference`` gives, field by field: both editions, first ratings with
Restpartien, Zusatzstufe 2, Ausnahmespieler (with and without first-rating players who met them), FIDE
take-overs, forfeits, W = We, 0 % / 100 %. Its pieces are checked against the reference functions they
replace: ``_solve`` (with and without start hints, long plateaus, wide spreads) against ``performance.solve``,
the integer E / K against ``classic_e`` / ``wo2026_k``, the float start value against ``start_value``.
"""

from __future__ import annotations

import datetime
import importlib
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.dwz import GameInput, PlayerInput, Restpartie, TournamentInput, evaluate
from ratings.dwz.development import AgeClass, classic_e, wo2026_k
from ratings.dwz.editions import CLASSIC, COMMON, WO2026, edition_for
from ratings.dwz.first_rating import start_value
from ratings.dwz.performance import solve
from ratings.dwz.reference_impl import _first_ratings, _performances, _Tournament, evaluate_reference
from ratings.dwz.single import (
    _H,
    _HIGH,
    _K,
    _LOW,
    _classic_e,
    _solve,
    _solve_in,
    _start_value,
    _wo2026_k,
    evaluate_single,
)
from tests.dwz.test_fast_path import _bench_like, assert_same, tournament_inputs

D = datetime.date


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournament_inputs())
def test_single_equals_reference(t):
    assert_same(evaluate_single(t), evaluate_reference(t))


def test_single_on_larger_tournaments_equals_reference():
    for t in _bench_like(random.Random(11), 40):
        assert_same(evaluate_single(t), evaluate_reference(t))


def _features(t: TournamentInput) -> set[str]:
    """Which rules a tournament exercises, from the reference's own intermediate results."""
    edition = edition_for(t.end_date)
    tour = _Tournament(t, edition)
    found = {edition.name.value}
    if tour.stage2:
        found.add("zusatzstufe 2")
    if any(tour.restpartien[i] for i in tour.stage1 + tour.stage2):
        found.add("first rating with Restpartien")
    if any(g.result in ("+-", "-+", "--") for g in t.games):
        found.add("forfeit")
    entry = list(tour.r0)
    _, _, first = _first_ratings(tour, entry)
    for i, rating in first.items():
        entry[i] = rating
    perf = _performances(tour, entry)
    if t.end_date >= COMMON.ausnahme_from:
        ausnahme = {
            i for i, rh in perf.items() if rh is not None and rh > tour.r0[i] + COMMON.ausnahme_margin
        }
        if ausnahme:
            found.add("ausnahmespieler")
            if any(g.opponent in ausnahme for i in first for g in tour.counted[i]):
                found.add("ausnahmespieler met by a first rating")
    result = evaluate_reference(t)
    for p in result.players:
        if p.fide_takeover:
            found.add("fide take-over")
        if p.status == "rated" and p.n:
            if p.points == p.expected:
                found.add("W = We")
            if p.n >= COMMON.min_games and p.points in (0, 1000 * p.n):
                found.add("0 % / 100 %")
        if p.status == "not_rated" and p.restpartien:
            found.add("Restpartien handed back")
    return found


def _club(rnd: random.Random) -> TournamentInput:
    """A club tournament: 6-14 players, round robin or a few rounds, some unrated, some far too low rated."""
    end = rnd.choice([D(2015, 5, 1), D(2016, 8, 1), D(2021, 3, 14), D(2026, 6, 8), D(2027, 1, 10)])
    m = rnd.randint(6, 14)
    players, strength = [], []
    for i in range(m):
        r = rnd.randint(700, 2300)
        x = rnd.random()
        birth = None if rnd.random() < 0.1 else end.year - rnd.randint(8, 70)
        if x < 0.65:
            players.append(PlayerInput(f"p{i}", birth, dwz=r, index=rnd.randint(0, 15)))
        elif x < 0.75:
            players.append(PlayerInput(f"p{i}", birth, fide_elo=max(1000, r)))
        else:
            rps = tuple(
                Restpartie(
                    rnd.randint(800, 2200),
                    rnd.choice((0, 500, 1000)),
                    end - datetime.timedelta(days=rnd.randint(1, 800)),
                )
                for _ in range(rnd.randint(0, 5))
            )
            players.append(PlayerInput(f"p{i}", birth, restpartien=rps))
        strength.append(r + (rnd.randint(350, 900) if rnd.random() < 0.12 else rnd.randint(-100, 100)))
    games = []
    for a in range(m):
        for b in range(a + 1, m):
            if m > 10 and rnd.random() < 0.3:
                continue
            x = rnd.random()
            diff = strength[a] - strength[b]
            p = 0.5 if abs(diff) < 30 and rnd.random() < 0.3 else 1 / (1 + 10 ** (-diff / 400))
            res = (
                rnd.choice(("+-", "-+", "--"))
                if x < 0.03
                else "1-0"
                if x < p - 0.1
                else "1/2-1/2"
                if x < p + 0.1
                else "0-1"
            )
            games.append(
                GameInput(f"p{a}", f"p{b}", res)
                if rnd.random() < 0.5
                else GameInput(f"p{b}", f"p{a}", _flip(res))
            )
    return TournamentInput(end_date=end, players=tuple(players), games=tuple(games))


def _flip(result: str) -> str:
    return {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}.get(result, result)


def test_club_tournaments_cover_every_rule_and_equal_reference():
    rnd = random.Random(2026)
    seen: Counter[str] = Counter()
    for _ in range(150):
        t = _club(rnd)
        seen.update(_features(t))
        assert_same(evaluate_single(t), evaluate_reference(t))
    wanted = {
        "classic", "wo2026", "zusatzstufe 2", "first rating with Restpartien", "forfeit", "ausnahmespieler",
        "ausnahmespieler met by a first rating", "fide take-over", "W = We", "0 % / 100 %",
        "Restpartien handed back",
    }  # fmt: skip
    assert wanted <= set(seen), wanted - set(seen)


def test_evaluate_sends_large_tournaments_to_the_batch_path(monkeypatch):
    # The package exports the function ``evaluate`` under the module's name, so fetch the module itself.
    evaluate_module = importlib.import_module("ratings.dwz.evaluate")
    t = _club(random.Random(8))
    calls = []
    monkeypatch.setattr(evaluate_module, "SINGLE_MAX_GAMES", len(t.games) - 1)
    monkeypatch.setattr(evaluate_module, "evaluate_single", lambda t: calls.append(t))
    assert_same(evaluate(t), evaluate_reference(t))
    assert calls == []


def test_evaluate_takes_the_single_path_and_falls_back_for_unusual_input():
    t = _club(random.Random(5))
    assert evaluate(t) == evaluate_single(t) == evaluate_reference(t)
    odd = TournamentInput(
        end_date=D(2020, 5, 1),
        players=(PlayerInput("A", 1990, dwz=3500, index=3), PlayerInput("B", 1990, dwz=1400, index=3)),
        games=(GameInput("A", "B", "1-0"), GameInput("A", "X", "+-")),
    )
    assert evaluate(odd) == evaluate_reference(odd)


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
            w = min(max(w, 1), 1000 * n - 1)
        else:
            w = rnd.randint(1, 1000 * n - 1)
        problems.append((opp, min(max(w, 1), 1000 * len(opp) - 1)))
    return problems


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_solve_equals_scalar_solve(seed):
    rnd = random.Random(seed)
    inside = 0
    for opps, w in _problems(rnd, 100):
        want = solve(opps, w)
        assert _solve(opps, w) == want, (opps, w)
        if not _LOW <= min(opps) <= max(opps) <= _HIGH:
            continue
        inside += 1
        assert _solve_in(opps, w) == want, (opps, w)
        hint = want + rnd.choice((0, 1, -1, 3, -40, 700, -2000))
        assert _solve_in(opps, w, hint) == want, (opps, w, hint)
        if hint - max(opps) > -_H and hint - min(opps) < _H:
            t = sum(_K[hint + _H - o] for o in opps)
            assert _solve_in(opps, w, hint, t) == want, (opps, w, hint, t)
    assert inside > 50


def test_integer_coefficients_equal_reference():
    classic, wo = CLASSIC.classic, WO2026.wo2026
    ages = (AgeClass.YOUTH, AgeClass.JUNIOR, AgeClass.ADULT)
    rnd = random.Random(3)
    r0s = [*range(0, 3001, 7), 999, 1000, 1001, 1299, 1300, 1599, 1600, 1999, 2000, 2001, 2199, 2200]
    for r0 in r0s:
        for cls in range(3):
            for ge in (False, True):
                w, e = (1, 0) if ge else (0, 1)
                for index in (0, 1, 2, 3, 5, 6, 7, 10, 11, 12, 40, -2, rnd.randint(0, 100)):
                    assert _classic_e(r0, cls, index, ge) == classic_e(r0, ages[cls], index, w, e, classic)
                    assert _wo2026_k(r0, cls, index, ge) == wo2026_k(r0, ages[cls], index, w, e, wo)
    # SBr: every R0 below 1300.
    for r0 in range(1300):
        for cls in range(3):
            assert _classic_e(r0, cls, 6, False) == classic_e(r0, ages[cls], 6, 0, 1, classic)


def test_start_value_equals_reference():
    rnd = random.Random(4)
    for _ in range(20000):
        n = rnd.randint(1, 20)
        opponents = [rnd.randint(0, 3000) for _ in range(n)]
        w = rnd.randint(1, 1000 * n - 1) if rnd.random() < 0.5 else 500 * rnd.randint(1, 2 * n - 1)
        assert _start_value(sum(opponents), n, w) == start_value(opponents, w)
    # W = n/2: D = 0, so the mean alone decides, including the .5 ties (rounded half up).
    for total in range(2990, 3010):
        assert _start_value(total, 2, 1000) == start_value([total - 1000, 1000], 1000)
