#!/usr/bin/env python3
"""Back up and restore the dwzsite database (SQLite or PostgreSQL), and check that a backup restores.

    .venv/bin/python scripts/backup.py backup FILE     # the database of DATABASE_URL (or db.sqlite3) to FILE
    .venv/bin/python scripts/backup.py restore FILE    # FILE into the database of DATABASE_URL (a fresh one)
    .venv/bin/python scripts/backup.py check           # backup, restore into a fresh database, verify there

SQLite uses SQLite's online backup (consistent while the site runs); PostgreSQL uses pg_dump's custom format
and pg_restore (the PostgreSQL client programs must be on the PATH). ``check`` restores into a new database
(a temporary file, or a new PostgreSQL database that is dropped afterwards), compares the row count of every
table with the original and runs ``manage.py recalculate --verify`` on the copy. Exit 0 when all holds.
See docs/operations.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = f"sqlite:///{ROOT / 'db.sqlite3'}"


def database_url() -> str:
    return os.environ.get("DATABASE_URL") or DEFAULT_URL


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite:")


def sqlite_path(url: str) -> Path:
    # sqlite:////abs/path and sqlite:///rel/path, as dj-database-url reads them.
    return Path(url.split(":///", 1)[1])


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def postgres_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


QUIET_PSQL = {**os.environ, "PGOPTIONS": "-c client_min_messages=warning"}


def run(command: list[str], check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    # The operator's own tools (pg_dump, psql, manage.py), arguments from DATABASE_URL: nothing untrusted.
    return subprocess.run(command, check=check, **kwargs)  # noqa: S603


# --- backup and restore ------------------------------------------------------------------------------------


def backup(url: str, target: Path) -> None:
    if is_sqlite(url):
        source = sqlite3.connect(f"file:{sqlite_path(url)}?mode=ro", uri=True)
        copy = sqlite3.connect(target)
        with copy:
            source.backup(copy)
        copy.close()
        source.close()
    else:
        run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={target}", url])


def restore(url: str, source: Path) -> None:
    if is_sqlite(url):
        path = sqlite_path(url)
        if path.exists() and path.stat().st_size:
            raise SystemExit(f"{path} exists: restore into a new file (or move the old one away first)")
        backup_db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        target = sqlite3.connect(path)
        with target:
            backup_db.backup(target)
        target.close()
        backup_db.close()
    else:
        run(
            ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", f"--dbname={url}", str(source)]
        )
        # A dump carries no planner statistics: until autovacuum gets round to it (or never, where it is off)
        # PostgreSQL plans the big tables blind and the rating list, club and tournament pages scan them.
        run(["psql", "-q", "-d", url, "-c", "ANALYZE"], env=QUIET_PSQL)


# --- check -------------------------------------------------------------------------------------------------


def table_counts(url: str) -> dict[str, int]:
    """Rows per table, read through Django in a child process (so this script needs no settings)."""
    code = (
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    for t in sorted(connection.introspection.table_names()):\n"
        "        c.execute('SELECT COUNT(*) FROM ' + connection.ops.quote_name(t))\n"
        "        print(t, c.fetchone()[0])\n"
    )
    out = manage(url, "shell", "--no-imports", "-v", "0", "-c", code, capture_output=True).stdout
    return {name: int(count) for name, count in (line.split() for line in out.splitlines())}


def manage(url: str, *args: str, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url}
    if not env.get("DJANGO_SECRET_KEY"):
        env.setdefault("DJANGO_DEBUG", "True")
    return run([sys.executable, str(ROOT / "manage.py"), *args], env=env, text=True, **kwargs)


def check(url: str) -> int:
    work = Path(tempfile.mkdtemp(prefix="dwz-backup-check-"))
    fresh_name = None
    try:
        started = time.monotonic()
        dump = work / ("backup.sqlite3" if is_sqlite(url) else "backup.dump")
        backup(url, dump)
        print(f"backup: {dump.stat().st_size:,} bytes in {time.monotonic() - started:.1f} s")

        if is_sqlite(url):
            fresh = f"sqlite:///{work / 'restored.sqlite3'}"
        else:
            fresh_name = f"{postgres_name(url)}_restore_check"
            admin = with_database(url, "postgres")
            run(["psql", "-q", "-d", admin, "-c", f'DROP DATABASE IF EXISTS "{fresh_name}"'], env=QUIET_PSQL)
            run(["psql", "-q", "-d", admin, "-c", f'CREATE DATABASE "{fresh_name}"'], env=QUIET_PSQL)
            fresh = with_database(url, fresh_name)
        started = time.monotonic()
        restore(fresh, dump)
        print(f"restore into a fresh database: {time.monotonic() - started:.1f} s")

        original, restored = table_counts(url), table_counts(fresh)
        differing = {t: (original.get(t), restored.get(t)) for t in original.keys() | restored.keys()}
        differing = {t: counts for t, counts in differing.items() if counts[0] != counts[1]}
        print(f"tables: {len(restored)}, rows: {sum(restored.values()):,}")
        for table, (before, after) in sorted(differing.items()):
            print(f"  {table}: {before} rows in the original, {after} in the restored copy")

        started = time.monotonic()
        verify = manage(fresh, "recalculate", "--verify", capture_output=True)
        print(
            f"recalculate --verify on the copy: {verify.stdout.strip()} ({time.monotonic() - started:.1f} s)"
        )
        ok = not differing
        print("backup restores: OK" if ok else "backup restores: DIFFERENCES")
        return 0 if ok else 1
    except subprocess.CalledProcessError as exc:
        print(f"failed: {' '.join(map(str, exc.cmd[:3]))} … exited {exc.returncode}", file=sys.stderr)
        for stream in (exc.stdout, exc.stderr):
            if stream:
                print(stream, file=sys.stderr)
        return 1
    finally:
        if fresh_name:
            admin = with_database(url, "postgres")
            drop = f'DROP DATABASE IF EXISTS "{fresh_name}"'
            run(["psql", "-q", "-d", admin, "-c", drop], check=False, env=QUIET_PSQL)
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("backup").add_argument("file", type=Path)
    commands.add_parser("restore").add_argument("file", type=Path)
    commands.add_parser("check")
    args = parser.parse_args()
    url = database_url()
    if args.command == "backup":
        backup(url, args.file)
        print(f"{args.file}: {args.file.stat().st_size:,} bytes")
    elif args.command == "restore":
        restore(url, args.file)
        print(f"restored {args.file}")
    else:
        return check(url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
