"""Fuzzing the commands (issue 9 §3), run by hand: mutated contract files for ``dwz_evaluate`` and
``import_tournament``, mutated real TRF files for ``import_trf`` and mutated generated DSB lists for
``import_dsb_list``, each run in-process. Every case must end in exit 0, 1 (rows rejected) or 2 (a bad file,
the field named); any other exception is a crash. Database cases run in a transaction that is rolled back,
on a migrated database with the demo federation's tree of one club.

Prints one JSON line per crash (with the file written under --keep) and one summary line per command:

    {"command": "import_trf", "cases": 1250, "exits": {"0": 310, "2": 940}, "tracebacks": 0, "seconds": 61.2}

Usage (from the repository root):

    .venv/bin/python bench/fuzz.py                         # 5,000 cases on SQLite (a temporary file)
    .venv/bin/python bench/fuzz.py --cases 800 --seed 7 --commands dwz_evaluate,import_tournament
    .venv/bin/python bench/fuzz.py --db postgres://postgres@127.0.0.1:5432/dwz_fuzz
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Of every 100 cases: the contract commands are cheap, the list and TRF imports write more.
SHARES = {"dwz_evaluate": 35, "import_tournament": 30, "import_trf": 20, "import_dsb_list": 15}


def configure(db: str | None, tmp: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dwzsite.settings")
    os.environ["DJANGO_DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SECRET_KEY", "fuzz-only-not-secret")
    os.environ["DATABASE_URL"] = db or f"sqlite:///{tmp / 'fuzz.sqlite3'}"
    if db:
        import psycopg

        base, name = db.rsplit("/", 1)
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from ratings.models import Club, Organisation

    dsb = Organisation.objects.create(code="000", name="Deutscher Schachbund")
    lv = Organisation.objects.create(code="C00", name="Württemberg", parent=dsb)
    Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=lv)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", default=",".join(SHARES))
    parser.add_argument(
        "--db", default=None, help="a PostgreSQL URL (dropped and created); SQLite if omitted"
    )
    parser.add_argument("--keep", default=str(ROOT / "bench" / "fuzz-crashes"), help="where crash files go")
    args = parser.parse_args()
    commands = [c for c in args.commands.split(",") if c]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        configure(args.db, tmp)
        from django.db import transaction

        from tests.fuzzing import Sources, make_case, run_case

        sources = Sources()
        rng = random.Random(args.seed)
        weights = [SHARES.get(c, 10) for c in commands]
        exits: dict[str, Counter] = {c: Counter() for c in commands}
        crashes: Counter = Counter()
        seconds: Counter = Counter()
        for n in range(args.cases):
            command = rng.choices(commands, weights)[0]
            case = make_case(command, sources, random.Random(rng.getrandbits(64)))
            start = time.perf_counter()
            with transaction.atomic():
                outcome = run_case(case, tmp)
                transaction.set_rollback(True)
            seconds[command] += time.perf_counter() - start
            exits[command][str(outcome.exit)] += 1
            if outcome.exit is None:
                crashes[command] += 1
                keep = Path(args.keep)
                keep.mkdir(parents=True, exist_ok=True)
                path = keep / f"{command}-{args.seed}-{n}{case.suffix}"
                path.write_bytes(case.data)
                print(
                    json.dumps(
                        {
                            "crash": command,
                            "case": n,
                            "args": case.args,
                            "error": outcome.error,
                            "file": str(path),
                        }
                    ),
                    flush=True,
                )
        for command in commands:
            counts = exits[command]
            print(
                json.dumps(
                    {
                        "command": command,
                        "db": "postgresql" if args.db else "sqlite",
                        "seed": args.seed,
                        "cases": sum(counts.values()),
                        "exits": {k: v for k, v in sorted(counts.items()) if k != "None"},
                        "tracebacks": crashes[command],
                        "seconds": round(seconds[command], 1),
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
