"""Random tournaments in the JSON contract (spec §13) for the differential tests and the seeded sweep
(``bench/differential_sweep.py``): one generator, ``make_tournament``, drawing through a small ``Source``
interface (hypothesis or a seeded ``random.Random``)."""

from __future__ import annotations

import datetime
import math
import random
from typing import Any, Protocol

from hypothesis import strategies as st

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


def make_tournament(src: Source) -> dict[str, Any]:  # noqa: C901, PLR0912, PLR0915 -- existing; issue 27
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
        if _chance(src, 6):
            p["member"] = False  # WO 3.4.3: part of the calculation, no DWZ, no Restpartien
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
