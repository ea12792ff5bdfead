"""Independent reference implementation of the DWZ rules, for differential tests only.

Written from the spec (dwz-rules.md) alone, without reading the production engine. It is deliberately plain
and slow: exact ``Fraction`` arithmetic everywhere except inside erf, exp and Φ⁻¹, rounding half up by hand
(never ``round()``), plain dicts in and out (the JSON contract of spec §13).

Entry point: ``evaluate_json(data) -> dict`` (input and output as in spec §13). Comments cite spec sections.
With ``internals=True`` every player row also carries what the engine keeps beyond the contract: the entry
rating (spec §3) and whether his R0 is a FIDE take-over.
"""

from __future__ import annotations

import datetime
import math
from fractions import Fraction
from statistics import NormalDist

# --- Parameters (spec §10) ---

WO2026_FROM = datetime.date(2026, 6, 8)  # §1: classic up to and including 2026-06-07
AUSNAHME_FROM = datetime.date(2016, 8, 1)  # §7.4
AUSNAHME_MARGIN = 300
MIN_GAMES = 5  # Zusatzstufen and performance
SEARCH_MARGIN = 1500  # §7.1
ITERATION_CAP = 100  # §6.5

# classic (§4)
J_BY_CLASS = {"youth": 5, "junior": 10, "adult": 15}
E_MIN, E_PER_INDEX, E_MAX, E_MAX_SBR = 5, 5, 30, 150

# wo2026 (§5)
K0_TABLE = {
    "A": [60, 60, 48, 46, 44, 42, 40, 38, 36, 34, 32],
    "B": [60, 60, 44, 42, 40, 38, 36, 34, 32, 30, 28],
    "C": [60, 60, 41, 39, 37, 35, 33, 31, 29, 27, 25],
}
U, T, A1, A2 = 800, 30, 4, 4
K_MIN, K_MAX = 5, 80
FLOOR_2026 = 1100
FIRST_R = Fraction(8, 100)


# --- Rounding (§2) ---


def rhu(x) -> int:
    """Round half up (half away from zero) to an integer, exactly."""
    x = Fraction(x)
    if x >= 0:
        return math.floor(x + Fraction(1, 2))
    return -math.floor(-x + Fraction(1, 2))


def rhu_1(x) -> Fraction:
    """Round half up to one decimal (for K, §5)."""
    return Fraction(rhu(Fraction(x) * 10), 10)


# --- Expected score (§2) ---


def big_p(d: int) -> float:
    """Unrounded P(D) = ½·(1 + erf(D/400))."""
    return 0.5 * (1.0 + math.erf(d / 400.0))


_P_CACHE: dict[int, int] = {}


def p_thousandths(d: int) -> int:
    """p(D) = rhu(P(D), 3) in thousandths; 1000 for D >= 931, 0 for D <= -931."""
    if d >= 931:
        return 1000
    if d <= -931:
        return 0
    if d not in _P_CACHE:
        # Fraction(float) is the exact value of the double; the spec guarantees no integer D lies near a
        # rounding boundary, so this equals the exact rounding of the true P.
        _P_CACHE[d] = rhu(Fraction(big_p(d)) * 1000)
    return _P_CACHE[d]


# --- Small helpers ---


def parse_date(s: str) -> datetime.date:
    return datetime.date.fromisoformat(s)


def age_class(birth_year, end_date: datetime.date) -> str:
    """§2: age = year(end) - birth year; youth <= 20, junior 21-25, adult >= 26; no birth year = adult."""
    if birth_year is None:
        return "adult"
    age = end_date.year - int(birth_year)
    if age <= 20:
        return "youth"
    if age <= 25:
        return "junior"
    return "adult"


def note(trace: dict, key: str) -> None:
    """Count a rule branch for the coverage report of the sweep."""
    trace[key] = trace.get(key, 0) + 1


def restpartie_valid(rp_end: datetime.date, end: datetime.date) -> bool:
    """§6.1: rp.end <= end <= rp.end + 2 years, compared as tuples (29 Feb + 2 years acts as 28 Feb)."""
    played_on = (rp_end.year, rp_end.month, rp_end.day)
    expires = (rp_end.year + 2, rp_end.month, rp_end.day)
    return played_on <= (end.year, end.month, end.day) <= expires


SCORE_THOUSANDTHS = {"1-0": (1000, 0), "0-1": (0, 1000), "1/2-1/2": (500, 500)}


# --- solve (§7.1) ---


def f_rounded(r: int, opponents: list[int]) -> int:
    return sum(p_thousandths(r - o) for o in opponents)


def f_unrounded(r: int, opponents: list[int]) -> float:
    # fsum: the exact sum rounded once, whatever the order of the games
    return math.fsum(big_p(r - o) for o in opponents)


def solve(opponents: list[int], w: int) -> int:
    """The integer R minimising |Σ p(R - R_j) - W| (thousandths); ties: smaller unrounded distance, then
    the larger R. Only called with 0 < W < n."""
    n = len(opponents)
    assert 0 < w < 1000 * n, (opponents, w)
    lo, hi = min(opponents) - SEARCH_MARGIN, max(opponents) + SEARCH_MARGIN
    # first R in [lo, hi] with f(R) >= W (f is non-decreasing; f(lo) = 0 < W, f(hi) = 1000 n >= W)
    a, b = lo, hi
    while a < b:
        mid = (a + b) // 2
        if f_rounded(mid, opponents) >= w:
            b = mid
        else:
            a = mid + 1
    r_star = a
    candidates: list[int] = []
    # plateau of equal f starting at R*
    f_up = f_rounded(r_star, opponents)
    r = r_star
    while r <= hi and f_rounded(r, opponents) == f_up:
        candidates.append(r)
        r += 1
    # plateau of equal f ending at R* - 1
    f_down = f_rounded(r_star - 1, opponents)
    r = r_star - 1
    while r >= lo and f_rounded(r, opponents) == f_down:
        candidates.append(r)
        r -= 1
    best_dist = min(abs(f_rounded(c, opponents) - w) for c in candidates)
    candidates = [c for c in candidates if abs(f_rounded(c, opponents) - w) == best_dist]
    # ties: smaller |Σ P - W| unrounded, then larger R
    return min(candidates, key=lambda c: (abs(f_unrounded(c, opponents) - w / 1000.0), -c))


def mean_rhu(values: list[int]) -> int:
    return rhu(Fraction(sum(values), len(values)))


def performance_rated(opponents: list[int], w: int) -> int | None:
    """§7.3: n >= 5; at W = 0 or W = n a fictitious draw against the level."""
    n = len(opponents)
    if n < MIN_GAMES:
        return None
    if w == 0 or w == 1000 * n:
        level = mean_rhu(opponents)
        return solve([*opponents, level], w + 500)
    return solve(opponents, w)


# --- First ratings (§6) ---


def inv_d(p: Fraction) -> float:
    """D(p) = 200·√2·Φ⁻¹(p) (§6.4)."""
    return 200.0 * math.sqrt(2.0) * NormalDist().inv_cdf(float(p))


def first_ratings(ctx: dict, entry_rated: dict[str, int]) -> dict[str, dict]:  # noqa: C901, PLR0912, PLR0915 -- existing; issue 27
    """§6.4-6.7: start values, Jacobi iteration, final first rating, for all Zusatzstufe players, given the
    entry ratings of the rated players. Returns per Zusatzstufe player: R_i, first rating, last-round
    opponents (ratings) and W, n."""
    z1, z2 = ctx["z1"], ctx["z2"]
    zs = [pid for pid in ctx["order"] if pid in z1 or pid in z2]
    if not zs:
        return {}
    games = ctx["played"]  # list of (white, black, sw, sb) of played games
    rps = ctx["valid_rps"]  # pid -> list of (rating, score)

    # §6.4 start values
    start: dict[str, int] = {}
    for stage in (z1, z2):
        for pid in ctx["order"]:
            if pid not in stage:
                continue
            ratings: list[int] = []
            w = 0
            for white, black, sw, sb in games:
                if white == pid:
                    opp, s = black, sw
                elif black == pid:
                    opp, s = white, sb
                else:
                    continue
                if opp in entry_rated:
                    ratings.append(entry_rated[opp])
                elif stage is z2 and opp in z1:
                    ratings.append(start[opp])  # Zusatzstufe-1 opponents at their start values
                else:
                    continue
                w += s
            for rating, s in rps[pid]:
                ratings.append(rating)
                w += s
            rc = Fraction(sum(ratings), len(ratings))  # exact mean
            start[pid] = rhu(rc + Fraction(inv_d(Fraction(w, 1000 * len(ratings)))))

    # §6.5 Jacobi iteration
    def opponents_of(pid: str, values: dict[str, int]) -> tuple[list[int], int]:
        ratings: list[int] = []
        w = 0
        for white, black, sw, sb in games:
            if white == pid:
                opp, s = black, sw
            elif black == pid:
                opp, s = white, sb
            else:
                continue
            if opp in entry_rated:
                ratings.append(entry_rated[opp])
            elif opp in values:
                ratings.append(values[opp])
            else:
                continue  # not a counted game
            w += s
        for rating, s in rps[pid]:
            ratings.append(rating)
            w += s
        return ratings, w

    values = dict(start)
    last_inputs = dict(values)
    rounds = 0
    for _round in range(ITERATION_CAP):
        rounds += 1
        new = {}
        for pid in zs:
            ratings, w = opponents_of(pid, values)
            new[pid] = solve(ratings, w)
        last_inputs = values
        changed = new != values
        values = new
        if not changed:
            break
    ctx["trace"]["max_rounds"] = max(ctx["trace"].get("max_rounds", 0), rounds)

    out = {}
    for pid in zs:
        ri = values[pid]
        ratings, w = opponents_of(pid, last_inputs)
        out[pid] = {
            "ri": ri,
            "first": map_first(ri, ctx["edition"]),
            "expected": sum(p_thousandths(ri - o) for o in ratings),
            "n": len(ratings),
            "w": w,
        }
    return out


def map_first(ri: int, edition: str) -> int:
    """§6.7."""
    if edition == "classic":
        if ri < 800:
            return rhu(700 + Fraction(ri, 8))
        return ri
    L = Fraction(ri)
    if L >= 2000:
        x = L
    elif L >= 1100:
        x = L + FIRST_R * (2000 - L)
    else:
        x = 1100 + 9 * FIRST_R * L / 11
    return max(FLOOR_2026, rhu(x))


# --- Follow-up ratings (§4, §5) ---


def classic_e(r0: int, cls: str, index: int, w: int, we: int) -> int:
    """§4: E from E0, fB (youth, W >= We), SBr (R0 < 1300, W < We), capped by 150 or min(30, 5·index)."""
    e0 = Fraction(r0, 1000) ** 4 + J_BY_CLASS[cls]
    fb = Fraction(1)
    if cls == "youth" and w >= we:
        fb = min(max(Fraction(r0, 2000), Fraction(1, 2)), Fraction(1))
    sbr = Fraction(0)
    if r0 < 1300 and w < we:
        sbr = Fraction(math.exp((1300 - r0) / 150) - 1)
    e = rhu(e0 * fb + sbr)
    cap = E_MAX_SBR if sbr > 0 else min(E_MAX, E_PER_INDEX * index)
    return max(E_MIN, min(e, cap))


def wo2026_k(r0: int, age: int | None, cls: str, index: int, w: int, we: int) -> Fraction:
    """§5: K = clamp(rhu(K0·b + a, 1 decimal), 5, 80); age None = adult (§2)."""
    if age is not None and age <= 25 and r0 < 2200:
        group = "A"
    elif (age is None or age >= 26) and r0 < 2000:
        group = "B"
    else:
        group = "C"
    column = min(max(index, 1), 11)  # 0 -> 1, > 10 -> ">10" (the 11th column)
    k0 = K0_TABLE[group][column - 1]
    b = Fraction(r0 + U, 1600 + U) if (w < we and r0 < 1600) else Fraction(1)
    a = Fraction(0)
    if w >= we:
        if cls == "youth" and r0 < 2000:
            a = Fraction(2000 - r0, T)
        elif cls == "junior" and r0 < 1600:
            a = Fraction(A1)
        elif cls == "adult" and r0 < 1600:
            a = Fraction(A2)
    k = rhu_1(k0 * b + a)
    return min(max(k, Fraction(K_MIN)), Fraction(K_MAX))


# --- One tournament (§8) ---


def evaluate_json(data: dict, trace: dict | None = None, *, internals: bool = False) -> dict:  # noqa: C901, PLR0912, PLR0915 -- existing; issue 27
    """Evaluate one tournament (spec §8). ``trace``, if given, receives a few facts for coverage reports."""
    trace = {} if trace is None else trace
    end = parse_date(data["tournament"]["end_date"])
    edition = "classic" if end < WO2026_FROM else "wo2026"  # §1

    players = data["players"]
    order = [p["id"] for p in players]
    pl = {p["id"]: p for p in players}

    # §2 start values R0, index; FIDE take-over
    r0: dict[str, int] = {}
    takeover: set[str] = set()
    for p in players:
        if p.get("dwz") is not None:
            r0[p["id"]] = int(p["dwz"])
        elif p.get("fide_elo") is not None:
            r0[p["id"]] = int(p["fide_elo"])
            takeover.add(p["id"])

    def old_index(pid: str) -> int:
        if pid in takeover:
            return 6
        idx = pl[pid].get("index")
        return 0 if idx is None else int(idx)

    # §3 drop forfeits; played games in input order
    played = []
    for g in data["games"]:
        if g["result"] in SCORE_THOUSANDTHS:
            sw, sb = SCORE_THOUSANDTHS[g["result"]]
            played.append((g["white"], g["black"], sw, sb))

    # §6.1 valid Restpartien (only unrated players use them)
    valid_rps: dict[str, list[tuple[int, int]]] = {}
    for p in players:
        rps = []
        if p["id"] not in r0:
            for rp in p.get("restpartien") or []:
                rp_end = parse_date(rp["end_date"])
                if (end.year - 2, end.month, end.day) == (rp_end.year, rp_end.month, rp_end.day):
                    note(trace, "rp_at_boundary")
                if rp_end.month == 2 and rp_end.day == 29 and end.year == rp_end.year + 2:
                    note(trace, "rp_29feb_two_years_on")
                if restpartie_valid(rp_end, end):
                    rps.append((int(rp["opponent_rating"]), {0: 0, 0.5: 500, 1: 1000}[rp["score"]]))
        valid_rps[p["id"]] = rps

    # §6.2, §6.3 Zusatzstufen
    def stage_test(pid: str, against: set[str]) -> bool:
        n_t, w, tournament_games = 0, 0, 0
        for white, black, sw, sb in played:
            if white == pid and black in against:
                n_t, w, tournament_games = n_t + 1, w + sw, tournament_games + 1
            elif black == pid and white in against:
                n_t, w, tournament_games = n_t + 1, w + sb, tournament_games + 1
        for _rating, s in valid_rps[pid]:
            n_t, w = n_t + 1, w + s
        return n_t >= MIN_GAMES and 0 < w < 1000 * n_t and tournament_games >= 1

    rated = set(r0)
    unrated = [pid for pid in order if pid not in rated]
    z1 = {pid for pid in unrated if stage_test(pid, rated)}
    auswahl1 = rated | z1
    z2 = {pid for pid in unrated if pid not in z1 and stage_test(pid, auswahl1)}
    auswahl2 = auswahl1 | z2
    if z2:
        note(trace, "zusatzstufe2")

    ctx = {
        "order": order,
        "z1": z1,
        "z2": z2,
        "played": played,
        "valid_rps": valid_rps,
        "edition": edition,
        "trace": trace,
    }

    # counted games: played games between two Auswahl-II players (§3)
    counted = [(wh, bl, sw, sb) for wh, bl, sw, sb in played if wh in auswahl2 and bl in auswahl2]

    def tournament_opponents(pid: str, entry: dict[str, int]) -> tuple[list[int], int]:
        ratings, w = [], 0
        for white, black, sw, sb in counted:
            if white == pid:
                ratings.append(entry[black])
                w += sw
            elif black == pid:
                ratings.append(entry[white])
                w += sb
        return ratings, w

    # §8.5 pass 1: rated entry ratings = R0
    entry_rated = {pid: r0[pid] for pid in rated}
    fr = first_ratings(ctx, entry_rated)
    entry = {**entry_rated, **{pid: v["first"] for pid, v in fr.items()}}

    # §7.4 Ausnahmespieler (single test)
    if end >= AUSNAHME_FROM:
        ausnahme = {}
        for pid in order:
            if pid not in rated:
                continue
            ratings, w = tournament_opponents(pid, entry)
            rh = performance_rated(ratings, w)
            if rh is not None and rh > r0[pid] + AUSNAHME_MARGIN:
                if w in (0, 1000 * len(ratings)):
                    note(trace, "ausnahme_with_fictitious_draw")
                ausnahme[pid] = rh
        trace["ausnahme"] = len(ausnahme)
        if ausnahme:
            entry_rated = {**entry_rated, **ausnahme}
            fr = first_ratings(ctx, entry_rated)
            entry = {**entry_rated, **{pid: v["first"] for pid, v in fr.items()}}

    out_players = []
    for pid in order:
        p = pl[pid]
        row = {
            "id": pid,
            "status": "not_rated",
            "dwz_old": None,
            "index_old": None,
            "n": 0,
            "points": 0.0,
            "expected": None,
            "coefficient": None,
            "level": None,
            "performance": None,
            "dwz_new": None,
            "index_new": None,
            "restpartien": [],
        }
        if pid in rated:
            # §8.7 rated players
            row["status"] = "rated"
            row["dwz_old"] = r0[pid]
            row["index_old"] = old_index(pid)
            row["dwz_new"] = r0[pid]
            row["index_new"] = old_index(pid)
            ratings, w = tournament_opponents(pid, entry)
            n = len(ratings)
            if n >= 1:
                we_per_game = sum(p_thousandths(r0[pid] - o) for o in ratings)
                if edition == "classic":
                    we = we_per_game
                else:
                    # §16: rhu(Σ unrounded P, 3), the sum of the exact double values
                    we = rhu(sum((Fraction(big_p(r0[pid] - o)) for o in ratings), Fraction(0)) * 1000)
                cls = age_class(p.get("birth_year"), end)
                calc_index = 1 if pid in takeover else old_index(pid)
                if pid in takeover:
                    note(trace, "takeover_evaluated")
                if w in (0, 1000 * n) and n >= MIN_GAMES:
                    note(trace, "performance_fictitious_draw")
                if edition == "classic":
                    e = classic_e(r0[pid], cls, calc_index, w, we)
                    note(trace, f"E={'5' if e == 5 else 'sbr>30' if e > 30 else 'mid'}")
                    if w == we:
                        note(trace, "W=We")
                    rn = rhu(r0[pid] + Fraction(800 * (w - we), 1000 * (e + n)))
                    row["coefficient"] = e
                else:
                    by = p.get("birth_year")
                    age = None if by is None else end.year - int(by)
                    k = wo2026_k(r0[pid], age, cls, calc_index, w, we)
                    rn = max(FLOOR_2026, rhu(r0[pid] + k * Fraction(w - we, 1000)))
                    row["coefficient"] = float(k)
                    if we != we_per_game:
                        note(trace, "we_sum_differs")
                        k_per_game = wo2026_k(r0[pid], age, cls, calc_index, w, we_per_game)
                        rn_per_game = rhu(r0[pid] + k_per_game * Fraction(w - we_per_game, 1000))
                        if max(FLOOR_2026, rn_per_game) != rn:
                            note(trace, "we_sum_changes_rn")
                    note(trace, f"K={'max' if k == K_MAX else 'min' if k == K_MIN else 'mid'}")
                    if rn == FLOOR_2026:
                        note(trace, "floor_1100")
                row.update(
                    n=n,
                    points=w / 1000,
                    expected=we / 1000,
                    level=mean_rhu(ratings),
                    performance=performance_rated(ratings, w),
                    dwz_new=rn,
                    index_new=7 if pid in takeover else old_index(pid) + 1,
                )
        elif pid in fr:
            # §6.9 first players
            v = fr[pid]
            note(
                trace,
                f"first_{edition}_{'low' if v['ri'] < (800 if edition == 'classic' else 1100) else 'high'}",
            )
            if valid_rps[pid]:
                note(trace, "first_with_restpartien")
            t_ratings, _ = tournament_opponents(pid, entry)
            row.update(
                status="first",
                n=v["n"],
                points=v["w"] / 1000,
                expected=v["expected"] / 1000,
                level=mean_rhu(t_ratings),
                performance=v["ri"],
                dwz_new=v["first"],
                index_new=1,
            )
        else:
            # §6.10 Restpartien handed back: played games against Auswahl-I players, in input order
            rps = []
            for white, black, sw, sb in played:
                if white == pid and black in auswahl1:
                    opp, s = black, sw
                elif black == pid and white in auswahl1:
                    opp, s = white, sb
                else:
                    continue
                rps.append(
                    {
                        "opponent_rating": entry[opp],
                        "score": {0: 0, 500: 0.5, 1000: 1}[s],
                        "end_date": end.isoformat(),
                    }
                )
            row["restpartien"] = rps
            if rps:
                note(trace, "restpartien_handed_back")
        if p.get("member") is False:
            # WO 3.4.3 / 4.1.2: a non-member is part of the calculation (everything above), but gets no DWZ,
            # no E/K and keeps no Restpartien; his entry rating is shown instead.
            note(trace, f"non_member_{row['status']}")
            row.update(status="non_member", coefficient=None, dwz_new=None, index_new=None, restpartien=[])
            row["entry_rating"] = entry.get(pid)
        if internals:
            row["entry_rating"] = entry.get(pid)
            row["fide_takeover"] = pid in takeover
        out_players.append(row)
    return {"edition": edition, "players": out_players}
