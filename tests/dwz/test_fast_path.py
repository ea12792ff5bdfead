"""The engine's fast paths against the plain reference implementation (issue 31).

``evaluate`` computes Rn from cached integer terms (``evaluate._Terms``: E or K by an integer key of R0, age
class, capped index and W >= We), We from the packed table and the performance by the table search. These
properties hold all of it equal to ``tests/dwz/reference.py`` (Fractions, the definitions) over random
fields in both rule editions, with the edges drawn on purpose: a player who wins or loses every game (the
fictitious draw of §7.3), first ratings and Restpartien, unrated opponents, FIDE take-overs, index 0 and
the caps, ratings at the rule thresholds and at the ends of the scale. The E / K cache lives for the whole
process, so every example also checks that no key of an earlier example hands a wrong coefficient on.
"""

from __future__ import annotations

import dataclasses
import datetime
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.dwz.development import AgeClass, classic_e, classic_rating, wo2026_k, wo2026_rating
from ratings.dwz.editions import CLASSIC, WO2026
from ratings.dwz.evaluate import _terms  # the private fast path under test
from tests.conftest import examples

from .builders import assert_same
from .random_tournaments import DrawSource, RandomSource, Source
from .reference import evaluate_json

D = datetime.date
# Both editions, and the Ausnahmespieler boundary inside the classic one.
END_DATES = [
    D(2014, 5, 4),
    D(2016, 7, 31),
    D(2016, 8, 1),
    D(2022, 11, 20),
    D(2026, 6, 7),
    D(2026, 6, 8),
    D(2027, 3, 1),
]
# The thresholds of §4 / §5 / §6.7 and the ends of what the contract admits (0-3000).
EDGE_RATINGS = [0, 1, 400, 799, 800, 1099, 1100, 1299, 1300, 1599, 1600, 1999, 2000, 2199, 2200, 2999, 3000]
BIRTH_AGES = [None, 6, 20, 21, 25, 26, 90]


def _pick(src: Source, seq: list[Any]) -> Any:
    return seq[src.int(0, len(seq) - 1)]


def _rating(src: Source) -> int:
    kind = src.int(0, 2)
    return _pick(src, EDGE_RATINGS) if kind == 0 else src.int(0, 3000) if kind == 1 else src.int(1200, 2000)


def _player(src: Source, i: int, end: datetime.date) -> dict[str, Any]:
    age = _pick(src, BIRTH_AGES)
    p: dict[str, Any] = {"id": f"P{i}", "birth_year": None if age is None else end.year - age}
    kind = src.int(0, 5)  # 0-3 DWZ, 4 FIDE only, 5 unrated
    if kind <= 3:
        p["dwz"] = _rating(src)
        p["index"] = _pick(src, [None, src.int(0, 12), src.int(0, 200)])
    elif kind == 4:
        p["fide_elo"] = src.int(1000, 3000)
    else:
        p["restpartien"] = [
            {
                "opponent_rating": _rating(src),
                "score": _pick(src, [0, 0.5, 1]),
                "end_date": (end - datetime.timedelta(days=src.int(0, 800))).isoformat(),
            }
            for _ in range(src.int(0, 6))
        ]
    return p


_MIRROR = {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}


def _result(src: Source, a: int, b: int, forced: bool, strength: list[int]) -> str:
    """White a against black b: P0 wins and P1 loses every game when ``forced``."""
    if forced and 0 in (a, b):
        return "1-0" if a == 0 else "0-1"
    if forced and 1 in (a, b):
        return "0-1" if a == 1 else "1-0"
    if src.int(0, 99) < 3:
        return _pick(src, ["+-", "-+", "--"])
    x = src.int(0, 800) + strength[b] - strength[a]
    return "1-0" if x < 300 else "1/2-1/2" if x < 500 else "0-1"


def edge_field(src: Source) -> dict[str, Any]:
    """A random field with forced edges: P0 wins every game, P1 loses every game (when there are at least
    three players), the rest plays by a hidden strength; round robin, a Swiss-like subset or a few games."""
    end = _pick(src, END_DATES)
    m = src.int(2, 24)
    players = [_player(src, i, end) for i in range(m)]
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    shape = src.int(0, 2)
    if shape == 1:  # Swiss-like: about 7 games each
        pairs = [pair for pair in pairs if src.int(0, m - 1) < 7]
    elif shape == 2:  # a few games
        pairs = [_pick(src, pairs) for _ in range(src.int(1, 12))]
    strength = [src.int(800, 2400) for _ in range(m)]
    games = []
    for a, b in pairs:
        result = _result(src, a, b, m >= 3, strength)
        if src.int(0, 1):
            a, b, result = b, a, _MIRROR.get(result, result)
        games.append({"white": f"P{a}", "black": f"P{b}", "result": result})
    return {
        "tournament": {"code": None, "name": "fast path", "end_date": end.isoformat()},
        "players": players,
        "games": games,
    }


@st.composite
def fields(draw: st.DrawFn) -> dict[str, Any]:
    return edge_field(DrawSource(draw))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_engine_equals_the_reference_on_edge_fields(data: dict[str, Any]) -> None:
    assert_same(data)


def test_the_edge_fields_reach_their_edges() -> None:
    """Seeded: the generator reaches what it is for (so the property above can fail where it matters), and
    the engine agrees with the reference on each of these fields too."""
    reached: set[str] = set()
    for seed in range(120):
        data = edge_field(RandomSource(random.Random(seed)))
        assert_same(data)
        out = evaluate_json(data)
        for row in out["players"]:
            if row["status"] == "rated" and row["n"] >= 5:
                if row["points"] == row["n"]:
                    reached.add(f"{out['edition']} 100 %")
                if row["points"] == 0:
                    reached.add(f"{out['edition']} 0 %")
                if row["performance"] is not None:
                    reached.add(f"{out['edition']} performance")
            if row["status"] == "first":
                reached.add("first rating")
                if any(p.get("restpartien") for p in data["players"]):
                    reached.add("Restpartien")
            if row["status"] == "not_rated" and row["restpartien"]:
                reached.add("Restpartien handed on")
            if out["edition"] == "wo2026" and row["dwz_new"] == 1100 and row["status"] == "rated":
                reached.add("wo2026 floor")
    want = {f"{e} {k}" for e in ("classic", "wo2026") for k in ("100 %", "0 %", "performance")}
    want |= {"first rating", "Restpartien", "Restpartien handed on", "wo2026 floor"}
    assert want <= reached, want - reached


@settings(max_examples=examples(300), deadline=None)
@given(
    r0=st.integers(0, 3000) | st.sampled_from(EDGE_RATINGS),
    age=st.sampled_from(list(AgeClass)),
    index=st.integers(0, 200),
    n=st.integers(1, 60),
    data=st.data(),
)
def test_cached_terms_give_the_rule_functions_rn(r0: int, age: AgeClass, index: int, n: int, data) -> None:
    """``evaluate._Terms``: the coefficient and Rn = rhu(R0 + mult (W - We) / (add + per_game n)) from its
    integer terms (the formula ``_rated_results`` computes inline) are ``classic_e`` / ``classic_rating`` and
    ``wo2026_k`` / ``wo2026_rating`` for any W and We, and capping the index first changes nothing. The
    cache key itself is held by the property on whole fields above."""
    points = 500 * data.draw(st.integers(0, 2 * n))
    expected = data.draw(st.integers(0, 1000 * n))
    for edition in (CLASSIC, WO2026):
        terms = _terms(edition)
        capped = min(max(index, terms.low), terms.high)
        coefficient, mult, add = terms.compute(r0, age, capped, points, expected)
        den = add + terms.per_game * n
        num = r0 * den + mult * (points - expected)
        rn = (2 * num + den) // (2 * den) if num >= 0 else -((den - 2 * num) // (2 * den))
        if terms.floor is not None:
            rn = max(rn, terms.floor)
        if edition.classic is not None:
            e = classic_e(r0, age, index, points, expected, edition.classic)
            assert (coefficient, rn) == (e, classic_rating(r0, e, n, points, expected, edition.classic))
        else:
            assert edition.wo2026 is not None
            k = wo2026_k(r0, age, index, points, expected, edition.wo2026)
            assert coefficient * 10 == k
            assert rn == wo2026_rating(r0, k, points, expected, edition.wo2026)


@pytest.mark.parametrize("edition", [CLASSIC, WO2026], ids=lambda e: e.name.value)
def test_terms_follow_the_edition_object(edition) -> None:
    """Another edition object of the same name (changed parameters) gets its own terms, not the cache of
    the first."""
    other = dataclasses.replace(edition)
    assert _terms(other).edition is other
    assert _terms(edition).edition is edition
