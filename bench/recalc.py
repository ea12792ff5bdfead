"""Benchmark of the chronological recalculation.

Generates a seeded synthetic federation (clubs, players, tournaments over several years: club round robins
and Swiss opens of realistic sizes) at a given number of player-evaluations, then times

* a full ``recalculate`` of the fresh data (every tournament replayed and every row written),
* the same full ``recalculate`` again (everything replayed, nothing to write: the usual case), and
* a late insertion: a new club round robin of 8 players ending one year before the last tournament,
  saved through ``tournament_create`` (incremental replay of what it reaches).

Usage (from the repository root):

    .venv/bin/python bench/recalc.py                      # SQLite, sizes 2k 20k 200k
    .venv/bin/python bench/recalc.py --db postgres        # PostgreSQL (DATABASE_URL or local default)
    .venv/bin/python bench/recalc.py --sizes 2000 20000

SQLite uses bench/bench.sqlite3; PostgreSQL uses the database ``dwzsite_bench`` (created if missing).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG_DEFAULT = "postgres://postgres@127.0.0.1:5432/dwzsite_bench"


def configure(db: str, *, debug: bool = False) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dwzsite.settings")
    # Production settings (DEBUG off) by default: with DEBUG on, Django logs every query and on SQLite
    # quotes every parameter of it through an extra query, which made a fresh 200k run ~10 s slower.
    os.environ["DJANGO_DEBUG"] = "True" if debug else "False"
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
    if db == "sqlite":
        os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'bench' / 'bench.sqlite3'}"
    else:
        url = os.environ.get("BENCH_DATABASE_URL", PG_DEFAULT)
        os.environ["DATABASE_URL"] = url
        import psycopg

        base, name = url.rsplit("/", 1)
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                conn.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def base36(number: int) -> str:
    """Two base-36 digits (01 … ZZ): the last two characters of a district code or a ZPS."""
    high, low = divmod(number, 36)
    if not 0 < number < 36 * 36:
        raise ValueError(f"{number} does not fit two base-36 digits")
    return DIGITS36[high] + DIGITS36[low]


DIGITS36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def generate(evaluations: int, seed: int = 1) -> tuple[int, datetime.date]:
    """Create a federation with about ``evaluations`` player-evaluations; return (evaluations, last date)."""
    from ratings.enums import AdjustmentKind
    from ratings.models import (
        Club,
        Game,
        Membership,
        Organisation,
        Player,
        RatingAdjustment,
        Tournament,
        TournamentEntry,
    )

    rng = random.Random(seed)
    n_players = max(60, evaluations // 10)  # ~10 evaluations per player over the period
    years = 2 + min(6, evaluations // 20_000)  # 2 to 8 years
    start = datetime.date(2026 - years, 1, 1)
    span = (datetime.date(2026, 12, 31) - start).days

    lv = Organisation.objects.create(code="C00", name="Landesverband")
    n_clubs = max(2, n_players // 30)
    # Codes in base 36 (C01 … CZZ, clubs C0101 … CZZZZ): two decimal digits overflowed above 1 M evaluations.
    districts = [
        Organisation.objects.create(code=f"C{base36(i + 1)}", name=f"Bezirk {i + 1}", parent=lv)
        for i in range(max(1, n_clubs // 40))
    ]
    clubs = Club.objects.bulk_create(
        Club(zps=f"{districts[i % len(districts)].code}{base36(i // len(districts) + 1)}", name=f"SC {i}",
             organisation=districts[i % len(districts)])
        for i in range(n_clubs)
    )  # fmt: skip
    players = Player.objects.bulk_create(
        (Player(key=f"B{i:07d}", surname=f"Spieler{i}", first_name="X", birth_year=rng.randint(1940, 2016))
         for i in range(n_players)),
        batch_size=2000,
    )  # fmt: skip
    strength = {p.pk: max(600, min(2500, int(rng.gauss(1550, 320)))) for p in players}
    club_of = {p.pk: clubs[i % n_clubs] for i, p in enumerate(players)}
    Membership.objects.bulk_create(
        (Membership(player=p, club=club_of[p.pk], member_number=f"{i:05d}") for i, p in enumerate(players)),
        batch_size=2000,
    )
    RatingAdjustment.objects.bulk_create(
        (RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=strength[p.pk], index=rng.randint(0, 60))
         for p in players if rng.random() < 0.85),
        batch_size=2000,
    )  # fmt: skip
    by_club: dict[int, list] = {}
    for p in players:
        by_club.setdefault(club_of[p.pk].pk, []).append(p)

    def result(w, b) -> str:
        e = 1 / (1 + 10 ** ((strength[b.pk] - strength[w.pk]) / 400))
        r = rng.random()
        return "1/2-1/2" if r < 0.25 else ("1-0" if r < 0.25 + 0.75 * e else "0-1")

    made = 0
    tournaments, entry_rows, game_rows = [], [], []
    plan = []
    while made < evaluations:
        if rng.random() < 0.7:
            members = by_club[rng.choice(clubs).pk]
            size = min(len(members), rng.randint(6, 10))
            group = rng.sample(members, size)
            games = [(w, b, rnd) for rnd, (w, b) in enumerate(itertools.combinations(group, 2), start=1)]
        else:
            size = min(n_players, rng.randint(24, 60))
            group = rng.sample(players, size)
            games = []
            for rnd in range(1, 8):
                order = sorted(group, key=lambda p: strength[p.pk] + rng.randint(-200, 200))
                games += [(order[i], order[i + 1], rnd) for i in range(0, len(order) - 1, 2)]
        end = start + datetime.timedelta(days=rng.randint(0, span))
        plan.append((end, group, games))
        made += len(group)
    tournaments = Tournament.objects.bulk_create(
        (Tournament(name=f"T{i}", start_date=end, end_date=end) for i, (end, _, _) in enumerate(plan)),
        batch_size=2000,
    )
    for t, (_, group, games) in zip(tournaments, plan, strict=True):
        entry_rows += [TournamentEntry(tournament=t, player=p, start_rank=i) for i, p in enumerate(group, 1)]
        # round numbers only need to keep a player once per round; use the game number for round robins
        game_rows += [
            Game(tournament=t, round=rnd, white=w, black=b, result=result(w, b)) for w, b, rnd in games
        ]
    TournamentEntry.objects.bulk_create(entry_rows, batch_size=2000)
    Game.objects.bulk_create(game_rows, batch_size=2000)
    return made, max(end for end, _, _ in plan)


def wipe() -> None:
    from ratings.models import (
        Club,
        Evaluation,
        Game,
        Membership,
        Organisation,
        Player,
        RatingAdjustment,
        Restpartie,
        Tournament,
        TournamentEntry,
    )

    models = (Evaluation, Restpartie, Game, TournamentEntry, Tournament, RatingAdjustment, Membership, Player)
    for model in (*models, Club):
        model.objects.all().delete()
    Organisation.objects.filter(parent__isnull=False).delete()
    Organisation.objects.all().delete()


def late_insertion(last: datetime.date, seed: int = 2) -> tuple[float, int, int]:
    from ratings.models import Club, Game, Player, Tournament, TournamentEntry
    from ratings.services import tournament_create

    rng = random.Random(seed)
    club = Club.objects.order_by("pk").first()
    group = list(Player.objects.filter(memberships__club=club, dwz__isnull=False).order_by("pk")[:8])
    end = last - datetime.timedelta(days=365)
    t = Tournament(name="Nachtrag", start_date=end, end_date=end)
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(group, 1)]
    games = [
        Game(round=r, white=w, black=b, result=rng.choice(["1-0", "0-1", "1/2-1/2"]))
        for r, (w, b) in enumerate(itertools.combinations(group, 2), start=1)
    ]
    started, cpu = time.perf_counter(), time.process_time()
    report = tournament_create(tournament=t, entries=entries, games=games)
    late_cpu[0] = time.process_time() - cpu
    return time.perf_counter() - started, len(report.tournaments), report.evaluations


late_cpu = [0.0]  # CPU seconds of this process in the last late insertion (SQLite: all of the work)


def timed(function):
    """``function()``'s result and the CPU seconds this process spent in it: on a shared machine the wall
    clock is noisy, the process time much less so (on SQLite it includes the database work)."""
    cpu = time.process_time()
    result = function()
    return result, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2_000, 20_000, 200_000])
    parser.add_argument(
        "--verify", action="store_true", help="also check the end state against a full replay"
    )
    parser.add_argument("--debug", action="store_true", help="run with DEBUG=True (query logging)")
    args = parser.parse_args()
    configure(args.db, debug=args.debug)
    from ratings.recalculation import ratings_verify, recalculate

    print(f"database: {args.db}, DEBUG={args.debug}")
    head = [
        "size",
        "evals",
        "tourn.",
        "full s",
        "evals/s",
        "again s",
        "evals/s",
        "late s",
        "late T",
        "late evals",
    ]
    widths = [8, 8, 7, 8, 9, 8, 9, 7, 7, 10]
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True)))
    for size in args.sizes:
        wipe()
        _, last = generate(size)
        report, full_cpu = timed(recalculate)
        again, again_cpu = timed(recalculate)  # the same replay over the evaluated database: nothing to write
        late_s, late_t, late_e = late_insertion(last)
        rate = report.evaluations / report.elapsed
        cells = [f"{size:>8}", f"{report.evaluations:>8}", f"{len(report.tournaments):>7}"]
        cells += [f"{report.elapsed:>8.2f}", f"{rate:>9,.0f}"]
        cells += [f"{again.elapsed:>8.2f}", f"{again.evaluations / again.elapsed:>9,.0f}"]
        cells += [f"{late_s:>7.2f}", f"{late_t:>7}", f"{late_e:>10}"]
        print(" ".join(cells), flush=True)
        print(
            f"         cpu s (this process): full {full_cpu:.2f}, again {again_cpu:.2f},"
            f" late {late_cpu[0]:.2f}",
            flush=True,
        )
        if args.verify:
            problems = ratings_verify()
            print(f"         verify: {len(problems)} differences", flush=True)


if __name__ == "__main__":
    main()
