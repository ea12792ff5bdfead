"""Benchmark of the DSB list import: a generated list of the federation's size into an empty database.

Generates a seeded list of the real shape (``tests/dsb_lists.py``: the 2019 federation tree, invented people),
writes it as ``LV-0-csv_20260301.zip``, then times on a freshly migrated database

* reading the zip (``ratings.formats.dsb_list``),
* the first import (everything created, start values, the snapshot; with the progress bar on stderr),
* the same list again (idempotent: nothing written),
* a newer list (2 % of the people renamed, 1 % moved to another club, 1 % gone).

Usage (from the repository root; prints one JSON line per measurement):

    .venv/bin/python bench/import_dsb.py                       # SQLite (bench/dsb.sqlite3), 100,000 rows
    .venv/bin/python bench/import_dsb.py --db postgres         # PostgreSQL (DATABASE_URL or dwz_dsblist)
    .venv/bin/python bench/import_dsb.py --rows 20000

The target (100,000 rows in at most 60 s on SQLite and on PostgreSQL) is the first import.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG_DEFAULT = "postgres://postgres@127.0.0.1:5432/dwz_dsblist"


def configure(db: str) -> str:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dwzsite.settings")
    os.environ["DJANGO_DEBUG"] = "False"  # DEBUG logs every query
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
    if db == "sqlite":
        path = ROOT / "bench" / "dsb.sqlite3"
        path.unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    else:
        url = os.environ.get("DATABASE_URL") or PG_DEFAULT
        os.environ["DATABASE_URL"] = url
        import psycopg

        base, name = url.rsplit("/", 1)
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    return connection.vendor


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(label: str, function, **extra):
    wall, used = time.perf_counter(), cpu()
    result = function()
    line = {
        "step": label,
        "seconds": round(time.perf_counter() - wall, 2),
        "cpu": round(cpu() - used, 2),
        **extra,
    }
    return result, line


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    vendor = configure(args.db)

    from ratings.formats.dsb_list import read_list
    from ratings.management.commands.recalculate import ProgressBar
    from ratings.models import Membership, Player
    from ratings.recalculation import ratings_verify
    from ratings.services.dsb_list import dsb_list_import
    from tests.dsb_lists import generate

    def emit(line: dict) -> None:
        print(json.dumps({"db": vendor, "rows": args.rows, **line}), flush=True)

    generated, line = measure("generate", lambda: generate(args.rows, seed=args.seed))
    emit(line)
    folder = Path(tempfile.mkdtemp(prefix="dsb-bench-"))
    path = folder / "LV-0-csv_20260301.zip"
    path.write_bytes(generated.zip_bytes())
    dsb_list, line = measure("read", lambda: read_list(path), bytes=path.stat().st_size)
    emit(line)
    bar = ProgressBar(sys.stderr, "Import")
    progress = lambda label, done, total: bar(done, total)  # noqa: E731
    report, line = measure("import", lambda: dsb_list_import(dsb_list=dsb_list, progress=progress))
    emit({**line, "players": Player.objects.count(), "memberships": Membership.objects.count(),
          "start_values": report.start_values, "exit": report.exit_code})  # fmt: skip
    report, line = measure("reimport", lambda: dsb_list_import(dsb_list=read_list(path)))
    emit({**line, "unchanged": report.counts["unchanged"]})

    rng = random.Random(args.seed)
    rows = list(generated.players)
    clubs = [c for c in generated.clubs if not c.zps.endswith("00")]
    newer, gone = [], 0
    for row in rows:
        r = rng.random()
        if r < 0.01:
            gone += 1
            continue
        if r < 0.02:
            row = dataclasses.replace(
                row, zps=rng.choice(clubs).zps, member_number=f"9{rng.randint(0, 999):03d}"
            )
        elif r < 0.04:
            row = dataclasses.replace(row, surname=row.surname + "-Neu")
        newer.append(row)
    seen, unique = set(), []
    for row in newer:  # moved rows may collide with an existing member number: keep the first
        key = (row.zps, row.member_number)
        if key not in seen and (row.zps, row.person_id) not in seen:
            seen |= {key, (row.zps, row.person_id)}
            unique.append(row)
    later = folder / "LV-0-csv_20260901.zip"
    later.write_bytes(dataclasses.replace(generated, players=unique).zip_bytes())
    report, line = measure("newer", lambda: dsb_list_import(dsb_list=read_list(later)))
    emit({**line, "updated": report.counts["updated"], "ended": report.memberships_ended})
    problems, line = measure("verify", ratings_verify)
    emit({**line, "problems": len(problems)})


if __name__ == "__main__":
    main()
