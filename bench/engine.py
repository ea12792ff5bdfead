"""Benchmark of the DWZ engine (not a test): ``.venv/bin/python bench/engine.py [--tournaments N]``.

Generates seeded random tournaments (6-60 players; round robin up to 16 players, Swiss above) and prints JSON
lines (the first and the last with the load average, ``reference_seconds`` and the commit) with CPU times
(``time.process_time``, which a busy machine disturbs less than wall time) and player-evaluations per CPU
second, for two comparisons with elochess 0.5.0's DWZ update
(``DwzCalculator.update_rating``: the classic formula only, no performance, level or first ratings):

* ``"variant": "fair"``: like for like. Every player rated (DWZ and index), end dates before 2016-08-01
  (classic rules, before the Ausnahmespieler rule, which elochess does not know), no forfeits, so both
  sides rate the same players from the same games under the same formula. Both start from the same plain
  tuples (players, games) and both timings include building their input: ``TournamentInput`` and
  ``evaluate`` here, opponent lists, scores and one ``update_rating`` per player there. Also reports how
  many new ratings agree.
* ``"variant": "full"``: our engine with everything (rated players of all ages, some unrated with
  Restpartien, some FIDE-only, forfeits, both rule editions, Ausnahmespieler, first ratings) against
  elochess as it is: ready-made opponent lists (building them not timed) for the established players
  (rated, at least one game against a rated player), games against players who get a first rating in the
  same tournament dropped, the Ausnahmespieler ignored and the classic formula after 2026-06-07 too.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from federation import commit, load_average, reference_seconds

from ratings.dwz import GameInput, PlayerInput, RestpartieValue, TournamentInput, evaluate


def _result(rnd: random.Random, white: int, black: int) -> str:
    p = 0.5 * (1 + math.erf((white - black) / 400))
    draw = 0.3 * (1 - abs(2 * p - 1))
    x = rnd.random()
    if x < p - draw / 2:
        return "1-0"
    if x < p + draw / 2:
        return "1/2-1/2"
    return "0-1"


def _swiss_pairs(rnd: random.Random, m: int, rounds: int, points: list[float], met: set) -> list[list[tuple]]:
    """A crude Swiss: each round sort by points (random tie order) and pair neighbours not yet met."""
    all_rounds = []
    for _ in range(rounds):
        order = sorted(range(m), key=lambda i: (-points[i], rnd.random()))
        pairs = []
        while len(order) >= 2:
            a = order.pop(0)
            k = next((j for j, b in enumerate(order) if (a, b) not in met), 0)
            b = order.pop(k)
            met.add((a, b))
            met.add((b, a))
            pairs.append((a, b) if rnd.random() < 0.5 else (b, a))
        all_rounds.append(pairs)
    return all_rounds


FAIR_FIRST, FAIR_LAST = datetime.date(2005, 1, 1), datetime.date(2016, 7, 31)


def generate(n: int, seed: int, *, fair: bool = False) -> list[TournamentInput]:
    """``fair``: every player rated, classic rules before the Ausnahmespieler rule, no forfeits."""
    rnd = random.Random(seed)
    out = []
    first, days = datetime.date(2012, 1, 1), 365 * 19
    if fair:
        first, days = FAIR_FIRST, (FAIR_LAST - FAIR_FIRST).days
    for t in range(n):
        m = rnd.randint(6, 60)
        end = first + datetime.timedelta(days=rnd.randint(0, days))
        players, strength = [], []
        for i in range(m):
            kind = 0.0 if fair else rnd.random()
            s = min(2750, max(350, int(rnd.gauss(1600, 380))))
            birth = rnd.randint(end.year - 85, end.year - 6)
            if kind < 0.84:
                players.append(
                    PlayerInput(f"p{i}", birth, dwz=s + rnd.randint(-60, 60), index=rnd.randint(0, 80))
                )
            elif kind < 0.90:
                players.append(PlayerInput(f"p{i}", birth, fide_elo=max(1000, s)))
            else:
                rps = tuple(
                    RestpartieValue(
                        rnd.randint(900, 2200),
                        rnd.choice((0, 500, 1000)),
                        end - datetime.timedelta(days=rnd.randint(1, 900)),
                    )
                    for _ in range(rnd.choice((0, 0, 1, 2, 3)))
                )
                players.append(PlayerInput(f"p{i}", birth if rnd.random() < 0.9 else None, restpartien=rps))
            strength.append(s)
        games = []
        if m <= 16:
            pairings = [[(a, b) for a in range(m) for b in range(a + 1, m)]]
        else:
            pairings = _swiss_pairs(rnd, m, rnd.randint(5, 11), [0.0] * m, set())
        points = [0.0] * m
        for rnd_pairs in pairings:
            for a, b in rnd_pairs:
                res = "+-" if not fair and rnd.random() < 0.01 else _result(rnd, strength[a], strength[b])
                points[a] += {"1-0": 1, "1/2-1/2": 0.5}.get(res, 0)
                points[b] += {"0-1": 1, "1/2-1/2": 0.5}.get(res, 0)
                games.append(GameInput(f"p{a}", f"p{b}", res))
        out.append(TournamentInput(end_date=end, players=tuple(players), games=tuple(games), code=f"T{t}"))
    return out


Raw = tuple[datetime.date, tuple[tuple[str, int | None, int, int], ...], tuple[tuple[str, str, str], ...]]
_SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def raw_tournaments(tournaments: list[TournamentInput]) -> list[Raw]:
    """The fair variant's common starting point: plain tuples, (id, birth year, DWZ, index) and games."""
    return [
        (
            t.end_date,
            tuple((p.id, p.birth_year, p.dwz, p.index or 0) for p in t.players if p.dwz is not None),
            tuple((g.white, g.black, g.result) for g in t.games),
        )
        for t in tournaments
    ]


def ours_fair(raw: list[Raw]) -> list[dict[str, int]]:
    """Build the engine input from the tuples and evaluate: the new DWZ of every player with games."""
    out = []
    for end, players, games in raw:
        t = TournamentInput(
            end_date=end,
            players=tuple(PlayerInput(pid, birth, dwz, index) for pid, birth, dwz, index in players),
            games=tuple(GameInput(w, b, r) for w, b, r in games),
        )
        out.append({p.id: p.dwz_new for p in evaluate(t).players if p.n})
    return out


def elochess_fair(raw: list[Raw]) -> list[dict[str, int]]:
    """The same with elochess: opponent ratings and score per player, one ``update_rating`` each."""
    from elochess.dwz import DwzCalculator

    update = DwzCalculator.update_rating
    out = []
    for end, players, games in raw:
        rating = {pid: dwz for pid, _, dwz, _ in players}
        opponents: dict[str, list[int]] = {pid: [] for pid in rating}
        score = dict.fromkeys(rating, 0.0)
        for w, b, r in games:
            s = _SCORE[r]
            opponents[w].append(rating[b])
            opponents[b].append(rating[w])
            score[w] += s
            score[b] += 1.0 - s
        year = end.year
        out.append(
            {
                pid: update(dwz, opponents[pid], score[pid], age=year - (birth or year - 30), index=index)
                for pid, birth, dwz, index in players
                if opponents[pid]
            }
        )
    return out


def elochess_calls(tournaments: list[TournamentInput]) -> list[tuple]:
    """Arguments for elochess on the established players: rated opponents' R0 and the score against them."""
    calls = []
    for t in tournaments:
        r0 = {p.id: (p.dwz if p.dwz is not None else p.fide_elo) for p in t.players}
        info = {p.id: p for p in t.players}
        opponents: dict[str, list[int]] = {}
        scores: dict[str, float] = {}
        for g in t.games:
            if g.result not in ("1-0", "0-1", "1/2-1/2") or r0[g.white] is None or r0[g.black] is None:
                continue
            s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g.result]
            opponents.setdefault(g.white, []).append(r0[g.black])
            opponents.setdefault(g.black, []).append(r0[g.white])
            scores[g.white] = scores.get(g.white, 0) + s
            scores[g.black] = scores.get(g.black, 0) + 1 - s
        for pid, opps in opponents.items():
            p = info[pid]
            age = 30 if p.birth_year is None else t.end_date.year - p.birth_year
            index = 1 if p.dwz is None else (p.index or 0)
            calls.append((r0[pid], opps, scores[pid], age, index))
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tournaments", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs over the same tournaments")
    parser.add_argument("--variant", choices=["fair", "full", "both"], default="both")
    parser.add_argument("--profile", action="store_true", help="cProfile one full engine run")
    args = parser.parse_args()
    if args.profile:
        import cProfile
        import pstats

        tournaments = generate(args.tournaments, args.seed)
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [evaluate(t) for t in tournaments])
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return
    _host("start")
    if args.variant in ("fair", "both"):
        fair(args)
    if args.variant in ("full", "both"):
        full(args)
    _host("end")


def _host(event: str) -> None:
    """The host's figures around the runs (as in ``bench/federation.py``): its speed and load, the commit."""
    _emit(event=event, load=load_average(), reference_seconds=reference_seconds(), commit=commit())


def fair(args: argparse.Namespace) -> None:
    raw = raw_tournaments(generate(args.tournaments, args.seed, fair=True))
    _generated("fair", raw)
    for rep in range(1, args.repeat + 1):
        ours, ours_s = _cpu(ours_fair, raw)
        theirs, theirs_s = _cpu(elochess_fair, raw)
        n = sum(map(len, ours))
        assert n == sum(map(len, theirs))  # the same players rated on both sides
        agree = sum(o[pid] == e[pid] for o, e in zip(ours, theirs, strict=True) for pid in o)
        for engine, seconds in (("dwzsite", ours_s), ("elochess", theirs_s)):
            _emit(
                variant="fair", engine=engine, rep=rep, player_evaluations=n, cpu_s=round(seconds, 3),
                player_evaluations_per_cpu_s=round(n / seconds),
            )  # fmt: skip
        _emit(variant="fair", rep=rep, same_new_dwz=agree, player_evaluations=n)


def full(args: argparse.Namespace) -> None:
    tournaments = generate(args.tournaments, args.seed)
    _generated("full", tournaments)
    for rep in range(1, args.repeat + 1):
        cpu = time.process_time
        per_call: list[float] = []
        results = []
        for t in tournaments:
            c0 = cpu()
            results.append(evaluate(t))
            per_call.append(cpu() - c0)
        cpu_s = sum(per_call)
        established = sum(1 for r in results for p in r.players if p.status == "rated" and p.n > 0)
        first = sum(1 for r in results for p in r.players if p.status == "first")
        _emit(
            variant="full", engine="dwzsite", rep=rep, tournaments=len(tournaments), follow_up=established,
            first=first, cpu_s=round(cpu_s, 3),
            player_evaluations_per_cpu_s=round((established + first) / cpu_s),
            us_per_tournament_mean=round(cpu_s / len(per_call) * 1e6),
            us_per_tournament_median=round(statistics.median(per_call) * 1e6),
        )  # fmt: skip
    calls = elochess_calls(tournaments)  # not timed: elochess as benchmarked so far
    from elochess.dwz import DwzCalculator

    update = DwzCalculator.update_rating
    for rep in range(1, args.repeat + 1):
        c0 = time.process_time()
        for r0, opps, score, age, index in calls:
            update(r0, opps, score, age=age, index=index)
        elo_s = time.process_time() - c0
        _emit(
            variant="full", engine="elochess", rep=rep, player_evaluations=len(calls), cpu_s=round(elo_s, 3),
            player_evaluations_per_cpu_s=round(len(calls) / elo_s),
        )  # fmt: skip


def _cpu(function, *args):  # type: ignore[no-untyped-def]
    c0 = time.process_time()
    result = function(*args)
    return result, time.process_time() - c0


def _generated(variant: str, tournaments: list) -> None:
    players = sum(len(t[1]) if isinstance(t, tuple) else len(t.players) for t in tournaments)
    _emit(event="generated", variant=variant, tournaments=len(tournaments), players=players)


def _emit(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


if __name__ == "__main__":
    main()
