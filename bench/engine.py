"""Benchmark of the DWZ engine (not a test): ``.venv/bin/python bench/engine.py [--tournaments N]``.

Generates seeded random tournaments (6-60 players; round robin up to 16 players, Swiss above; rated players
of all ages, some unrated, some FIDE-only; end dates in both editions) and evaluates each with one
``evaluate`` call, ``--repeat`` times. Prints JSON lines: per run the CPU time (``time.process_time``, which a
busy machine disturbs less than wall time), player-evaluations per CPU second and the CPU time per
tournament (mean and median). In the same run it times elochess 0.5.0's DWZ update
(``DwzCalculator.update_rating``, classic formula only, no performance/level/first ratings) on the same
established players (rated, at least one game against a rated player).
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


def generate(n: int, seed: int) -> list[TournamentInput]:
    rnd = random.Random(seed)
    out = []
    for t in range(n):
        m = rnd.randint(6, 60)
        end = datetime.date(2012, 1, 1) + datetime.timedelta(days=rnd.randint(0, 365 * 19))
        players, strength = [], []
        for i in range(m):
            kind = rnd.random()
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
                res = "+-" if rnd.random() < 0.01 else _result(rnd, strength[a], strength[b])
                points[a] += {"1-0": 1, "1/2-1/2": 0.5}.get(res, 0)
                points[b] += {"0-1": 1, "1/2-1/2": 0.5}.get(res, 0)
                games.append(GameInput(f"p{a}", f"p{b}", res))
        out.append(TournamentInput(end_date=end, players=tuple(players), games=tuple(games), code=f"T{t}"))
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
    parser.add_argument("--profile", action="store_true", help="cProfile one engine run instead")
    args = parser.parse_args()

    t0 = time.perf_counter()
    tournaments = generate(args.tournaments, args.seed)
    n_players = sum(len(t.players) for t in tournaments)
    n_games = sum(len(t.games) for t in tournaments)
    _emit(
        event="generated", tournaments=len(tournaments), players=n_players, games=n_games,
        seconds=round(time.perf_counter() - t0, 2),
    )  # fmt: skip
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(lambda: [evaluate(t) for t in tournaments])
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return

    for rep in range(1, args.repeat + 1):
        cpu = time.process_time
        per_call: list[float] = []
        results = []
        wall0 = time.perf_counter()
        for t in tournaments:
            c0 = cpu()
            results.append(evaluate(t))
            per_call.append(cpu() - c0)
        wall = time.perf_counter() - wall0
        cpu_s = sum(per_call)
        established = sum(1 for r in results for p in r.players if p.status == "rated" and p.n > 0)
        first = sum(1 for r in results for p in r.players if p.status == "first")
        _emit(
            event="engine", rep=rep, tournaments=len(tournaments), follow_up=established, first=first,
            wall_s=round(wall, 3), cpu_s=round(cpu_s, 3),
            player_evaluations_per_cpu_s=round((established + first) / cpu_s),
            us_per_tournament_mean=round(cpu_s / len(per_call) * 1e6),
            us_per_tournament_median=round(statistics.median(per_call) * 1e6),
        )  # fmt: skip

    calls = elochess_calls(tournaments)
    from elochess.dwz import DwzCalculator

    update = DwzCalculator.update_rating
    c0 = time.process_time()
    for r0, opps, score, age, index in calls:
        update(r0, opps, score, age=age, index=index)
    elo_s = time.process_time() - c0
    _emit(event="elochess", calls=len(calls), cpu_s=round(elo_s, 3), per_cpu_s=round(len(calls) / elo_s))


def _emit(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


if __name__ == "__main__":
    main()
