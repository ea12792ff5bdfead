"""scripts/backup.py on SQLite: a backup restores into a fresh database with every row, and the restored
ratings pass ``recalculate --verify``; a copy with a wrong stored rating fails the check."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "backup.py"

TOURNAMENT = {
    "tournament": {"end_date": "2019-05-12"},
    "players": [
        {"id": "A", "name": "Müller, Hans", "dwz": 1850, "index": 3, "birth_year": 1980},
        {"id": "B", "name": "Groß, Greta", "dwz": 1700, "index": 5, "birth_year": 1990},
        {"id": "C", "name": "Neu, Nina", "birth_year": 2010},
    ],
    "games": [
        {"white": "A", "black": "B", "result": "1-0"},
        {"white": "B", "black": "C", "result": "1/2-1/2"},
        {"white": "C", "black": "A", "result": "0-1"},
    ],
}


def env_for(db: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k != "DATABASE_URL"}
    return {**clean, "DJANGO_DEBUG": "True", "DATABASE_URL": f"sqlite:///{db}"}


def run(db: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env_for(db), capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def source(tmp_path_factory, migrated_sqlite_template):
    """A migrated SQLite database with one evaluated tournament, built by the real commands."""
    folder = tmp_path_factory.mktemp("backup")
    db = folder / "site.sqlite3"
    shutil.copyfile(migrated_sqlite_template, db)
    data = folder / "turnier.json"
    data.write_text(json.dumps(TOURNAMENT), encoding="utf-8")
    result = run(db, "manage.py", "import_tournament", "--confirm", str(data))
    assert result.returncode == 0, result.stderr
    return db


def test_check_restores_into_a_fresh_database_and_verifies(source):
    result = run(source, str(SCRIPT), "check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Gespeicherter Stand = Neuberechnung." in result.stdout
    assert "backup restores: OK" in result.stdout


def test_backup_and_restore_commands(source, tmp_path):
    backup = tmp_path / "backup.sqlite3"
    assert run(source, str(SCRIPT), "backup", str(backup)).returncode == 0
    restored = tmp_path / "restored.sqlite3"
    assert run(restored, str(SCRIPT), "restore", str(backup)).returncode == 0
    query = 'SELECT surname, dwz, "index" FROM ratings_player ORDER BY surname'
    with sqlite3.connect(source) as a, sqlite3.connect(restored) as b:
        assert a.execute(query).fetchall() == b.execute(query).fetchall() != []
    # A restore never overwrites a database that is there.
    again = run(restored, str(SCRIPT), "restore", str(backup))
    assert again.returncode != 0 and "exists" in again.stderr


def test_check_fails_when_the_stored_ratings_do_not_verify(source, tmp_path):
    broken = tmp_path / "broken.sqlite3"
    with sqlite3.connect(source) as a, sqlite3.connect(broken) as b:
        a.backup(b)
        b.execute("UPDATE ratings_player SET dwz = dwz + 1 WHERE dwz IS NOT NULL")
    result = run(broken, str(SCRIPT), "check")
    assert result.returncode == 1
    assert "gespeicherte Werte weichen ab" in result.stderr
