"""Benchmark of the TRF import: a 300-player, 9-round file parsed, matched against 100,000 stored players and
previewed (the officer page's work before saving). Target: at most 3 s together.

The file is generated (seeded): a third of the players carry a GER line with a stored nu id, a third only a
FIDE id of a stored player, the rest name + birth year (half of them stored, with umlauts in the file
spelled "ue"), so every matching step runs. Prints one JSON line per run.

Usage (from the repository root):

    .venv/bin/python bench/trf_import.py                    # SQLite (bench/trf_bench.sqlite3)
    .venv/bin/python bench/trf_import.py --db postgres      # PostgreSQL (BENCH_DATABASE_URL or dwz_trf)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG_DEFAULT = "postgres://postgres@127.0.0.1:5432/dwz_trf"
SURNAMES = [
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Weber",
    "Meyer",
    "Wagner",
    "Becker",
    "Schulz",
    "Hoffmann",
    "Schäfer",
    "Koch",
    "Bauer",
    "Richter",
    "Klein",
    "Wolf",
    "Schröder",
    "Neumann",
    "Schwarz",
    "Zimmermann",
    "Braun",
    "Krüger",
    "Hofmann",
    "Hartmann",
    "Lange",
    "Schmitt",
    "Werner",
    "Schmitz",
    "Krause",
    "Meier",
]
FIRST = [
    "Max",
    "Erika",
    "Jürgen",
    "Anna",
    "Lukas",
    "Sophie",
    "Jörg",
    "Lena",
    "Paul",
    "Marie",
    "Felix",
    "Özlem",
]


def configure(db: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dwzsite.settings")
    os.environ["DJANGO_DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
    if db == "sqlite":
        os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'bench' / 'trf_bench.sqlite3'}"
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


def populate(n_players: int, rng: random.Random) -> None:
    """n stored players (keys NU…, FIDE ids for a quarter), with start values; only if not there yet."""
    from ratings.enums import AdjustmentKind
    from ratings.models import Player, RatingAdjustment

    if Player.objects.count() >= n_players and Player.objects.filter(surname__contains="-").exists():
        return
    Player.objects.all().delete()
    # Surnames roughly as in a real list: a few very common ones, many rare ones (about 20,000 distinct).
    syllables = [
        "berg",
        "mann",
        "bach",
        "feld",
        "haus",
        "stein",
        "brink",
        "kamp",
        "horst",
        "rath",
        "eck",
        "au",
    ]
    stems = [
        "Al",
        "Bre",
        "Dor",
        "Eh",
        "Fel",
        "Gro",
        "Hü",
        "Jä",
        "Kra",
        "Lö",
        "Mar",
        "Nie",
        "Ost",
        "Pü",
        "Ro",
        "Sä",
        "Tre",
        "Ul",
        "Vo",
        "Wi",
        "Zie",
    ]
    rare = [f"{a}{b}{c}" for a in stems for b in syllables for c in ("", "er", "s", "ke", "l", "t", "n", "z")]
    firsts = FIRST + [
        f"{a}{b}"
        for a in ("An", "Be", "Chri", "Da", "Fe", "Jo", "Ka", "Ma", "Ni", "Ste")
        for b in ("na", "ter", "lia", "nik", "ris", "ian")
    ]
    players = [
        Player(
            key=f"NU{4000000 + i}",
            surname=rng.choice(SURNAMES)
            if rng.random() < 0.15
            else rng.choice(rare) + rng.choice(["", "-" + rng.choice(rare)]),
            first_name=rng.choice(firsts),
            birth_year=rng.randint(1940, 2015),
            fide_id=10_000_000 + i if i % 4 == 0 else None,
            dwz=rng.randint(800, 2400),
            index=rng.randint(1, 80),
        )
        for i in range(n_players)
    ]
    Player.objects.bulk_create(players, batch_size=5000)
    stored = Player.objects.values_list("pk", "dwz", "index")
    RatingAdjustment.objects.bulk_create(
        [
            RatingAdjustment(player_id=pk, kind=AdjustmentKind.START, dwz=dwz, index=index)
            for pk, dwz, index in stored
        ],
        batch_size=5000,
    )


def trf_file(n: int, rounds: int, stored: list, rng: random.Random) -> bytes:
    """A Swiss of n players and ``rounds`` rounds (random pairings, one PAB per round when n is odd)."""
    import datetime

    from ratings.formats.trf import (
        NationalRating,
        TrfBye,
        TrfGame,
        TrfHead,
        TrfPlayer,
        TrfTournament,
        write_trf,
    )

    players = []
    for i, (key, surname, first, birth, fide) in enumerate(rng.sample(stored, n), start=1):
        kind = i % 3
        if kind == 2 and i % 2:  # an unknown player
            surname, first, birth, key, fide = f"Unbekannt{i}", "Jörg", 1990, None, None
        surname = surname.replace("ü", "ue")  # the file spells umlauts out; matching must not care
        national = {"GER": NationalRating("GER", 1500, None, key)} if kind == 0 and key else {}
        players.append(
            TrfPlayer(
                i,
                f"{surname}, {first}",
                surname,
                first,
                birth_year=birth,
                fide_id=fide if kind == 1 else None,
                national=national,
            )
        )
    games, byes = [], []
    for r in range(1, rounds + 1):
        order = list(range(1, n + 1))
        rng.shuffle(order)
        if len(order) % 2:
            byes.append(TrfBye(r, order.pop(), "U"))
        for a, b in zip(order[::2], order[1::2], strict=True):
            wc, bc = rng.choice([("1", "0"), ("0", "1"), ("=", "=")])
            games.append(TrfGame(r, a, b, wc, bc))
    head = TrfHead(
        name="Bench-Open",
        city="Musterstadt",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 9),
    )
    return write_trf(TrfTournament(head, players, games, byes, rounds)).encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    configure(args.db)
    from ratings.models import Player
    from ratings.selectors.trf_import import (
        attach_stored_ratings,
        decisions_from_matches,
        head_from_file,
        trf_match,
        trf_preview,
        trf_read,
    )

    rng = random.Random(12)
    t0 = time.perf_counter()
    populate(args.players, rng)
    setup = time.perf_counter() - t0
    stored = list(
        Player.objects.values_list("key", "surname", "first_name", "birth_year", "fide_id")[: args.players]
    )
    data = trf_file(args.size, args.rounds, stored, rng)
    for run in range(args.repeat):
        t0 = time.perf_counter()
        tournament = trf_read(data)
        t1 = time.perf_counter()
        matches = trf_match(tournament)
        head = head_from_file(tournament)
        attach_stored_ratings(matches, head)
        t2 = time.perf_counter()
        decisions = decisions_from_matches(matches, create_unknown=True)
        preview = trf_preview(tournament=tournament, head=head, decisions=decisions)
        t3 = time.perf_counter()
        reasons: dict[str, int] = {}
        for m in matches:
            key = m.reason if m.player is not None else ("ambiguous" if m.candidates else "unknown")
            reasons[key] = reasons.get(key, 0) + 1
        print(
            json.dumps(
                {
                    "bench": "trf_import",
                    "db": args.db,
                    "run": run,
                    "stored_players": args.players,
                    "file_players": len(tournament.players),
                    "rounds": tournament.rounds,
                    "games": len(tournament.games),
                    "matches": reasons,
                    "parse_s": round(t1 - t0, 3),
                    "match_s": round(t2 - t1, 3),
                    "preview_s": round(t3 - t2, 3),
                    "total_s": round(t3 - t0, 3),
                    "preview_rows": len(preview.lines),
                    "setup_s": round(setup, 1) if run == 0 else None,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
