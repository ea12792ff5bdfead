"""The vectorised fast path (``ratings/dwz/fast.py``) against the straightforward reference implementation.

``evaluate`` and ``evaluate_many`` must give exactly what ``reference_impl.evaluate_reference`` gives, field
by field, for every input: both editions, first ratings with Restpartien (valid, expired, not yet valid),
Zusatzstufe 2, Ausnahmespieler, FIDE take-overs, forfeits, ratings on every threshold. ``solve_many`` must
equal the scalar ``solve`` on every problem, including long plateaus and near-0 / near-100 % scores.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import random
from decimal import Decimal

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.dwz import (
    GameInput,
    PlayerInput,
    PlayerResult,
    Restpartie,
    TournamentInput,
    evaluate,
    evaluate_many,
)
from ratings.dwz.fast import _make_result, solve_many
from ratings.dwz.performance import solve
from ratings.dwz.reference_impl import evaluate_reference

D = datetime.date
END_DATES = [
    D(2016, 7, 31), D(2016, 8, 1), D(2026, 6, 7), D(2026, 6, 8), D(2020, 2, 29), D(2024, 3, 1),
    D(2019, 11, 24), D(2023, 3, 19), D(2028, 2, 29), D(2012, 6, 17),
]  # fmt: skip
THRESHOLDS = [0, 500, 799, 800, 1000, 1099, 1100, 1299, 1300, 1599, 1600, 1999, 2000, 2199, 2200, 2700, 3000]
RESULTS = ["1-0", "0-1", "1/2-1/2"]
FORFEITS = ["+-", "-+", "--"]


@st.composite
def tournament_inputs(draw) -> TournamentInput:
    def integer(lo: int, hi: int) -> int:
        return draw(st.integers(lo, hi))

    def chance(percent: int) -> bool:
        return integer(0, 99) < percent

    end = (
        END_DATES[integer(0, len(END_DATES) - 1)]
        if chance(40)
        else D(2010, 1, 1) + datetime.timedelta(days=integer(0, 8000))
    )

    def rating(lo: int = 400, hi: int = 2800) -> int:
        return THRESHOLDS[integer(0, len(THRESHOLDS) - 1)] if chance(15) else integer(lo, hi)

    m = integer(2, 14)
    players, strength = [], []
    for i in range(m):
        kind = integer(0, 9)  # 0-4 DWZ, 5 FIDE only, 6 DWZ and FIDE, 7-9 unrated
        birth = None if chance(15) else end.year - integer(-1, 90)
        r = rating()
        rps: tuple[Restpartie, ...] = ()
        if kind >= 7 or chance(5):
            rps = tuple(
                Restpartie(
                    rating(),
                    (0, 500, 1000)[integer(0, 2)],
                    end - datetime.timedelta(days=integer(-30, 800))
                    if not chance(10)
                    else D(end.year - 2, 2, 28),
                )
                for _ in range(integer(0, 6))
            )
        if kind <= 4 or kind == 6:
            index = None if chance(10) else integer(0, 80) if chance(50) else integer(0, 12)
            players.append(
                PlayerInput(f"P{i}", birth, dwz=r, index=index, fide_elo=rating(1000) if kind == 6 else None,
                            restpartien=rps)
            )  # fmt: skip
        elif kind == 5:
            players.append(
                PlayerInput(
                    f"P{i}", birth, fide_elo=max(1000, r), index=integer(0, 80) if chance(10) else None
                )
            )
        else:
            players.append(PlayerInput(f"P{i}", birth, restpartien=rps))
        # Hidden strength: sometimes far above the rating (Ausnahmespieler, high first ratings).
        strength.append(r + (integer(300, 1000) if chance(10) else integer(-250, 250)))
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    shape = integer(0, 3)
    if shape == 0:
        chosen = pairs
    elif shape == 1:
        chosen = [p for p in pairs if chance(60)]
    elif shape == 2:
        chosen = [p for p in pairs for _ in range(2)]
    else:
        chosen = [pairs[integer(0, len(pairs) - 1)] for _ in range(integer(1, 30))]
    games = []
    for a, b in chosen:
        if chance(50):
            a, b = b, a
        if chance(5):
            result = FORFEITS[integer(0, 2)]
        else:
            p = 0.5 * (1 + math.erf((strength[a] - strength[b]) / 400))
            u = integer(0, 999) / 1000
            band = 0.25 * (1 - abs(2 * p - 1))
            result = "1-0" if u < p - band / 2 else "1/2-1/2" if u < p + band / 2 else "0-1"
        games.append(GameInput(f"P{a}", f"P{b}", result))
    return TournamentInput(end_date=end, players=tuple(players), games=tuple(games), code="T")


def assert_same(actual, expected) -> None:
    assert actual.edition == expected.edition
    assert len(actual.players) == len(expected.players)
    for a, e in zip(actual.players, expected.players, strict=True):
        for field in dataclasses.fields(PlayerResult):
            got, want = getattr(a, field.name), getattr(e, field.name)
            assert type(got) is type(want) and got == want, (field.name, a, e)
            if isinstance(want, Decimal):
                assert str(got) == str(want), (field.name, a, e)
        assert a == e


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournament_inputs())
def test_evaluate_equals_reference(t):
    assert_same(evaluate(t), evaluate_reference(t))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(tournament_inputs(), min_size=2, max_size=6))
def test_evaluate_many_equals_reference(ts):
    for actual, t in zip(evaluate_many(ts), ts, strict=True):
        assert_same(actual, evaluate_reference(t))


def _bench_like(rnd: random.Random, count: int) -> list[TournamentInput]:
    """Larger fields than hypothesis draws (Swiss-like partial pairings of up to 40 players)."""
    out = []
    for _ in range(count):
        end = D(2012, 1, 1) + datetime.timedelta(days=rnd.randint(0, 365 * 19))
        m = rnd.randint(6, 40)
        players, strength = [], []
        for i in range(m):
            s = min(2750, max(350, int(rnd.gauss(1600, 380))))
            x = rnd.random()
            if x < 0.8:
                players.append(
                    PlayerInput(
                        f"p{i}", rnd.randint(end.year - 80, end.year - 6), dwz=s, index=rnd.randint(0, 60)
                    )
                )
            elif x < 0.86:
                players.append(PlayerInput(f"p{i}", None, fide_elo=max(1000, s)))
            else:
                days = [rnd.randint(0, 900) for _ in range(rnd.randint(0, 3))]
                rps = tuple(
                    Restpartie(
                        rnd.randint(900, 2200), rnd.choice((0, 500, 1000)), end - datetime.timedelta(days=d)
                    )
                    for d in days
                )
                players.append(
                    PlayerInput(f"p{i}", rnd.randint(end.year - 80, end.year - 6), restpartien=rps)
                )
            strength.append(s + (rnd.randint(300, 900) if rnd.random() < 0.05 else 0))
        games = []
        for a in range(m):
            for b in range(a + 1, m):
                if m > 14 and rnd.random() > 7 / m:
                    continue
                p = 0.5 * (1 + math.erf((strength[a] - strength[b]) / 400))
                x = rnd.random()
                res = "+-" if x < 0.01 else "1-0" if x < p - 0.1 else "1/2-1/2" if x < p + 0.1 else "0-1"
                games.append(GameInput(f"p{a}", f"p{b}", res))
        out.append(TournamentInput(end_date=end, players=tuple(players), games=tuple(games)))
    return out


def test_batch_of_larger_tournaments_equals_reference():
    ts = _bench_like(random.Random(7), 60)
    for actual, t in zip(evaluate_many(ts), ts, strict=True):
        assert_same(actual, evaluate_reference(t))


def test_out_of_range_and_malformed_input_take_the_reference():
    ok = TournamentInput(
        end_date=D(2020, 5, 1),
        players=(PlayerInput("A", 1990, dwz=1500, index=3), PlayerInput("B", 1990, dwz=1400, index=3)),
        games=(GameInput("A", "B", "1-0"),),
    )
    high = dataclasses.replace(ok, players=(PlayerInput("A", 1990, dwz=3500, index=3), ok.players[1]))
    unknown_forfeit = dataclasses.replace(ok, games=(*ok.games, GameInput("A", "X", "+-")))
    for t in (ok, high, unknown_forfeit):
        assert_same(evaluate(t), evaluate_reference(t))
    assert [r.players for r in evaluate_many([ok, high, unknown_forfeit])] == [
        evaluate_reference(t).players for t in (ok, high, unknown_forfeit)
    ]


def test_fast_constructor_builds_equal_results():
    args = ("A", "rated", 1500, 3, 5, 2500, 2400, Decimal("25.7"), 1500, 1600, 1510, 4, (), False, 1500)
    built = _make_result(*args)
    assert (
        type(built) is PlayerResult
        and built == PlayerResult(*args)
        and hash(built) == hash(PlayerResult(*args))
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_solve_many_equals_solve(seed):
    rnd = random.Random(seed)
    problems = []
    for _ in range(40):
        n = rnd.randint(1, 25)
        center = rnd.randint(-500, 4000)
        spread = rnd.choice((0, 5, 50, 400, 1500))
        opp = [center + rnd.randint(-spread, spread) for _ in range(n)]
        kind = rnd.random()
        if kind < 0.15:
            w = rnd.choice((1, 500, 1000 * n - 500, 1000 * n - 1))  # near 0 % / 100 %: long plateaus
            w = min(max(w, 1), 1000 * n - 1)
        else:
            w = rnd.randint(1, 1000 * n - 1)
        problems.append((opp, w))
    n = np.array([len(o) for o, _ in problems], dtype=np.int64)
    opp = np.array([x for o, _ in problems for x in o], dtype=np.int64)
    owner = np.repeat(np.arange(len(problems)), n)
    starts = np.cumsum(n) - n
    w = np.array([w for _, w in problems], dtype=np.int64)
    assert solve_many(opp, owner, starts, n, w).tolist() == [solve(o, w) for o, w in problems]
