"""Lean pure-Python evaluation of one tournament (same results as ``reference_impl``, spec §8).

``evaluate`` of a single small or medium tournament pays more for numpy's per-call overhead in ``fast.py``
than for the arithmetic itself, so this path does the same steps with plain lists and ints:

* one pass over the games builds each player's opponents and scores (input game order, forfeits dropped);
  counted games differ from them only around players outside Auswahl II;
* p, the unrounded P and a packed table (slope, f at R - 1 / R / R + 1 and the rounding errors 1000 P - p at
  the same points, in one int per D) are lists indexed by ``D + _H``; entry ratings, iteration values and
  Restpartien are checked to lie in a range for which no lookup ever leaves the tables;
* every search of §7.1 (``_solve_in``) brackets R* (the first R with f(R) >= W, which does not depend on how
  it is found) by safeguarded Newton steps from R0 (whose pass also gives We), from an earlier answer or
  from the normal approximation, one packed pass per step; the tie rule is decided by the packed sums of
  the unrounded P where they are clearly (by more than their error bound) on one side, otherwise by the
  float sums computed exactly as ``performance.solve`` computes them (same terms, same order); plateaus are
  searched exactly as ``performance.solve`` / ``solve_reference`` search them;
* E / K are integer arithmetic (SBr from the reference formula, cached) kept in tables by (R0, age class,
  clamped index, W >= We); Rn, level and first ratings are integers with exact half-up rounding;
* the Jacobi rounds re-solve only players whose moving opponents changed; the Ausnahmespieler second pass
  recomputes only what can change (as ``fast.py`` does).

Anything unusual (a rating outside 0-3000, a non-int number, an unknown player in a played game, more than
_MAX_N games of one player, an iteration value outside the table range) raises ``_Unsupported`` and the
caller takes the batch path, which falls back to the reference and raises the reference's errors for
malformed input. tests/dwz/test_single_path.py compares this path and its pieces with the reference.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from operator import attrgetter

from .editions import CLASSIC, COMMON, WO2026, edition_for
from .expectation import expected_score, rating_difference_for, win_probability
from .fast import _make_result
from .first_rating import map_first_rating, restpartie_valid
from .performance import solve
from .rounding import rhu, rhu_div
from .types import Restpartie, TournamentInput, TournamentResult

# p(D) (thousandths) and the unrounded P(D) for D = -_H.._H, read at index D + _H.
_H = 10_600
_P: list[int] = [expected_score(d) for d in range(-_H, _H + 1)]
_WP: list[float] = [win_probability(d) for d in range(-_H, _H + 1)]
# Entry ratings, iteration values and Restpartien must lie in this range, so that every difference the
# searches meet (R within the search margin of the opponents, plus one) fits the tables.
_LOW, _HIGH = -3000, 6000
_MARGIN = COMMON.search_margin
_A = _LOW - _MARGIN + _H
_B = _HIGH + _MARGIN + _H
assert _B + 1 - _LOW <= 2 * _H and _A - 1 - _HIGH >= 0
_RATING_MAX = 3000

_PLAYED = {"1-0": 1000, "0-1": 0, "1/2-1/2": 500}
_get_player = attrgetter("id", "dwz", "fide_elo", "index", "birth_year", "restpartien")
_get_game = attrgetter("white", "black", "result")
_EPS = 1e-6
# The packed table of ``_solve``: one int per D holding
#   bits   0- 31  2**20 * 1000 dP/dD (the density, < 1.42 per point), for the Newton steps;
#   bits  32- 91  p(D - 1), p(D), p(D + 1) in 20-bit fields;
#   bits  92-193  e(D - 1), e(D), e(D + 1) in 34-bit fields, e = 1000 P - p (|e| <= 1/2) in units of 2**-24,
#                 offset by 2**23 so that it is never negative,
# so that one pass over the opponents sums the slope, f and the unrounded sum S = f + sum(e) (to within
# n / 2 units) at R - 1, R, R + 1. Exact while n <= _MAX_N (1000 n < 2**20, n * 2**24 < 2**34 and the
# density sum < 2**32); the ends are clamped, where p and P are saturated anyway.
_SIGMA2 = (COMMON.erf_divisor / math.sqrt(2)) ** 2
_INV_SIGMA2 = 1.0 / _SIGMA2
_MAX_N = 1000
_M20 = (1 << 20) - 1
_M32 = (1 << 32) - 1
_M34 = (1 << 34) - 1
_E_UNITS = 24
_LAST = 2 * _H


def _density(d: int) -> int:
    x = d / COMMON.erf_divisor
    return int(2**20 * 1000.0 * math.exp(-x * x) / (COMMON.erf_divisor * math.sqrt(math.pi)) + 0.5)


def _error(k: int) -> int:
    """(1000 P - p) at table index k in units of 2**-24, offset by 2**23 (the float error is < 1e-12)."""
    return math.floor((1000.0 * _WP[k] - _P[k]) * 2**_E_UNITS + 0.5) + 2 ** (_E_UNITS - 1)


def _packed_table() -> list[int]:
    p = [_P[0], *_P, _P[_LAST]]  # clamped at both ends, where p and P are saturated
    e = [_error(0), *map(_error, range(_LAST + 1)), _error(_LAST)]
    assert all(0 <= x <= 2**_E_UNITS for x in e)
    return [
        _density(k - _H)
        | p[k] << 32
        | p[k + 1] << 52
        | p[k + 2] << 72
        | e[k] << 92
        | e[k + 1] << 126
        | e[k + 2] << 160
        for k in range(_LAST + 1)
    ]


_K: list[int] = _packed_table()
assert _P[0] == 0 and _P[_LAST] == 1000 and _WP[0] == 0.0 and _WP[_LAST] == 1.0
_NEWTON_STEPS = 8  # then bisection: the bracket at least halves at every further step


class _Unsupported(Exception):
    """Input this path does not take; the caller evaluates it on the batch path (and its fallbacks)."""


# ---------------------------------------------------------------------------------------------- solve

_D_CACHE: dict[tuple[int, int], float] = {}


def _difference(w: int, n: int) -> float:
    """D(W/n) of the normal approximation, cached (W and n take few values)."""
    d = _D_CACHE.get((w, n))
    if d is None:
        d = _D_CACHE[(w, n)] = rating_difference_for(w / (1000 * n))
    return d


def _f(r: int, opps: list[int]) -> int:
    """f(R) in thousandths, with R given as R + _H."""
    p = _P
    return sum([p[r - o] for o in opps])


def _s(r: int, opps: list[int]) -> float:
    """The unrounded sum of ``performance.unrounded_sum`` (same terms, same order, same float result)."""
    wp = _WP
    return 1000.0 * sum([wp[r - o] for o in opps])


def _solve(opps: list[int], w: int, hint: int | None = None, t: int | None = None) -> int:
    """``performance.solve(opps, w)`` for any opponents: ``_solve_in`` when they lie in the table range."""
    if not opps or min(opps) < _LOW or max(opps) > _HIGH:
        return solve(opps, w)
    return _solve_in(opps, w, hint, t)


def _solve_in(opps: list[int], w: int, hint: int | None = None, t: int | None = None) -> int:
    """``performance.solve(opps, w)`` (spec §7.1) for 0 < W < 1000 n and opponents in _LOW.._HIGH, with the
    same float decisions.

    R* (the first R with f(R) >= W) does not depend on how it is found: here by safeguarded Newton steps on
    f inside a shrinking bracket, each step one pass over the packed table (f at three points and the slope
    at once). The first point is ``hint`` (R0, or a nearby earlier answer; ``t`` is the packed-table sum
    there if the caller has it) or else the normal approximation widened by the opponents' spread.
    """
    n = len(opps)
    if n > _MAX_N:
        return solve(opps, w)
    # Work with R + _H so that the table index is simply (R + _H) - opponent. The bracket starts at bounds
    # valid for any opponents in range: f(a) = 0 < W and f(b) = 1000 n >= W (the margin exceeds the
    # saturation of p).
    a = _A
    b = _B
    fa = 0
    fb = 1000 * n
    if hint is None:
        d = _D_CACHE.get((w, n))
        if d is None:
            d = _difference(w, n)
        mean = sum(opps) / n
        var = sum([o * o for o in opps]) / n - mean * mean
        r = int(mean + d * math.sqrt(1.0 + var * _INV_SIGMA2) if var > 0.0 else mean + d) + _H
        t = None
    else:
        r = hint + _H
    if r <= a:
        r = a + 1
        t = None
    elif r >= b:
        r = b - 1
        t = None
    k = _K
    if t is None:
        t = sum([k[r - o] for o in opps])
    # Bracket f(a) < W <= f(b) with r strictly inside; each pass also settles R* if it is r or r + 1.
    # ta / tb: the packed sum in which a / b was seen, sa / sb: the shift of its e field (None: not seen).
    ta = tb = sa = sb = None
    steps = 0
    while True:
        f0 = (t >> 52) & _M20
        if f0 >= w:
            fm = (t >> 32) & _M20
            if fm < w:
                a, fa, ta, sa, b, fb, tb, sb = r - 1, fm, t, 92, r, f0, t, 126
                break
            b, fb, tb, sb = r - 1, fm, t, 92
        else:
            fp = (t >> 72) & _M20
            if fp >= w:
                a, fa, ta, sa, b, fb, tb, sb = r, f0, t, 126, r + 1, fp, t, 160
                break
            a, fa, ta, sa = r + 1, fp, t, 160
        if b - a == 1:
            break
        steps += 1
        slope = t & _M32
        # Newton: floor of R + (W - f) / f' (R* is then mostly this point or the next); outside the bracket,
        # or without slope, interpolation between the bracket ends; bisection if it ever takes long.
        nxt = r + (((w - f0) << 20) // slope) if slope else a
        if steps > _NEWTON_STEPS:
            nxt = (a + b) >> 1
        elif nxt <= a or nxt >= b:
            nxt = a + (w - fa) * (b - a) // (fb - fa)
            if nxt <= a:
                nxt = a + 1
            elif nxt >= b:
                nxt = b - 1
        r = nxt
        t = sum([k[r - o] for o in opps])
    # R* = b; f(R* - 1) = fa, f(R*) = fb. The tie rule exactly as ``performance.solve`` decides it, on the
    # float sums S(R* - 1) / S(R*) of the reference. The packed sums give S to within n/2 units of 2**-24
    # (plus float rounding far below one unit), so where they are clearly on one side of W they decide;
    # otherwise the float sums are computed as the reference computes them.
    d_below = w - fa
    d_at = fb - w
    wp = _WP
    if d_below < d_at:
        if ta is not None:
            # S(R* - 1) - W in units of 2**-24, to within n/2 + 1
            x = (-d_below << _E_UNITS) + ((ta >> sa) & _M34) - (n << (_E_UNITS - 1))
            if x < -n - 16:
                return a - _H
            if x > n + 16:
                ta = False  # S(R* - 1) > W: the plateau search below
        if ta is not False and 1000.0 * sum([wp[a - o] for o in opps]) <= w:
            return a - _H
    elif d_at < d_below:
        if tb is not None:
            x = (d_at << _E_UNITS) + ((tb >> sb) & _M34) - (n << (_E_UNITS - 1))  # S(R*) - W in units
            if x > n + 16:
                return b - _H
            if x < -n - 16:
                tb = False
        if tb is not False and 1000.0 * sum([wp[b - o] for o in opps]) >= w:
            return b - _H
    else:
        if ta is not None and tb is not None:
            half = n << (_E_UNITS - 1)
            xa = (-d_below << _E_UNITS) + ((ta >> sa) & _M34) - half  # S(R* - 1) - W
            xb = (d_at << _E_UNITS) + ((tb >> sb) & _M34) - half  # S(R*) - W
            if xa < -n - 16 and xb > n + 16:
                # S(R* - 1) < W < S(R*): the nearer one, the larger R on equal distances.
                if xa + xb < -2 * n - 32:
                    return b - _H
                if xa + xb > 2 * n + 32:
                    return a - _H
        s_below = 1000.0 * sum([wp[a - o] for o in opps])
        s_at = 1000.0 * sum([wp[b - o] for o in opps])
        if s_below <= w <= s_at:
            return b - _H if s_at - w <= w - s_below else a - _H
    # The unrounded root lies beyond R* - 1 or R*, on a plateau of f: the best point of the plateau(s),
    # exactly as ``performance.solve`` / ``solve_reference`` find it.
    # The reference's search bounds, where the plateaus of 0 and 1000 n end.
    lo_b = min(opps) - _MARGIN + _H
    hi_b = max(opps) + _MARGIN + _H
    candidates: list[tuple[float, int]] = []
    if d_below <= d_at:
        if fa == 0:
            start = lo_b  # f is 0 all the way down; the reference stops at its search bound
        else:
            # First R with f(R) >= f(R* - 1): gallop down from R* - 1, then bisect.
            top, step = a, 1
            while True:
                bottom = top - step
                if bottom <= lo_b:
                    bottom = lo_b
                    break
                if _f(bottom, opps) < fa:
                    break
                top = bottom
                step += step
            while top - bottom > 1:
                mid = (top + bottom) >> 1
                if _f(mid, opps) >= fa:
                    top = mid
                else:
                    bottom = mid
            start = top
        if start == a and d_below < d_at:
            return a - _H  # the plateau is R* - 1 alone and the only candidate
        candidates.append(_best_in_plateau(start, a, opps, w))
    if d_at <= d_below:
        if fb == 1000 * n:
            end = hi_b
        else:
            # Last R with f(R) <= f(R*): gallop up from R*, then bisect.
            bottom, step = b, 1
            while True:
                top = bottom + step
                if top >= hi_b:
                    top = hi_b
                    break
                if _f(top, opps) > fb:
                    break
                bottom = top
                step += step
            while top - bottom > 1:
                mid = (top + bottom) >> 1
                if _f(mid, opps) > fb:
                    top = mid
                else:
                    bottom = mid
            end = bottom
        if end == b and d_at < d_below:
            return b - _H  # the plateau is R* alone and the only candidate
        candidates.append(_best_in_plateau(b, end, opps, w))
    return min(candidates, key=lambda x: (x[0], -x[1]))[1] - _H


def _best_in_plateau(start: int, end: int, opps: list[int], w: int) -> tuple[float, int]:
    """``performance._best_in_plateau`` on the tables (R + _H): the same bisection, the same float sums."""
    s0 = _s(start, opps)
    if s0 >= w:
        return (s0 - w, start)
    s1 = _s(end, opps)
    if s1 <= w:
        return (w - s1, end)
    lo, hi = start, end
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _s(mid, opps) >= w:
            hi = mid
        else:
            lo = mid
    below, above = w - _s(hi - 1, opps), _s(hi, opps) - w
    return (above, hi) if above <= below else (below, hi - 1)


# ---------------------------------------------------------------------------------------------- caches

_FIRST_CACHE: dict[tuple[int, bool], int] = {}
_CLASSIC = CLASSIC.classic
_WO = WO2026.wo2026
assert _CLASSIC is not None and _WO is not None
_E_J = (_CLASSIC.j_youth, _CLASSIC.j_junior, _CLASSIC.j_adult)  # age class 0 youth, 1 junior, 2 adult
_E_UNIT = 10**12  # E0 = R0**4 / 10**12 + J
_FB_MIN, _FB_MAX, _FB_DIV = _CLASSIC.fb_min, _CLASSIC.fb_max, _CLASSIC.fb_divisor
_SBR_CACHE: dict[tuple[int, int], tuple[int, bool]] = {}
_DECIMAL_E: dict[int, Decimal] = {}
_DECIMAL_K: dict[int, Decimal] = {}
# classic E depends on the index only through min(e_max, e_per_index * index): not at all at and above
# e_max / e_per_index, nor below 1 (the cap is then <= 0 and e_min wins).
_E_INDEX_TOP = -(-_CLASSIC.e_max // _CLASSIC.e_per_index)
# E and K by (R0, age class, clamped index, W >= We), filled on first use (0: not yet computed).
_E_TABLE = [0] * ((_RATING_MAX + 1) * 3 * (_E_INDEX_TOP + 1) * 2)
_K0 = (_WO.k0_a, _WO.k0_b, _WO.k0_c)
_K_COLUMNS = len(_WO.k0_a)
assert len(_WO.k0_b) == len(_WO.k0_c) == _K_COLUMNS
_K_SCALE = 10**_WO.k_decimals
_K_LOW, _K_HIGH = _WO.k_min * _K_SCALE, _WO.k_max * _K_SCALE
_K_TABLE = [0] * ((_RATING_MAX + 1) * 3 * _K_COLUMNS * 2)
assert _CLASSIC.e_min > 0 and _K_LOW > 0


def _sbr(r0: int, cls: int) -> tuple[int, bool]:
    """(rhu(E0 + SBr), SBr > 0) for R0 < sbr_below with the reference formula (needs math.exp), cached."""
    got = _SBR_CACHE.get((r0, cls))
    if got is None:
        c = _CLASSIC
        sbr = Fraction(math.exp((c.sbr_below - r0) / c.sbr_scale)) - 1
        got = _SBR_CACHE[(r0, cls)] = (rhu(Fraction(r0**4, _E_UNIT) + _E_J[cls] + sbr), sbr > 0)
    return got


def _classic_e(r0: int, cls: int, index: int, ge: bool) -> int:
    """``development.classic_e`` in integers (W and We enter it only through W >= We)."""
    c = _CLASSIC
    cap = None
    if cls == 0 and ge:
        # fB = min(max(R0 / divisor, fb_min), fb_max) as a fraction fn / fd.
        if r0 * _FB_MIN.denominator < _FB_MIN.numerator * _FB_DIV:
            fn, fd = _FB_MIN.numerator, _FB_MIN.denominator
        elif r0 * _FB_MAX.denominator > _FB_MAX.numerator * _FB_DIV:
            fn, fd = _FB_MAX.numerator, _FB_MAX.denominator
        else:
            fn, fd = r0, _FB_DIV
        e = rhu_div((r0**4 + _E_J[cls] * _E_UNIT) * fn, _E_UNIT * fd)
    elif r0 < c.sbr_below and not ge:
        e, positive = _sbr(r0, cls)
        if positive:
            cap = c.e_max_sbr
    else:
        e = rhu_div(r0**4 + _E_J[cls] * _E_UNIT, _E_UNIT)
    if cap is None:
        cap = c.e_per_index * index
        if cap > c.e_max:
            cap = c.e_max
    if e > cap:
        e = cap
    return e if e > c.e_min else c.e_min


def _wo2026_k(r0: int, cls: int, index: int, ge: bool) -> int:
    """``development.wo2026_k`` in integers, K in 10**-k_decimals (W, We enter only through W >= We)."""
    w = _WO
    if cls != 2 and r0 < w.group_a_below:
        row = 0
    elif cls == 2 and r0 < w.group_b_below:
        row = 1
    else:
        row = 2
    k0 = _K0[row][(index if index < _K_COLUMNS else _K_COLUMNS) - 1 if index > 1 else 0]
    if not ge:
        k = rhu_div(_K_SCALE * k0 * (r0 + w.u), w.b_below + w.u) if r0 < w.b_below else _K_SCALE * k0
    elif cls == 0:
        if r0 < w.a_youth_below:
            k = rhu_div(_K_SCALE * (k0 * w.t + w.a_youth_below - r0), w.t)
        else:
            k = _K_SCALE * k0
    elif r0 < w.a_other_below:
        k = _K_SCALE * (k0 + (w.a1 if cls == 1 else w.a2))
    else:
        k = _K_SCALE * k0
    return _K_LOW if k < _K_LOW else _K_HIGH if k > _K_HIGH else k


def _first_rating(value: int, classic: bool) -> int:
    got = _FIRST_CACHE.get((value, classic))
    if got is None:
        got = _FIRST_CACHE[(value, classic)] = map_first_rating(value, CLASSIC if classic else WO2026)
    return got


def _start_value(total: int, n: int, w: int) -> int:
    """rhu(total / n + D(W/n)) exactly (``first_rating.start_value``): the float sum decides unless it is
    within 1e-6 of a .5 boundary, where the exact Fractions do."""
    x = total / n + _difference(w, n)
    fl = math.floor(x)
    frac = x - fl
    if abs(frac - 0.5) < _EPS:
        return rhu(Fraction(total, n) + Fraction(_difference(w, n)))
    return fl + 1 if frac > 0.5 else fl


# ---------------------------------------------------------------------------------------------- evaluate


def _check_entry(value: int) -> int:
    if not _LOW <= value <= _HIGH:
        raise _Unsupported
    return value


def evaluate_single(t: TournamentInput) -> TournamentResult:
    """Evaluate one tournament (spec §8) with plain Python; raises ``_Unsupported`` for unusual input."""
    end = t.end_date
    edition = edition_for(end)
    if edition is CLASSIC:
        classic = True
    elif edition is WO2026:
        classic = False
    else:
        raise _Unsupported
    common = COMMON
    min_games = common.min_games
    year = end.year
    rows = list(map(_get_player, t.players))
    m = len(rows)
    pos = {row[0]: i for i, row in enumerate(rows)}  # later duplicates of an id win, as in the reference
    r0: list = [None] * m
    takeover = [False] * m
    unrated: list[int] = []
    for i, row in enumerate(rows):
        dwz = row[1]
        if dwz is None:
            dwz = row[2]
            if dwz is None:
                unrated.append(i)
                continue
            takeover[i] = True
        if type(dwz) is not int or not 0 <= dwz <= _RATING_MAX:
            raise _Unsupported
        r0[i] = dwz

    # Played games per player in input game order.
    opps: list[list[int]] = [[] for _ in range(m)]
    scores: list[list[int]] = [[] for _ in range(m)]
    played = _PLAYED.get
    getpos = pos.get
    for white, black, result in map(_get_game, t.games):
        s = played(result)
        if s is None:
            continue
        wi = getpos(white)
        bi = getpos(black)
        if wi is None or bi is None:
            raise _Unsupported  # a played game with an unknown player: the reference raises
        opps[wi].append(bi)
        scores[wi].append(s)
        opps[bi].append(wi)
        scores[bi].append(1000 - s)

    # Restpartien (spec §6.1) and Zusatzstufen (spec §6.2/6.3).
    in1 = [x is not None for x in r0]  # Auswahl I (rated + stage 1)
    rated = in1[:]
    rps: dict[int, list[Restpartie]] = {}
    stage1: list[int] = []
    stage2: list[int] = []
    rp_w: dict[int, int] = {}
    if unrated:
        years = common.restpartien_years
        for i in unrated:
            valid = [rp for rp in rows[i][5] if restpartie_valid(rp, end, years)]
            for rp in valid:
                if type(rp.opponent_rating) is not int or not 0 <= rp.opponent_rating <= _RATING_MAX:
                    raise _Unsupported
                if type(rp.score) is not int or rp.score not in (0, 500, 1000):
                    raise _Unsupported
            rps[i] = valid
            rp_w[i] = sum(rp.score for rp in valid)

        def qualifies(i: int, pool: list[bool]) -> bool:
            games = 0
            w = rp_w[i]
            for o, s in zip(opps[i], scores[i], strict=True):
                if pool[o]:
                    games += 1
                    w += s
            n = games + len(rps[i])
            return n >= min_games and 0 < w < 1000 * n and games >= 1

        stage1 = [i for i in unrated if qualifies(i, rated)]
        for i in stage1:
            in1[i] = True
        stage2 = [i for i in unrated if not in1[i] and qualifies(i, in1)]
    in2 = in1[:]  # Auswahl II
    for i in stage2:
        in2[i] = True
    zus = stage1 + stage2

    # Counted games (both players in Auswahl II, spec §3), n and W: only players outside Auswahl II and
    # their opponents differ from the played games.
    c_opps = opps[:]
    c_w = [sum(x) for x in scores]
    outside = [i for i in range(m) if not in2[i]]
    if outside:
        touched: set[int] = set()
        for j in outside:
            touched.update(opps[j])
            c_opps[j] = []
            c_w[j] = 0
        for i in touched:
            if in2[i]:
                mine = [(o, s) for o, s in zip(opps[i], scores[i], strict=True) if in2[o]]
                c_opps[i] = [o for o, _ in mine]
                c_w[i] = sum([s for _, s in mine])

    # Pass 1: every rated player enters at R0.
    entry = r0[:]
    values: dict[int, int] = {}
    used: dict[int, int] = {}
    first: dict[int, int] = {}
    if zus:
        values, used, first = _first_ratings(
            entry, stage1, stage2, rated, in1, opps, scores, c_opps, c_w, rps, rp_w, classic
        )
        for i, v in first.items():
            entry[i] = _check_entry(v)
    perf_players = [i for i in range(m) if rated[i] and len(c_opps[i]) >= min_games]
    perf: list = [None] * m
    # We and the sum of the opponents' entry ratings, kept from the performance search while entries stay.
    we: list = [None] * m
    total = [0] * m
    k_table = _K
    for i in perf_players:
        oe = [entry[o] for o in c_opps[i]]
        n = len(oe)
        w = c_w[i]
        if n > _MAX_N:
            raise _Unsupported
        total[i] = s = sum(oe)
        # One pass at R0 gives We = f(R0) and the start of the search (Newton step from R0).
        rh = r0[i] + _H
        packed = sum([k_table[rh - e] for e in oe])
        we[i] = (packed >> 52) & _M20
        if w == 0 or w == 1000 * n:
            # 0 % / 100 %: a fictitious draw against the level (spec §7.3).
            oe.append((2 * s + n) // (2 * n) if s >= 0 else rhu_div(s, n))
            perf[i] = _solve_in(oe, w + 500)
        else:
            perf[i] = _solve_in(oe, w, r0[i], packed)

    if perf_players and end >= common.ausnahme_from:
        margin = common.ausnahme_margin
        ausnahme = [i for i in perf_players if perf[i] > r0[i] + margin]
        if ausnahme:
            # One test only; then everything that can change is computed again from the new entries.
            entry2 = r0[:]
            is_aus = [False] * m
            for i in ausnahme:
                entry2[i] = _check_entry(perf[i])
                is_aus[i] = True
            if zus:
                if any(is_aus[o] for i in zus for o in c_opps[i]):
                    values, used, first = _first_ratings(
                        entry2, stage1, stage2, rated, in1, opps, scores, c_opps, c_w, rps, rp_w, classic
                    )
                for i, v in first.items():
                    entry2[i] = _check_entry(v)
            # Counted games are symmetric: the players to redo are the opponents of those whose entry changed.
            redo: set[int] = set()
            for j in range(m):
                if entry[j] != entry2[j]:
                    redo.update(c_opps[j])
            for i in perf_players:
                if i in redo:
                    oe = [entry2[o] for o in c_opps[i]]
                    n = len(oe)
                    w = c_w[i]
                    we[i] = None
                    if w == 0 or w == 1000 * n:
                        oe.append(rhu_div(sum(oe), n))
                        perf[i] = _solve_in(oe, w + 500, perf[i])
                    else:
                        perf[i] = _solve_in(oe, w, perf[i])
            entry = entry2

    # Results (spec §4, §5, §6.9, §6.10).
    players = t.players
    make = _make_result
    p_table = _P
    out = []
    append = out.append
    zus_set = set(zus)
    first_index = common.first_rating_index
    youth_max, junior_max = common.youth_max_age, common.junior_max_age
    scale = _CLASSIC.scale
    floor = _WO.floor
    k_den = 1000 * _K_SCALE
    e_table = _E_TABLE
    k_cache = _K_TABLE
    for i in range(m):
        pid = rows[i][0]
        if rated[i]:
            r = r0[i]
            to = takeover[i]
            if to:
                index_old = common.takeover_index_shown
                index_used = common.takeover_index_used
                index_new = common.takeover_index_after
            else:
                index_old = rows[i][3] or 0
                if type(index_old) is not int:
                    raise _Unsupported
                index_used = index_old
                index_new = index_old + 1
            co = c_opps[i]
            n = len(co)
            if not n:
                append(
                    make(pid, "rated", r, index_old, 0, 0, None, None, None, None, r, index_old, (), to, r)
                )
                continue
            points = c_w[i]
            expected = we[i]
            if expected is None:
                oe = [entry[o] for o in co]
                rh = r + _H
                expected = sum([p_table[rh - e] for e in oe])
                s = sum(oe)
            else:
                s = total[i]
            birth = rows[i][4]
            if birth is None:
                cls = 2
            else:
                if type(birth) is not int:
                    raise _Unsupported
                age = year - birth
                cls = 2 if age > junior_max else 1 if age > youth_max else 0
            diff = points - expected
            ge = diff >= 0
            if classic:
                ix = index_used if 0 <= index_used <= _E_INDEX_TOP else 0 if index_used < 0 else _E_INDEX_TOP
                key = ((r * 3 + cls) * (_E_INDEX_TOP + 1) + ix) * 2 + ge
                e = e_table[key]
                if not e:
                    e = e_table[key] = _classic_e(r, cls, ix, ge)
                coefficient = _DECIMAL_E.get(e)
                if coefficient is None:
                    coefficient = _DECIMAL_E[e] = Decimal(e)
                den = 1000 * (e + n)
                num = r * den + scale * diff
            else:
                col = index_used if 1 <= index_used <= _K_COLUMNS else 1 if index_used < 1 else _K_COLUMNS
                key = ((r * 3 + cls) * _K_COLUMNS + col - 1) * 2 + ge
                k = k_cache[key]
                if not k:
                    k = k_cache[key] = _wo2026_k(r, cls, col, ge)
                coefficient = _DECIMAL_K.get(k)
                if coefficient is None:
                    coefficient = _DECIMAL_K[k] = Decimal(k).scaleb(-_WO.k_decimals)
                den = k_den
                num = r * den + k * diff
            rn = (2 * num + den) // (2 * den) if num >= 0 else -((den - 2 * num) // (2 * den))
            if not classic and rn < floor:
                rn = floor
            append(
                make(
                    pid, "rated", r, index_old, n, points, expected, coefficient,
                    (2 * s + n) // (2 * n) if s >= 0 else rhu_div(s, n), perf[i], rn, index_new, (), to,
                    entry[i],
                )
            )  # fmt: skip
        elif i in zus_set:
            co = c_opps[i]
            u = [entry[o] if rated[o] else used[o] for o in co]
            u += [rp.opponent_rating for rp in rps[i]]
            ri = values[i] + _H
            append(
                make(
                    pid, "first", None, None, len(u), c_w[i] + rp_w[i], sum([p_table[ri - o] for o in u]),
                    None, rhu_div(sum([entry[o] for o in co]), len(co)), values[i], first[i], first_index,
                    (), False, first[i],
                )
            )  # fmt: skip
        else:
            handed = ()
            if opps[i]:
                handed = tuple(
                    Restpartie(entry[o], s, end) for o, s in zip(opps[i], scores[i], strict=True) if in1[o]
                )
            append(
                make(
                    pid, "not_rated", None, None, 0, 0, None, None, None, None, None, None, handed, False,
                    None,
                )
            )  # fmt: skip
    assert len(out) == len(players)
    return TournamentResult(edition=edition.name.value, players=tuple(out))


def _first_ratings(entry, stage1, stage2, rated, in1, opps, scores, c_opps, c_w, rps, rp_w, classic):
    """Start values, Jacobi iteration and mapping (spec §6.4-6.7) with the rated players at ``entry``.

    Returns (R_i, the values the last round used, first ratings) keyed by player position, exactly as
    ``reference_impl._first_ratings``.
    """
    start: dict[int, int] = {}
    for stage, pool in ((stage1, rated), (stage2, in1)):
        for i in stage:
            total = 0
            n = 0
            w = rp_w[i]
            for o, s in zip(opps[i], scores[i], strict=True):
                if pool[o]:
                    total += entry[o] if rated[o] else start[o]
                    n += 1
                    w += s
            rp = rps[i]
            total += sum([x.opponent_rating for x in rp])
            n += len(rp)
            start[i] = _start_value(total, n, w)
    zus = list(start)
    problems = []
    for i in zus:
        co = c_opps[i]
        fixed = [entry[o] for o in co if rated[o]]
        fixed += [x.opponent_rating for x in rps[i]]
        moving = [o for o in co if not rated[o]]
        problems.append((i, fixed, moving, c_w[i] + rp_w[i]))
    values = start
    for v in values.values():
        _check_entry(v)
    previous = values
    changed = None  # the players whose value changed in the previous round (None: the first round)
    for _ in range(COMMON.iteration_cap):
        previous = values
        values = {}
        for i, fixed, moving, w in problems:
            if changed is not None and not any(o in changed for o in moving):
                # The same opponents' values as in the previous round, so the same result.
                values[i] = previous[i]
            else:
                values[i] = _check_entry(_solve_in(fixed + [previous[o] for o in moving], w, previous[i]))
        if values == previous:
            break
        changed = {i for i, v in values.items() if v != previous[i]}
    first = {i: _first_rating(v, classic) for i, v in values.items()}
    return values, previous, first
