"""Vectorised evaluation of many tournaments at once (same results as ``reference_impl``, spec §8).

All players and games of a batch of independent tournaments are concatenated into numpy arrays (players get
global positions, games become "ends": one row per player and game, grouped by player in input game order).
Every step of the rules then runs as array arithmetic over the whole batch:

* Zusatzstufen, counted games, We, W, n and the level are bincounts over the ends;
* E / K / Rn and the first-rating mapping are integer arithmetic in scaled units with exact half-up
  rounding (``_rhu_div``); SBr (which needs ``math.exp``) comes from a table built with the reference code;
* every search of §7.1 (performances, and each round of the Jacobi iteration for all first ratings at
  once) is ``solve_many``: a 17-point coarse and a 17-point fine window of the rounded sum around the
  normal-approximation estimate, read from 2-D p tables, then the tie rule with the unrounded sums;
  anything the windows cannot settle with a clear float margin goes to the scalar ``solve``;
* the Ausnahmespieler second pass recomputes only what can change: the first ratings of tournaments
  where a Zusatzstufe player met an Ausnahmespieler, and the performances of players one of whose
  opponents' entry ratings changed.

Exactness: integer arithmetic stays far inside int64; float values are used only where the reference
uses floats (erf, exp, the inverse normal), and every decision taken on a float is taken only with a
margin of 1e-6 that no floating point difference can cross; otherwise the scalar reference code decides.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from operator import attrgetter

import numpy as np
from scipy.special import ndtri

from .editions import CLASSIC, COMMON, WO2026, Edition, edition_for
from .expectation import expected_score, rating_difference_for, win_probability
from .first_rating import restpartie_valid
from .performance import solve
from .reference_impl import evaluate_reference
from .rounding import rhu
from .types import PlayerResult, Restpartie, TournamentInput, TournamentResult

_I64 = np.int64
# A decision on a float (in thousandths of a point, or in rating points) is taken here only with at least this
# margin; closer calls go to the scalar code, so no floating point difference can change a result.
_EPS = 1e-6
_SIGMA = COMMON.erf_divisor / math.sqrt(2)

# ---------------------------------------------------------------------------------------------- tables

# p(D) in thousandths for D = -_LIM.._LIM (as float64: exact integers, ready for bincount weights). Lookups
# clip the index, which is exact because p is 0 / 1000 far before the edges.
_LIM = 4096
_P_ROW = np.array([expected_score(d) for d in range(-_LIM, _LIM + 1)], dtype=np.float64)
# 1000 * unrounded P(D) for the tie rule, from the same function (math.erf) the scalar code uses. erf(x) is
# exactly +-1.0 in double precision for |x| >= 6, i.e. |D| >= 2400, so clipping is exact here too.
_S_ROW = 1000.0 * np.array([win_probability(d) for d in range(-_LIM, _LIM + 1)], dtype=np.float64)
# 1000 * dP/dD: only for the Newton estimate of the search start (any start gives the same result).
_DENSITY = (
    1000.0
    * np.exp(-((np.arange(-_LIM, _LIM + 1) / (_SIGMA * math.sqrt(2))) ** 2))
    / (_SIGMA * math.sqrt(2 * math.pi))
)
assert _P_ROW[0] == 0 and _P_ROW[-1] == 1000 and _S_ROW[0] == 0.0 and _S_ROW[-1] == 1000.0
assert _S_ROW[_LIM - 2400] == 0.0 and _S_ROW[_LIM + 2400] == 1000.0
_NEWTON_STEPS = 3
_SCALAR_BELOW = 6  # solve_many hands this few problems to the scalar solve
_HALF = 3  # the first window: the estimate +- 3
_WIDE = 8  # the second window (plateaus): R* - 8 .. R* + 8


def _rhu_div(num: np.ndarray, den: np.ndarray | int) -> np.ndarray:
    """Half-up (away from zero) rounding of num/den for int64 arrays with den > 0."""
    return np.where(num >= 0, (2 * num + den) // (2 * den), -((-2 * num + den) // (2 * den)))


def _p_of(d: np.ndarray) -> np.ndarray:
    """p(D) in thousandths (float64, exact integers) for int64 differences."""
    return _P_ROW.take(d + _LIM, mode="clip")


def _segment_sum(values: np.ndarray, owner: np.ndarray, size: int) -> np.ndarray:
    """Sum of integer-valued float64/int values per owner, as int64 (exact below 2**53)."""
    return np.bincount(owner, weights=values, minlength=size).astype(_I64)


# ---------------------------------------------------------------------------------------------- solve


def _window(table: np.ndarray, owner: np.ndarray, d0: np.ndarray, count: int, offsets: range) -> np.ndarray:
    """Sums of ``table`` over each problem's entries at R = R0 + offset (``d0`` = R0 - opponent)."""
    out = np.empty((count, len(offsets)))
    idx = d0 + _LIM
    for j, off in enumerate(offsets):
        out[:, j] = np.bincount(owner, weights=table.take(idx + off, mode="clip"), minlength=count)
    return out


def solve_many(
    opp: np.ndarray, owner: np.ndarray, starts: np.ndarray, n: np.ndarray, w: np.ndarray
) -> np.ndarray:
    """``solve(opponents, W)`` (spec §7.1) for many problems at once.

    Problem k has the opponents ``opp[starts[k]:starts[k] + n[k]]`` (contiguous, ``owner`` = k, in the order
    the scalar code would receive them) and ``w[k]`` thousandths with 0 < W < 1000 n.

    Newton steps on the unrounded sum give an estimate that is almost always within one point of R*; the
    rounded sum f over the estimate +- 3 then gives R*, f(R* - 1) and f(R*); the tie rule needs the unrounded
    sums S(R* - 1), S(R*), and, where the unrounded root lies further out on a plateau of f, the whole
    plateau (a second window of 17 points). Anything else goes to the scalar ``solve``.
    """
    count = len(n)
    if count <= _SCALAR_BELOW:
        # A few problems: the vector set-up costs more than the scalar searches.
        return np.array(
            [
                solve(opp[s : s + k].tolist(), wk)
                for s, k, wk in zip(starts.tolist(), n.tolist(), w.tolist(), strict=True)
            ],
            dtype=_I64,
        )
    mean = np.bincount(owner, weights=opp, minlength=count) / n
    with np.errstate(all="ignore"):
        guess = mean + _SIGMA * ndtri(w / (1000.0 * n))
        for _ in range(_NEWTON_STEPS):
            g = np.floor(guess).astype(_I64)
            idx = g[owner] - opp + _LIM
            s = np.bincount(owner, weights=_S_ROW.take(idx, mode="clip"), minlength=count)
            slope = np.bincount(owner, weights=_DENSITY.take(idx, mode="clip"), minlength=count)
            # fmin/fmax also turn a NaN step (zero slope far out) into a finite one.
            guess = g + np.fmin(np.fmax((w - s) / slope, -400.0), 400.0)
    base = np.floor(guess).astype(_I64) - _HALF
    d0 = base[owner] - opp
    f = _window(_P_ROW, owner, d0, count, range(2 * _HALF + 1))
    c = (f < w[:, None]).sum(axis=1)  # f(base + c) is the first value >= W
    inside = (c >= 1) & (c <= 2 * _HALF)
    c = np.minimum(np.maximum(c, 1), 2 * _HALF)
    ar = np.arange(count)
    r_star = base + c
    f_below = f[ar, c - 1]
    f_at = f[ar, c]
    d_below = w - f_below
    d_at = f_at - w
    # Tie rule with the unrounded sums S at R* - 1 and R*.
    idx = d0 + c[owner] + _LIM
    s_at = np.bincount(owner, weights=_S_ROW.take(idx, mode="clip"), minlength=count)
    s_below = np.bincount(owner, weights=_S_ROW.take(idx - 1, mode="clip"), minlength=count)
    lo_ok = s_below <= w - _EPS  # S(R* - 1) < W clearly
    hi_ok = s_at >= w + _EPS  # S(R*) > W clearly
    gap = (s_at - w) - (w - s_below)
    pick_below = gap > _EPS
    below = d_below < d_at
    above = d_at < d_below
    result = np.where(below | ((d_below == d_at) & pick_below), r_star - 1, r_star)
    decided = inside & np.where(
        below, lo_ok, np.where(above, hi_ok, lo_ok & hi_ok & (pick_below | (gap < -_EPS)))
    )
    rest = np.flatnonzero(~decided)
    if rest.size:
        # The unrounded root lies beyond R* - 1 or R* (a plateau), R* is outside the first window, or a
        # float margin is too thin: the plateau window, then the scalar code.
        res, done = _plateaus(rest, opp, owner, n, w, r_star)
        result[rest] = res
        for k in rest[~done].tolist():
            s = int(starts[k])
            result[k] = solve(opp[s : s + int(n[k])].tolist(), int(w[k]))
    return result


def _plateaus(sel, opp, owner, n, w, center):
    """The full tie rule of §7.1 (``performance._best_in_plateau``) on a window of 17 points around
    ``center``, for the problems ``sel``. Returns (R, decided): when R* or a relevant plateau end is outside
    the window, or a float margin is too thin, the problem is left undecided."""
    is_sel = np.zeros(len(n), dtype=bool)
    is_sel[sel] = True
    ent = np.flatnonzero(is_sel[owner])
    local = np.searchsorted(sel, owner[ent])
    count = len(sel)
    base = center[sel] - _WIDE
    d0 = base[local] - opp[ent]
    cols = range(2 * _WIDE + 1)
    last = 2 * _WIDE
    f = _window(_P_ROW, local, d0, count, cols)
    s = _window(_S_ROW, local, d0, count, cols)
    ws = w[sel].astype(np.float64)[:, None]
    ar = np.arange(count)
    c = (f < ws).sum(axis=1)
    ok = (c >= 1) & (c <= last)
    c = np.minimum(np.maximum(c, 1), last)
    f_below, f_at = f[ar, c - 1], f[ar, c]
    d_below, d_at = ws[:, 0] - f_below, f_at - ws[:, 0]
    want_b, want_a = d_below <= d_at, d_at <= d_below
    j = np.arange(last + 1)[None, :]
    # The plateau of f(R* - 1) ends at R* - 1, the plateau of f(R*) starts at R* (f is non-decreasing).
    start_b = (f < f_below[:, None]).sum(axis=1)
    end_a = (f <= f_at[:, None]).sum(axis=1) - 1
    ok &= ~want_b | (start_b > 0)
    ok &= ~want_a | (end_a < last)

    def best(lo, hi):
        """(R, |S(R) - W|, decided) over the plateau columns lo..hi (S is strictly increasing)."""
        plateau = (j >= lo[:, None]) & (j <= hi[:, None])
        clear = (~plateau | (np.abs(s - ws) >= _EPS)).all(axis=1)
        k = lo + ((s < ws) & plateau).sum(axis=1)  # first column with S >= W (hi + 1 if none)
        s_k = s[ar, np.minimum(k, last)] - ws[:, 0]
        s_k1 = ws[:, 0] - s[ar, np.maximum(k - 1, 0)]
        r = np.where(k == lo, lo, np.where(k > hi, hi, np.where(s_k <= s_k1, k, k - 1)))
        dist = np.where(k == lo, s_k, np.where(k > hi, s_k1, np.minimum(s_k, s_k1)))
        decided = clear & ((k == lo) | (k > hi) | (np.abs(s_k - s_k1) >= _EPS))
        return r, dist, decided

    r_b, dist_b, good_b = best(start_b, c - 1)
    r_a, dist_a, good_a = best(c, end_a)
    ok &= (~want_b | good_b) & (~want_a | good_a)
    ok &= ~(want_a & want_b) | (np.abs(dist_a - dist_b) >= _EPS)
    # Smallest distance; equal distances (which would go to the larger R) were left to the scalar code.
    r = np.where(want_b & ~want_a, r_b, np.where(want_a & ~want_b, r_a, np.where(dist_a < dist_b, r_a, r_b)))
    return base + r, ok


# ---------------------------------------------------------------------------------------------- coefficients


@cache
def _sbr_table() -> np.ndarray:
    """rhu(E0 + SBr) for R0 = 0..sbr_below-1 and the three age classes, with the reference formula."""
    c = CLASSIC.classic
    assert c is not None
    out = np.zeros((3, c.sbr_below), dtype=_I64)
    for cls, j in enumerate((c.j_youth, c.j_junior, c.j_adult)):
        for r0 in range(c.sbr_below):
            sbr = Fraction(math.exp((c.sbr_below - r0) / c.sbr_scale)) - 1
            out[cls, r0] = rhu(Fraction(r0**4, 10**12) + j + sbr)
    return out


def _classic(r0, cls, index_used, points, expected, n):
    """E and Rn of the classic rules (spec §4) as arrays, exactly."""
    c = CLASSIC.classic
    assert c is not None
    j = np.array([c.j_youth, c.j_junior, c.j_adult], dtype=_I64)[cls]
    scale = 10**12
    num0 = r0**4 + j * scale
    youth_fb = (cls == 0) & (points >= expected)
    sbr = ~youth_fb & (r0 < c.sbr_below) & (points < expected)
    fmin, fmax, div = c.fb_min, c.fb_max, c.fb_divisor
    low = r0 * fmin.denominator < fmin.numerator * div
    high = r0 * fmax.denominator > fmax.numerator * div
    fn = np.where(low, fmin.numerator, np.where(high, fmax.numerator, r0))
    fd = np.where(low, fmin.denominator, np.where(high, fmax.denominator, div))
    e_fb = _rhu_div(num0 * fn, scale * fd)
    e_plain = _rhu_div(num0, scale)
    e_sbr = _sbr_table()[cls, np.clip(r0, 0, c.sbr_below - 1)]
    e = np.where(youth_fb, e_fb, np.where(sbr, e_sbr, e_plain))
    cap = np.where(sbr, c.e_max_sbr, np.minimum(c.e_max, c.e_per_index * index_used))
    e = np.maximum(c.e_min, np.minimum(e, cap))
    den = 1000 * (e + n)
    rn = _rhu_div(r0 * den + c.scale * (points - expected), den)
    return e, rn


def _wo2026(r0, cls, index_used, points, expected):
    """K (in 10**-k_decimals) and Rn of the WO2026 rules (spec §5) as arrays, exactly."""
    p = WO2026.wo2026
    assert p is not None
    table = np.array([p.k0_a, p.k0_b, p.k0_c], dtype=_I64)
    group = np.where(
        (cls != 2) & (r0 < p.group_a_below), 0, np.where((cls == 2) & (r0 < p.group_b_below), 1, 2)
    )
    k0 = table[group, np.clip(index_used, 1, table.shape[1]) - 1]
    scale = 10**p.k_decimals
    below = points < expected
    b_case = below & (r0 < p.b_below)
    a_youth = ~below & (cls == 0) & (r0 < p.a_youth_below)
    a_other = ~below & (cls != 0) & (r0 < p.a_other_below)
    a_const = np.where(cls == 1, p.a1, p.a2)
    num = np.where(
        b_case,
        scale * k0 * (r0 + p.u),
        np.where(
            a_youth, scale * (k0 * p.t + p.a_youth_below - r0), scale * (k0 + np.where(a_other, a_const, 0))
        ),
    )
    den = np.where(b_case, p.b_below + p.u, np.where(a_youth, p.t, 1))
    k = np.clip(_rhu_div(num, den), p.k_min * scale, p.k_max * scale)
    den2 = 1000 * scale
    rn = np.maximum(p.floor, _rhu_div(r0 * den2 + k * (points - expected), den2))
    return k, rn


def _map_first(values: np.ndarray, classic: np.ndarray) -> np.ndarray:
    """The first rating from R_i (spec §6.7) for both editions, exactly."""
    c, w = CLASSIC.classic, WO2026.wo2026
    assert c is not None and w is not None
    cl = np.where(
        values < c.first_low_below,
        _rhu_div(c.first_low_base * c.first_low_divisor + values, c.first_low_divisor),
        values,
    )
    rn, rd = w.r.numerator, w.r.denominator
    top, floor = w.first_top, w.first_floor
    mid = _rhu_div(values * rd + rn * (top - values), rd)
    low = _rhu_div(floor * rd * floor + rn * values * (top - floor), rd * floor)
    wo = np.maximum(floor, np.where(values >= top, values, np.where(values >= floor, mid, low)))
    return np.where(classic, cl, wo)


# ---------------------------------------------------------------------------------------------- batch


_CODE = {"1-0": 0, "0-1": 1, "1/2-1/2": 2}  # anything else is not a played game (spec §3)
_WHITE_SCORE = np.array([1000, 0, 500, 0], dtype=_I64)
_get_white, _get_black, _get_result = attrgetter("white"), attrgetter("black"), attrgetter("result")
_get_player = attrgetter("id", "dwz", "fide_elo", "index", "birth_year", "restpartien")
_RATING_MAX = 3000
_NO_AGE = 10**6  # no birth year: adult (spec §2)


def _new_result_factory():
    """A constructor for PlayerResult that sets the slots directly (about twice as fast as ``__init__``).
    All fields are positional and required here (also ``fide_takeover`` and ``entry_rating``).

    PlayerResult is a frozen, slotted dataclass without ``__post_init__``; its generated ``__init__`` does
    nothing but ``object.__setattr__`` for each field, which is what this does, via the slot descriptors.
    """
    import dataclasses

    names = [f.name for f in dataclasses.fields(PlayerResult)]
    assert names == [
        "id", "status", "dwz_old", "index_old", "n", "points", "expected", "coefficient", "level",
        "performance", "dwz_new", "index_new", "restpartien", "fide_takeover", "entry_rating",
    ]  # fmt: skip
    assert not hasattr(PlayerResult, "__post_init__")
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14 = (
        getattr(PlayerResult, name).__set__ for name in names
    )
    new = object.__new__

    def make(
        a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, cls=PlayerResult, new=new,
        s0=s0, s1=s1, s2=s2, s3=s3, s4=s4, s5=s5, s6=s6, s7=s7, s8=s8, s9=s9, s10=s10, s11=s11, s12=s12,
        s13=s13, s14=s14,
    ):  # fmt: skip
        o = new(cls)
        s0(o, a0)
        s1(o, a1)
        s2(o, a2)
        s3(o, a3)
        s4(o, a4)
        s5(o, a5)
        s6(o, a6)
        s7(o, a7)
        s8(o, a8)
        s9(o, a9)
        s10(o, a10)
        s11(o, a11)
        s12(o, a12)
        s13(o, a13)
        s14(o, a14)
        return o

    return make


_make_result = _new_result_factory()
_DECIMALS: dict[int, dict[int, Decimal]] = {}


def _decimals(places: int) -> dict[int, Decimal]:
    """Shared Decimal values for coefficients (E, or K in 10**-places), created once per value."""
    table = _DECIMALS.get(places)
    if table is None:
        table = _DECIMALS[places] = {}
    return table


def _new_decimal(table: dict[int, Decimal], value: int, places: int) -> Decimal:
    d = table[value] = Decimal(value).scaleb(-places) if places else Decimal(value)
    return d


class _Batch:
    """The parsed, concatenated inputs of the tournaments that take the fast path."""

    def __init__(self, tournaments: Sequence[TournamentInput]) -> None:
        self.tournaments = tournaments
        rows: list[tuple] = []
        sizes: list[int] = []
        years: list[int] = []
        whites: list[int] = []
        blacks: list[int] = []
        results: list[str] = []
        editions: list[Edition] = []
        base = 0
        for t in tournaments:
            edition = edition_for(t.end_date)
            if edition is not CLASSIC and edition is not WO2026:
                raise _Unsupported
            editions.append(edition)
            years.append(t.end_date.year)
            players = t.players
            m = len(players)
            sizes.append(m)
            got = list(map(_get_player, players))
            rows += got
            # Later duplicates of an id win, as in the reference.
            getpos = dict(zip([g[0] for g in got], range(base, base + m), strict=True)).__getitem__
            base += m
            games = t.games
            results += map(_get_result, games)
            whites += map(getpos, map(_get_white, games))
            blacks += map(getpos, map(_get_black, games))
        self.editions = editions
        self.size = base
        self.offsets = [0, *itertools.accumulate(sizes)]
        if rows:
            ids, dwz, fide, index, birth, rps = zip(*rows, strict=True)
        else:
            ids = dwz = fide = index = birth = rps = ()
        self.ids = ids
        if not {type(x) for x in (*dwz, *fide, *index, *birth)} <= {int, type(None)}:
            raise _Unsupported
        dwz_f = np.array(dwz, dtype=np.float64)
        fide_f = np.array(fide, dtype=np.float64)
        has_dwz = ~np.isnan(dwz_f)
        self.takeover = ~has_dwz & ~np.isnan(fide_f)
        self.rated = rated = has_dwz | self.takeover
        r0 = np.where(has_dwz, dwz_f, np.where(self.takeover, fide_f, 0.0))
        self.r0 = r0.astype(_I64)
        # ``index or 0`` for DWZ holders; a FIDE take-over's index comes from the parameters.
        self.index_in = np.where(has_dwz, np.nan_to_num(np.array(index, dtype=np.float64)), 0).astype(_I64)
        sizes_a = np.array(sizes, dtype=_I64)
        self.t_of_p = np.repeat(np.arange(len(sizes)), sizes_a)
        birth_f = np.array(birth, dtype=np.float64)
        year_p = np.repeat(np.array(years, dtype=np.float64), sizes_a)
        self.age = np.where(np.isnan(birth_f), _NO_AGE, year_p - birth_f).astype(_I64)
        self.classic_t = np.array([e is CLASSIC for e in editions], dtype=bool)
        self.ausnahme_t = np.array([t.end_date >= COMMON.ausnahme_from for t in tournaments], dtype=bool)
        self.code = np.fromiter(map(_CODE.get, results, [3] * len(results)), dtype=_I64, count=len(results))
        self.whites = np.array(whites, dtype=_I64)
        self.blacks = np.array(blacks, dtype=_I64)
        # Valid Restpartien of unrated players (spec §6.1).
        rp_owner: list[int] = []
        rp_rating: list[int] = []
        rp_score: list[int] = []
        t_of_p = self.t_of_p
        for i in np.flatnonzero(~rated & np.array([bool(x) for x in rps], dtype=bool)).tolist():
            end = tournaments[t_of_p[i]].end_date
            for rp in rps[i]:
                if restpartie_valid(rp, end, COMMON.restpartien_years):
                    rp_owner.append(i)
                    rp_rating.append(rp.opponent_rating)
                    rp_score.append(rp.score)
        if not {type(x) for x in (*rp_rating, *rp_score)} <= {int}:
            raise _Unsupported
        self.rp_owner = np.array(rp_owner, dtype=_I64)
        self.rp_rating = np.array(rp_rating, dtype=_I64)
        self.rp_score = np.array(rp_score, dtype=_I64)
        if (
            (self.r0.size and (self.r0.min() < 0 or self.r0.max() > _RATING_MAX))
            or (self.rp_rating.size and (self.rp_rating.min() < 0 or self.rp_rating.max() > _RATING_MAX))
            or (self.index_in.size and np.abs(self.index_in).max() > 10**6)
            or (self.age.size and np.abs(self.age).max() > _NO_AGE)
            or (self.rp_score.size and not np.isin(self.rp_score, (0, 500, 1000)).all())
        ):
            raise _Unsupported


class _Unsupported(Exception):
    """Input the fast path does not take (out-of-range values, unknown ids): the reference evaluates it."""


def evaluate_many(tournaments: Sequence[TournamentInput]) -> list[TournamentResult]:
    """Evaluate independent tournaments (each under the edition of its end date) in one vectorised pass.

    Same results as ``[evaluate_reference(t) for t in tournaments]``; tournaments the fast path does not
    take (ratings outside 0-3000, a game with an unknown player, ...) are evaluated by the reference, which
    also raises the same errors for malformed input.
    """
    tournaments = list(tournaments)
    try:
        batch = _Batch(tournaments)
    except (_Unsupported, KeyError, TypeError, ValueError, AttributeError, OverflowError):
        if len(tournaments) == 1:
            return [evaluate_reference(tournaments[0])]
        return [evaluate_many([t])[0] for t in tournaments]
    return _evaluate_batch(batch)


def _evaluate_batch(b: _Batch) -> list[TournamentResult]:
    size = b.size
    common = COMMON
    min_games = common.min_games
    r0, rated = b.r0, b.rated
    unrated = ~rated
    t_of_p = b.t_of_p

    # Ends of played games, one per player and game, grouped by player in input game order.
    played = b.code < 3
    g_white, g_black = b.whites[played], b.blacks[played]
    s_white = _WHITE_SCORE[b.code[played]]
    owner = np.empty(2 * len(g_white), dtype=_I64)
    owner[0::2], owner[1::2] = g_white, g_black
    opp = np.empty_like(owner)
    opp[0::2], opp[1::2] = g_black, g_white
    score = np.empty_like(owner)
    score[0::2], score[1::2] = s_white, 1000 - s_white
    order = np.argsort(owner, kind="stable")
    owner, opp, score = owner[order], opp[order], score[order]

    # Zusatzstufen (spec §6.2/6.3) and counted games (spec §3).
    rp_n = np.bincount(b.rp_owner, minlength=size)
    rp_w = np.bincount(b.rp_owner, weights=b.rp_score, minlength=size).astype(_I64)

    def stage(pool: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        m = candidates[owner] & pool[opp]
        games = np.bincount(owner[m], minlength=size)
        n = games + rp_n
        w = np.bincount(owner[m], weights=score[m], minlength=size).astype(_I64) + rp_w
        return candidates & (n >= min_games) & (w > 0) & (w < 1000 * n) & (games >= 1)

    stage1 = stage(rated, unrated)
    auswahl1 = rated | stage1
    stage2 = stage(auswahl1, unrated & ~stage1)
    zus = stage1 | stage2
    auswahl2 = auswahl1 | stage2
    counted = auswahl2[owner] & auswahl2[opp]
    c_owner, c_opp, c_score = owner[counted], opp[counted], score[counted]
    n_c = np.bincount(c_owner, minlength=size)
    w_c = np.bincount(c_owner, weights=c_score, minlength=size).astype(_I64)
    c_start = np.cumsum(n_c) - n_c

    zus_idx = np.flatnonzero(zus)
    first_ctx = _FirstContext(
        b, zus_idx, stage1, stage2, owner, opp, score, c_owner, c_opp, c_score, rp_n, rp_w
    )

    # Pass 1: every rated player at R0.
    entry = r0.copy()
    values = used = first = np.zeros(0, dtype=_I64)
    if zus_idx.size:
        values, used = first_ctx.run(entry, np.ones(zus_idx.size, dtype=bool))
        first = _map_first(values, b.classic_t[t_of_p[zus_idx]])
        entry[zus_idx] = first
    perf_players = np.flatnonzero(rated & (n_c >= min_games))
    perf = np.full(size, -(10**9), dtype=_I64)
    perf[perf_players] = _performances(perf_players, entry, n_c, w_c, c_start, c_opp)

    # Ausnahmespieler (spec §7.4): one test; then the first ratings again where they can change, and the
    # performances of everybody whose opponents' entry ratings changed.
    ausnahme = np.zeros(size, dtype=bool)
    ausnahme[perf_players] = b.ausnahme_t[t_of_p[perf_players]] & (
        perf[perf_players] > r0[perf_players] + common.ausnahme_margin
    )
    if ausnahme.any():
        entry2 = r0.copy()
        entry2[ausnahme] = perf[ausnahme]
        if zus_idx.size:
            entry2[zus_idx] = first
            met = zus[c_owner] & ausnahme[c_opp]
            redo_t = np.zeros(len(b.tournaments), dtype=bool)
            redo_t[t_of_p[c_owner[met]]] = True
            redo = redo_t[t_of_p[zus_idx]]
            if redo.any():
                # From scratch: rated players at R0 or Rh (the first ratings of pass 1 are not used).
                v2, u2 = first_ctx.run(entry2, redo)
                values = np.where(redo, v2, values)
                used = np.where(redo, u2, used)
                first = _map_first(values, b.classic_t[t_of_p[zus_idx]])
                entry2[zus_idx] = first
        changed = entry2 != entry
        again = np.zeros(size, dtype=bool)
        again[c_owner[changed[c_opp]]] = True
        again = np.flatnonzero(again & rated & (n_c >= min_games))
        if again.size:
            perf[again] = _performances(again, entry2, n_c, w_c, c_start, c_opp)
        entry = entry2

    # Rated players (spec §4, §5): We, E or K, Rn; level for everybody evaluated.
    p_games = _p_of(r0[c_owner] - entry[c_opp])
    expected = _segment_sum(p_games, c_owner, size)
    level_sum = _segment_sum(entry[c_opp].astype(np.float64), c_owner, size)
    level = _rhu_div(level_sum, np.maximum(n_c, 1))
    takeover = b.takeover
    index_old = np.where(takeover, common.takeover_index_shown, b.index_in)
    index_used = np.where(takeover, common.takeover_index_used, index_old)
    age = b.age
    # 0 youth, 1 junior, 2 adult; no birth year is parsed as a huge age (adult).
    cls = np.where(age > common.junior_max_age, 2, np.where(age > common.youth_max_age, 1, 0))
    classic_p = b.classic_t[t_of_p]
    if classic_p.all():
        coef, rn = _classic(r0, cls, index_used, w_c, expected, n_c)
    elif not classic_p.any():
        coef, rn = _wo2026(r0, cls, index_used, w_c, expected)
    else:
        e, rn_classic = _classic(r0, cls, index_used, w_c, expected, n_c)
        k, rn_wo = _wo2026(r0, cls, index_used, w_c, expected)
        coef = np.where(classic_p, e, k)
        rn = np.where(classic_p, rn_classic, rn_wo)
    index_new = np.where(takeover, common.takeover_index_after, index_old + 1)

    # First players (spec §6.9): n, W incl. Restpartien, expected against the last round's opponents.
    first_exp = np.zeros(0, dtype=_I64)
    if zus_idx.size:
        first_exp = first_ctx.expected(values, used, entry)

    return _assemble(
        b, zus_idx, values, first, first_exp, entry, stage1, auswahl1, n_c, w_c, rp_n, rp_w, expected,
        level, perf, coef, rn, index_old, index_new, owner, opp, score,
    )  # fmt: skip


def _performances(players, entry, n_c, w_c, c_start, c_opp) -> np.ndarray:
    """Performance of rated players with n >= 5 (spec §7.3), with the fictitious draw at 0 % / 100 %."""
    n = n_c[players]
    w = w_c[players]
    starts = c_start[players]
    total = int(n.sum())
    # Entries of each player's counted games in order (one contiguous run per player).
    run_start = np.cumsum(n) - n
    pos = np.arange(total) - np.repeat(run_start - starts, n)
    opp = entry[c_opp[pos]]
    owner = np.repeat(np.arange(len(players)), n)
    extreme = (w == 0) | (w == 1000 * n)
    if extreme.any():
        sums = np.bincount(owner, weights=opp, minlength=len(players)).astype(_I64)
        lvl = _rhu_div(sums, n)
        ext = np.flatnonzero(extreme)
        # Append one draw against the level after each such player's games.
        at = (run_start + n)[ext]
        opp = np.insert(opp, at, lvl[ext])
        owner = np.insert(owner, at, ext)
        n = n + extreme
        w = w + 500 * extreme
        run_start = np.cumsum(n) - n
    return solve_many(opp, owner, run_start, n, w)


class _FirstContext:
    """Start values and the Jacobi iteration (spec §6.4-6.5) for all Zusatzstufe players of the batch."""

    def __init__(self, b, zus_idx, stage1, stage2, owner, opp, score, c_owner, c_opp, c_score, rp_n, rp_w):
        self.b = b
        self.zus_idx = zus_idx
        if not zus_idx.size:
            return
        size = b.size
        rated = b.rated
        self.local = np.full(size, -1, dtype=_I64)
        self.local[zus_idx] = np.arange(zus_idx.size)
        self.stage1, self.stage2 = stage1, stage2
        # Start-value games: stage 1 against rated players, stage 2 against Auswahl I (played games).
        m1 = stage1[owner] & rated[opp]
        self.s1_owner, self.s1_opp = owner[m1], opp[m1]
        self.s1_w = np.bincount(self.s1_owner, weights=score[m1], minlength=size).astype(_I64)
        auswahl1 = rated | stage1
        m2 = stage2[owner] & auswahl1[opp]
        self.s2_owner, self.s2_opp = owner[m2], opp[m2]
        self.s2_w = np.bincount(self.s2_owner, weights=score[m2], minlength=size).astype(_I64)
        self.rp_n, self.rp_w = rp_n, rp_w
        rp_sum = np.bincount(b.rp_owner, weights=b.rp_rating, minlength=size).astype(_I64)
        self.rp_sum = rp_sum
        # Iteration entries per Zusatzstufe player, in the scalar code's order: rated counted opponents,
        # Restpartien, then Zusatzstufe opponents (moving), each in game order.
        zc = zus_idx.size
        mz = self.local[c_owner] >= 0
        fo, fopp = c_owner[mz], c_opp[mz]
        fixed_rated = rated[fopp]
        rp_o = b.rp_owner
        rp_z = self.local[rp_o] >= 0
        groups = [
            (self.local[fo[fixed_rated]], 0, fopp[fixed_rated], np.zeros(int(fixed_rated.sum()), dtype=bool)),
            (self.local[rp_o[rp_z]], 1, b.rp_rating[rp_z], np.zeros(int(rp_z.sum()), dtype=bool)),
            (
                self.local[fo[~fixed_rated]],
                2,
                fopp[~fixed_rated],
                np.ones(int((~fixed_rated).sum()), dtype=bool),
            ),
        ]
        prob = np.concatenate([g[0] for g in groups])
        key = prob * 3 + np.concatenate([np.full(len(g[0]), g[1], dtype=_I64) for g in groups])
        srt = np.argsort(key, kind="stable")
        self.e_prob = prob[srt]
        self.e_val = np.concatenate([g[2] for g in groups])[srt]  # player position (counted) or rating (rp)
        self.e_kind = np.concatenate([np.full(len(g[0]), g[1], dtype=_I64) for g in groups])[srt]
        self.e_moving = np.concatenate([g[3] for g in groups])[srt]
        self.e_moving_local = np.where(self.e_moving, self.local[np.where(self.e_moving, self.e_val, 0)], -1)
        self.p_n = np.bincount(self.e_prob, minlength=zc)
        self.p_w = w_zus = np.bincount(c_owner[mz], weights=c_score[mz], minlength=size).astype(_I64)
        self.p_w = (w_zus + rp_w)[zus_idx]
        self.t_of_z = b.t_of_p[zus_idx]

    def _fixed_ratings(self, entry: np.ndarray) -> np.ndarray:
        """Ratings of the entries with the rated opponents at ``entry`` (moving entries: placeholder)."""
        rating = np.where(self.e_kind == 1, self.e_val, entry[np.where(self.e_kind == 1, 0, self.e_val)])
        return rating

    def _start_values(self, entry: np.ndarray, active: np.ndarray) -> np.ndarray:
        size = self.b.size
        zus_idx = self.zus_idx
        start = np.zeros(size, dtype=_I64)
        wanted = np.zeros(size, dtype=bool)
        wanted[zus_idx[active]] = True
        for stage_mask, s_owner, s_opp, s_w in (
            (self.stage1, self.s1_owner, self.s1_opp, self.s1_w),
            (self.stage2, self.s2_owner, self.s2_opp, self.s2_w),
        ):
            # Rated opponents at their entry rating, stage-1 opponents at their start values.
            ratings = np.where(self.b.rated[s_opp], entry[s_opp], start[s_opp])
            total = np.bincount(s_owner, weights=ratings, minlength=size).astype(_I64) + self.rp_sum
            n = np.bincount(s_owner, minlength=size) + self.rp_n
            w = s_w + self.rp_w
            who = np.flatnonzero(stage_mask & wanted)
            if not who.size:
                continue
            start[who] = _start_value_many(total[who], n[who], w[who])
        return start[zus_idx]

    def run(self, entry: np.ndarray, active: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(R_i, the values the last round used) for the Zusatzstufe players in ``active`` (local mask)."""
        common = COMMON
        values = self._start_values(entry, active)
        used = values.copy()
        fixed = self._fixed_ratings(entry)
        n_t = len(self.b.tournaments)
        live_t = np.zeros(n_t, dtype=bool)
        live_t[self.t_of_z[active]] = True
        for _ in range(common.iteration_cap):
            live = live_t[self.t_of_z]
            if not live.any():
                break
            probs = np.flatnonzero(live)
            ent = np.flatnonzero(live[self.e_prob])
            ratings = np.where(self.e_moving[ent], values[self.e_moving_local[ent]], fixed[ent])
            local_owner = np.searchsorted(probs, self.e_prob[ent])
            n = self.p_n[probs]
            starts = np.cumsum(n) - n
            new = solve_many(ratings, local_owner, starts, n, self.p_w[probs])
            previous = values
            values = values.copy()
            values[probs] = new
            used[probs] = previous[probs]
            changed_t = np.zeros(n_t, dtype=bool)
            changed_t[self.t_of_z[probs[new != previous[probs]]]] = True
            live_t &= changed_t
        return values, used

    def expected(self, values: np.ndarray, used: np.ndarray, entry: np.ndarray) -> np.ndarray:
        """Σ p(R_i - opponent) over the last round's opponents, incl. Restpartien (spec §6.9)."""
        fixed = self._fixed_ratings(entry)
        ratings = np.where(self.e_moving, used[np.maximum(self.e_moving_local, 0)], fixed)
        p = _p_of(values[self.e_prob] - ratings)
        return _segment_sum(p, self.e_prob, self.zus_idx.size)


def _start_value_many(total: np.ndarray, n: np.ndarray, w: np.ndarray) -> np.ndarray:
    """rhu(Rc + D(W/n)) (spec §6.4), Rc = total/n exactly; the scalar formula decides near a .5 boundary."""
    with np.errstate(all="ignore"):
        x = total / n + _SIGMA * ndtri(w / (1000.0 * n))
    out = np.floor(np.abs(x) + 0.5) * np.sign(x)
    frac = np.abs(x) - np.floor(np.abs(x))
    close = (np.abs(frac - 0.5) < _EPS) | ~np.isfinite(x)
    out = np.nan_to_num(out).astype(_I64)
    for k in np.flatnonzero(close).tolist():
        tk, nk, wk = int(total[k]), int(n[k]), int(w[k])
        out[k] = rhu(Fraction(tk, nk) + Fraction(rating_difference_for(wk / (1000 * nk))))
    return out


def _assemble(
    b, zus_idx, values, first, first_exp, entry, stage1, auswahl1, n_c, w_c, rp_n, rp_w, expected,
    level, perf, coef, rn, index_old, index_new, owner, opp, score,
) -> list[TournamentResult]:  # fmt: skip
    size = b.size
    rated = b.rated
    status = np.where(rated, np.where(n_c > 0, 0, 1), 3)
    status[zus_idx] = 2
    # not_rated players hand back their games against Auswahl I (spec §6.10), in input game order.
    back = (status[owner] == 3) & auswahl1[opp]
    back_owner = owner[back].tolist()
    back_rating = entry[opp[back]].tolist()
    back_score = score[back].tolist()
    handed: dict[int, list[tuple[int, int]]] = {}
    for o, r, s in zip(back_owner, back_rating, back_score, strict=True):
        handed.setdefault(o, []).append((r, s))

    ids = b.ids
    st = status.tolist()
    r0 = b.r0.tolist()
    io = index_old.tolist()
    inew = index_new.tolist()
    nn = n_c.tolist()
    ww = w_c.tolist()
    ex = expected.tolist()
    lv = level.tolist()
    pf = perf.tolist()
    cf = coef.tolist()
    rnl = rn.tolist()
    to = b.takeover.tolist()
    classic_t = b.classic_t.tolist()
    t_of_p = b.t_of_p.tolist()
    k_dec = WO2026.wo2026.k_decimals  # type: ignore[union-attr]
    min_games = COMMON.min_games
    first_index = COMMON.first_rating_index
    zl = zus_idx.tolist()
    zpos = {p: k for k, p in enumerate(zl)}
    zn = (n_c[zus_idx] + rp_n[zus_idx]).tolist()
    zw = (w_c[zus_idx] + rp_w[zus_idx]).tolist()
    zv = values.tolist()
    zf = first.tolist()
    en = entry.tolist()
    ze = first_exp.tolist()
    make = _make_result
    dec_e, dec_k = _decimals(0), _decimals(k_dec)
    out_players: list[PlayerResult] = []
    append = out_players.append
    for i in range(size):
        s = st[i]
        if s == 0:
            n = nn[i]
            c = cf[i]
            append(
                make(
                    ids[i], "rated", r0[i], io[i], n, ww[i], ex[i],
                    (dec_e.get(c) or _new_decimal(dec_e, c, 0))
                    if classic_t[t_of_p[i]]
                    else (dec_k.get(c) or _new_decimal(dec_k, c, k_dec)),
                    lv[i], pf[i] if n >= min_games else None, rnl[i], inew[i], (), to[i], en[i],
                )
            )  # fmt: skip
        elif s == 1:
            append(
                make(
                    ids[i], "rated", r0[i], io[i], 0, 0, None, None, None, None, r0[i], io[i], (), to[i],
                    r0[i],
                )
            )  # fmt: skip
        elif s == 2:
            k = zpos[i]
            append(
                make(
                    ids[i], "first", None, None, zn[k], zw[k], ze[k], None, lv[i], zv[k], zf[k], first_index,
                    (), False, zf[k],
                )
            )  # fmt: skip
        else:
            got = handed.get(i)
            if got:
                end = b.tournaments[t_of_p[i]].end_date
                rps = tuple(Restpartie(r, sc, end) for r, sc in got)
            else:
                rps = ()
            append(
                make(
                    ids[i], "not_rated", None, None, 0, 0, None, None, None, None, None, None, rps, False,
                    None,
                )
            )  # fmt: skip
    results = []
    offsets = b.offsets
    for t_no, edition in enumerate(b.editions):
        results.append(
            TournamentResult(
                edition=edition.name.value, players=tuple(out_players[offsets[t_no] : offsets[t_no + 1]])
            )
        )
    return results
