"""Differential test: the production engine against the independent reference (tests/dwz/reference.py).

Random tournaments in the JSON contract (spec §13) are evaluated by both; the full JSON outputs must be
equal. One generator (``make_tournament``) serves hypothesis here and the seeded sweep in
``bench/differential_sweep.py``; it draws through a small ``Source`` interface.
"""

from __future__ import annotations

import datetime
import json
import math
import random
from typing import Any, Protocol

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.dwz import evaluate
from ratings.dwz.contract import parse_tournament, result_to_json

from .builders import load_examples
from .reference import evaluate_json

D = datetime.date

# End dates on and around the rule boundaries: Ausnahmespieler from 2016-08-01, wo2026 from 2026-06-08,
# leap days (Restpartien of 29 Feb), year ends.
SPECIAL_END_DATES = [
    D(2016, 7, 31),
    D(2016, 8, 1),
    D(2026, 6, 7),
    D(2026, 6, 8),
    D(2016, 2, 29),
    D(2020, 2, 29),
    D(2024, 2, 29),
    D(2028, 2, 29),
    D(2018, 2, 28),
    D(2022, 3, 1),
    D(2026, 3, 1),
    D(2027, 12, 31),
    D(2028, 3, 1),
]
# Ratings on the thresholds of §4, §5, §6.7 (SBr 1300, b and a 1600, groups 2000/2200, 800, 1100).
BOUNDARY_RATINGS = [600, 799, 800, 1099, 1100, 1101, 1299, 1300, 1599, 1600, 1999, 2000, 2199, 2200, 2700]
FIRST_DAY, LAST_DAY = D(2010, 1, 1), D(2031, 12, 31)


class Source(Protocol):
    def int(self, lo: int, hi: int) -> int: ...


class RandomSource:
    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def int(self, lo: int, hi: int) -> int:
        return self.rnd.randint(lo, hi)


class DrawSource:
    def __init__(self, draw) -> None:
        self.draw = draw

    def int(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))


def _pick(src: Source, seq):
    return seq[src.int(0, len(seq) - 1)]


def _chance(src: Source, percent: int) -> bool:
    # shrinks towards True for percent > 0
    return src.int(0, 99) < percent


def _shift_years(d: datetime.date, years: int) -> datetime.date:
    try:
        return d.replace(year=d.year + years)
    except ValueError:  # 29 Feb
        return d.replace(year=d.year + years, day=28)


def _rating(src: Source, lo: int = 600, hi: int = 2700) -> int:
    return _pick(src, BOUNDARY_RATINGS) if _chance(src, 12) else src.int(lo, hi)


def _restpartien(src: Source, end: datetime.date) -> list[dict[str, Any]]:
    return [
        {
            "opponent_rating": _rating(src),
            "score": _pick(src, [0, 0.5, 1]),
            "end_date": _restpartie_date(src, end).isoformat(),
        }
        for _ in range(src.int(0, 6))
    ]


def _restpartie_date(src: Source, end: datetime.date) -> datetime.date:
    kind = src.int(0, 9)
    two_back = (end.year - 2, end.month, end.day)
    if kind == 0:  # exactly at the 2-year boundary (still valid), if the day exists
        try:
            return D(*two_back)
        except ValueError:
            return D(end.year - 2, 2, 29) if end.month == 3 and end.day == 1 else D(end.year - 2, 2, 28)
    if kind == 1:  # just expired
        return _shift_years(end, -2) - datetime.timedelta(days=src.int(1, 3))
    if kind == 2:  # a leap day two years back or so
        year = _pick(src, [2012, 2016, 2020, 2024, 2028])
        return D(year, 2, 29)
    if kind == 3:  # the same day as the tournament, or later (not yet valid)
        return end + datetime.timedelta(days=src.int(0, 1) * src.int(0, 400))
    # valid, somewhere within the two years (or a bit before)
    return end - datetime.timedelta(days=src.int(0, 800))


def make_tournament(src: Source) -> dict[str, Any]:
    """A random tournament in the JSON contract of spec §13."""
    if _chance(src, 40):
        end = _pick(src, SPECIAL_END_DATES)
    else:
        end = FIRST_DAY + datetime.timedelta(days=src.int(0, (LAST_DAY - FIRST_DAY).days))
    n_players = src.int(2, 16)
    players: list[dict[str, Any]] = []
    strength: list[int] = []
    for i in range(n_players):
        kind = src.int(0, 9)  # 0-4 DWZ, 5 FIDE only, 6 DWZ and FIDE, 7-9 unrated
        p: dict[str, Any] = {"id": f"P{i}"}
        age_kind = src.int(0, 5)
        if age_kind == 0:
            p["birth_year"] = None
        elif age_kind <= 2:  # around the class boundaries 20/21 and 25/26
            p["birth_year"] = end.year - _pick(src, [6, 12, 19, 20, 21, 22, 25, 26, 27])
        else:
            p["birth_year"] = end.year - src.int(5, 90)
        rating = _rating(src)
        if kind <= 4 or kind == 6:
            p["dwz"] = rating
            p["index"] = None if _chance(src, 10) else src.int(0, 80) if _chance(src, 50) else src.int(0, 12)
            if kind == 6:
                p["fide_elo"] = _rating(src, 1000)
        elif kind == 5:
            p["fide_elo"] = max(1000, rating)
            if _chance(src, 10):
                p["index"] = src.int(0, 80)  # meaningless without a DWZ (spec §13)
        else:
            if _chance(src, 60):
                p["restpartien"] = _restpartien(src, end)
            if _chance(src, 5):
                p["index"] = src.int(0, 80)  # meaningless without a DWZ (spec §13)
            rating = src.int(600, 2400)
        if kind <= 6 and _chance(src, 5):
            p["restpartien"] = _restpartien(src, end)  # ignored for rated players (spec §13)
        # Hidden playing strength: sometimes far above the rating (Ausnahmespieler, first ratings high).
        boost = src.int(300, 900) if _chance(src, 8) else src.int(-200, 200)
        strength.append(rating + boost)
        players.append(p)

    pairs = [(a, b) for a in range(n_players) for b in range(a + 1, n_players)]
    shape = src.int(0, 3)
    if shape == 0:  # round robin
        chosen = list(pairs)
    elif shape == 1:  # partial pairings
        chosen = [pair for pair in pairs if _chance(src, 50)]
    elif shape == 2:  # double round robin for small fields, partial otherwise
        chosen = [pair for pair in pairs for _ in range(2)] if n_players <= 6 else pairs[: src.int(1, 30)]
    else:  # a few random games, repetitions allowed
        chosen = [_pick(src, pairs) for _ in range(src.int(1, 25))]
    games = []
    for a, b in chosen:
        if _chance(src, 50):
            a, b = b, a
        if _chance(src, 6):
            result = _pick(src, ["+-", "-+", "--"])
        else:
            expected = 0.5 * (1 + math.erf((strength[a] - strength[b]) / 400))
            u = src.int(0, 999) / 1000
            draw_band = 0.25 * (1 - abs(2 * expected - 1))
            if u < expected - draw_band / 2:
                result = "1-0"
            elif u < expected + draw_band / 2:
                result = "1/2-1/2"
            else:
                result = "0-1"
        games.append({"white": f"P{a}", "black": f"P{b}", "result": result})
    return {
        "tournament": {"code": None, "name": "differential", "end_date": end.isoformat()},
        "players": players,
        "games": games,
    }


def engine_json(data: dict[str, Any]) -> dict[str, Any]:
    return result_to_json(evaluate(parse_tournament(data)))


def assert_same(data: dict[str, Any]) -> None:
    expected = evaluate_json(data)
    actual = engine_json(data)
    if actual != expected:
        diffs = [
            f"  engine    {a}\n  reference {r}"
            for a, r in zip(actual["players"], expected["players"], strict=True)
            if a != r
        ]
        pytest.fail(
            f"engine and reference disagree (edition {actual['edition']} / {expected['edition']}):\n"
            + "\n".join(diffs)
            + "\ninput: "
            + json.dumps(data)
        )


@st.composite
def tournaments(draw):
    return make_tournament(DrawSource(draw))


@pytest.mark.parametrize("ex", load_examples(), ids=lambda e: e["id"])
def test_reference_reproduces_spec_examples(ex):
    assert evaluate_json(ex["input"]) == ex["output"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_engine_matches_reference(data):
    assert_same(data)


# --- Targeted cases: boundaries the random generator reaches only by chance ---


def _t(end: str, players: list[dict[str, Any]], games: list[tuple[str, str, str]]) -> dict[str, Any]:
    return {
        "tournament": {"code": None, "name": "targeted", "end_date": end},
        "players": players,
        "games": [{"white": w, "black": b, "result": r} for w, b, r in games],
    }


def _unrated_with_restpartie(end: str, rp_end: str) -> dict[str, Any]:
    """U has 3 valid Restpartien (1 of 3) plus one tournament game against R; a 4th Restpartie of
    ``rp_end`` decides whether U reaches 5 games against rated players (spec §6.1, §6.2)."""
    rps = [{"opponent_rating": 1500, "score": s, "end_date": end} for s in (1, 0, 0)]
    rps.append({"opponent_rating": 1600, "score": 0.5, "end_date": rp_end})
    return _t(
        end,
        [{"id": "R", "birth_year": 1980, "dwz": 1500, "index": 10}, {"id": "U", "restpartien": rps}],
        [("R", "U", "1-0")],
    )


def _six_round_robin(end: str) -> dict[str, Any]:
    """A youth rated 1150 scores 4.5/5 (like E8: an Ausnahmespieler from 2016-08-01), plus an unrated U."""
    players = [
        {"id": "A", "birth_year": int(end[:4]) - 12, "dwz": 1150, "index": 4},
        {"id": "B", "birth_year": 1970, "dwz": 1610, "index": 40},
        {"id": "C", "birth_year": 1990, "dwz": 1540, "index": 12},
        {"id": "D", "birth_year": 2003, "dwz": 1495, "index": 7},
        {"id": "E", "birth_year": None, "fide_elo": 1580},
        {"id": "U", "birth_year": 1999},
    ]
    ids = [p["id"] for p in players]
    results = {("A", "D"): "1/2-1/2", ("B", "U"): "0-1", ("C", "U"): "1/2-1/2", ("D", "E"): "0-1"}
    games = [(a, b, results.get((a, b), "1-0")) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    return _t(end, players, games)


TWO_CYCLE = {
    "tournament": {"code": None, "name": "two-cycle", "end_date": "2010-10-23"},
    "players": [
        {"id": "P0", "birth_year": 1943, "dwz": 1414, "index": 26},
        {
            "id": "P1",
            "birth_year": 1973,
            "restpartien": [
                {"opponent_rating": 1618, "score": 0.5, "end_date": "2009-09-11"},
                {"opponent_rating": 2305, "score": 1, "end_date": "2009-10-21"},
                {"opponent_rating": 1848, "score": 0, "end_date": "2010-04-03"},
            ],
        },
        {"id": "P2", "birth_year": 1925, "dwz": 2000, "index": 41},
        {
            "id": "P3",
            "birth_year": 1927,
            "restpartien": [
                {"opponent_rating": 2460, "score": 0, "end_date": "2009-01-30"},
                {"opponent_rating": 1567, "score": 0, "end_date": "2008-10-22"},  # expired the day before
                {"opponent_rating": 1896, "score": 1, "end_date": "2009-10-01"},
                {"opponent_rating": 2214, "score": 0.5, "end_date": "2010-10-23"},  # same day: valid
                {"opponent_rating": 1162, "score": 0, "end_date": "2010-01-11"},
                {"opponent_rating": 1783, "score": 1, "end_date": "2010-05-08"},
            ],
        },
    ],
    "games": [
        {"white": "P0", "black": "P1", "result": "1-0"},
        {"white": "P0", "black": "P2", "result": "0-1"},
        {"white": "P3", "black": "P0", "result": "1-0"},
        {"white": "P1", "black": "P2", "result": "0-1"},
        {"white": "P3", "black": "P1", "result": "1-0"},
        {"white": "P2", "black": "P3", "result": "1-0"},
    ],
}

TARGETED = {
    # 29 Feb + 2 years acts as 28 Feb (spec §6.1)
    "rp-29feb-valid-on-28feb": _unrated_with_restpartie("2022-02-28", "2020-02-29"),
    "rp-29feb-expired-on-1mar": _unrated_with_restpartie("2022-03-01", "2020-02-29"),
    "rp-28feb-expired-on-29feb": _unrated_with_restpartie("2024-02-29", "2022-02-28"),
    "rp-1mar-valid-on-29feb": _unrated_with_restpartie("2024-02-29", "2022-03-01"),
    "rp-at-boundary": _unrated_with_restpartie("2019-06-30", "2017-06-30"),
    "rp-a-day-late": _unrated_with_restpartie("2019-07-01", "2017-06-30"),
    "rp-after-the-tournament": _unrated_with_restpartie("2019-07-01", "2019-07-02"),
    # Ausnahmespieler from 2016-08-01, wo2026 from 2026-06-08 (spec §1, §7.4)
    "rr-2016-07-31": _six_round_robin("2016-07-31"),
    "rr-2016-08-01": _six_round_robin("2016-08-01"),
    "rr-2026-06-07": _six_round_robin("2026-06-07"),
    "rr-2026-06-08": _six_round_robin("2026-06-08"),
    # rated players with no counted game; forfeits only
    "no-counted-games": _t(
        "2021-05-05",
        [
            {"id": "R", "dwz": 1700},
            {"id": "F", "fide_elo": 2100, "index": 9},
            {"id": "U", "birth_year": 2010},
        ],
        [("R", "U", "1-0"), ("U", "F", "0-1"), ("R", "F", "+-"), ("F", "R", "--")],
    ),
    # Jacobi ends in a ±1 two-cycle: values of round 100, expected against the opponents of round 100
    "iteration-two-cycle": TWO_CYCLE,
}


@pytest.mark.parametrize("data", TARGETED.values(), ids=TARGETED.keys())
def test_engine_matches_reference_targeted(data):
    assert_same(data)


def _status(data: dict[str, Any], pid: str) -> str:
    return next(p["status"] for p in evaluate_json(data)["players"] if p["id"] == pid)


def test_targeted_cases_reach_their_branch():
    """The targeted inputs do what their names say (so that the comparisons above test the boundary)."""
    for name, status in [
        ("rp-29feb-valid-on-28feb", "first"),
        ("rp-29feb-expired-on-1mar", "not_rated"),
        ("rp-28feb-expired-on-29feb", "not_rated"),
        ("rp-1mar-valid-on-29feb", "first"),
        ("rp-at-boundary", "first"),
        ("rp-a-day-late", "not_rated"),
        ("rp-after-the-tournament", "not_rated"),
    ]:
        assert _status(TARGETED[name], "U") == status, name
    b = {d: evaluate_json(TARGETED[f"rr-{d}"])["players"][1] for d in ("2016-07-31", "2016-08-01")}
    assert b["2016-07-31"]["expected"] != b["2016-08-01"]["expected"]  # A enters with Rh from 2016-08-01
    assert evaluate_json(TARGETED["rr-2026-06-07"])["edition"] == "classic"
    assert evaluate_json(TARGETED["rr-2026-06-08"])["edition"] == "wo2026"
    trace: dict[str, int] = {}
    out = {p["id"]: p for p in evaluate_json(TWO_CYCLE, trace)["players"]}
    assert trace["max_rounds"] == 100
    # round 99 = (1570, 1898), round 100 = (1571, 1897); P1's expected is against P3 at 1898
    assert (out["P1"]["performance"], out["P3"]["performance"]) == (1571, 1897)
    assert (out["P1"]["expected"], out["P3"]["expected"]) == (1.503, 4.497)
