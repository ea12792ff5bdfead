"""Benchmark: ``import_tournament`` of a file with 200 players unknown to the database, each with a start
value (DWZ + index, a fifth with Elo only), 100 games among them, on top of the demo federation (seed_demo).
Target (issue 9 §3): at most 3 s. Prints one JSON line per run.

Each run works on a fresh copy of a prepared database (made once by migrate + seed_demo), so runs are
comparable: SQLite copies bench/start_values_base.sqlite3, PostgreSQL creates the run's database from the
template database ``<name>_base``.

Usage (from the repository root):

    .venv/bin/python bench/import_start_values.py [--players 200] [--runs 3]
    .venv/bin/python bench/import_start_values.py --db postgres://postgres@127.0.0.1:5432/dwz_startvalues
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "bench" / "start_values_base.sqlite3"


def _env(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dwzsite.settings",
        "DJANGO_DEBUG": "False",
        "DJANGO_SECRET_KEY": "bench-only-not-secret",
        "DATABASE_URL": url,
    }


def _seed(url: str) -> None:
    for command in (["migrate", "-v0"], ["seed_demo"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=_env(url), check=True, capture_output=True
        )


def fresh_database(pg_url: str | None, tmp: Path, run: int) -> str:
    """The URL of a fresh copy of the seeded base database."""
    if pg_url is None:
        if not BASE.exists():
            _seed(f"sqlite:///{BASE}")
        db = tmp / f"run{run}.sqlite3"
        shutil.copy(BASE, db)
        return f"sqlite:///{db}"
    name = pg_url.rsplit("/", 1)[1]
    base = f"{name}_base"
    import psycopg

    with psycopg.connect(pg_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [base]).fetchone():
            conn.execute(f'CREATE DATABASE "{base}"')
            _seed(f"{pg_url.rsplit('/', 1)[0]}/{base}")
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{base}"')
    return pg_url


def tournament_file(n: int, rng: random.Random) -> dict:
    players = []
    for i in range(n):
        p = {"id": f"BENCH-{i + 1:04d}", "name": f"Neu{i + 1}, Max", "birth_year": rng.randint(1950, 2010)}
        if i % 5 == 4:
            p["fide_elo"] = rng.randint(1400, 2300)
        else:
            p["dwz"], p["index"] = rng.randint(900, 2300), rng.randint(1, 60)
        players.append(p)
    ids = [p["id"] for p in players]
    rng.shuffle(ids)
    games = [
        {"white": ids[k], "black": ids[k + 1], "result": rng.choice(["1-0", "0-1", "1/2-1/2"])}
        for k in range(0, n - 1, 2)
    ]
    return {
        "tournament": {"name": "Bench-Open", "end_date": "2026-02-28", "start_date": "2026-02-20"},
        "players": players,
        "games": games,
    }


# Times the command alone (Django's start-up excluded), then prints the seconds as the last line.
TIMED = """
import io, sys, time, django
django.setup()
from django.core.management import call_command
start = time.perf_counter()
call_command("import_tournament", sys.argv[1], "--confirm", "--allow-duplicate", stdout=io.StringIO())
print(f"{time.perf_counter() - start:.2f}")
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL; SQLite when omitted")
    args = parser.parse_args()
    rng = random.Random(9)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.json"
        path.write_text(json.dumps(tournament_file(args.players, rng)))
        for run in range(args.runs):
            url = fresh_database(args.db, Path(tmp), run)
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", TIMED, str(path)],
                cwd=ROOT,
                env=_env(url),
                capture_output=True,
                text=True,
            )
            elapsed = time.perf_counter() - start
            command = float(done.stdout.strip().rsplit("\n", 1)[-1]) if done.returncode == 0 else None
            line = {
                "bench": "import_start_values",
                "db": "postgresql" if args.db else "sqlite",
                "players": args.players,
                "run": run,
                "exit": done.returncode,
                "seconds": command,  # the command alone, after Django's start
                "process_seconds": round(elapsed, 2),
            }
            if done.returncode:
                line["stderr"] = done.stderr[-500:]
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
