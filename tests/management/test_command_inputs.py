"""Commands facing hostile files (issue 9 §3): exit 2 naming the field, never a traceback; ratings beyond the
old small-integer columns are stored; the import is committed before anything is printed."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from ratings.enums import AdjustmentKind
from ratings.models import AuditEvent, Evaluation, Player, RatingAdjustment, Tournament

ROOT = Path(__file__).resolve().parents[2]


def _two_players(**player) -> dict:
    return {
        "tournament": {"end_date": "2025-03-01", "name": "Test"},
        "players": [{"id": "A", "dwz": 1500, "index": 5, **player}, {"id": "B", "dwz": 1400, "index": 5}],
        "games": [{"white": "A", "black": "B", "result": "1-0"}],
    }


def _evaluate(tmp_path, text: str) -> tuple[int, str, str]:
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("dwz_evaluate", str(path), stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def _import_error(tmp_path, text: str) -> str:
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert exc.value.returncode == 2
    return str(exc.value)


HOSTILE = [
    # (JSON text, the field the message names)
    (
        json.dumps(_two_players()).replace('"dwz": 1500', '"dwz": ' + "9" * 4301),
        "players[0].dwz: must be an integer in 0-3000, got an integer of 4301 digits",
    ),
    (json.dumps(_two_players(name="\ud800")), "players[0].name: not valid Unicode"),
    (json.dumps(_two_players()).replace('"id": "A"', '"id": "A\\udc00"'), "players[0].id: not valid Unicode"),
    (json.dumps({**_two_players(), "\udfff": 1}), "a key is not valid Unicode"),
    (json.dumps(_two_players(dwz="1500")), "players[0].dwz: must be an integer"),
    (json.dumps(_two_players(index=[1])), "players[0].index: must be a non-negative integer"),
    (json.dumps(_two_players(birth_year={"y": 1})), "players[0].birth_year: must be an integer"),
]


@pytest.mark.parametrize(("text", "field"), HOSTILE)
def test_dwz_evaluate_exits_2_naming_the_field(tmp_path, text, field):
    code, out, err = _evaluate(tmp_path, text)
    assert (code, out) == (2, "")
    assert field in err


@pytest.mark.django_db
@pytest.mark.parametrize(("text", "field"), HOSTILE)
def test_import_tournament_exits_2_naming_the_field(tmp_path, text, field):
    assert field in _import_error(tmp_path, text)
    assert not Player.objects.exists()


def _marathon(games: int) -> dict:
    """A 1400 beats a 2000 ``games`` times (WO 2026: no upper bound; 1,000 wins give 32,856)."""
    return {
        "tournament": {"end_date": "2026-09-01", "name": "Marathon"},
        "players": [
            {"id": "LOW", "birth_year": 1980, "dwz": 1400, "index": 20},
            {"id": "HIGH", "birth_year": 1980, "dwz": 2000, "index": 20},
        ],
        "games": [{"white": "LOW", "black": "HIGH", "result": "1-0"}] * games,
    }


@pytest.mark.django_db
def test_a_rating_beyond_the_small_integer_range_is_stored(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(_marathon(1000)))
    call_command("import_tournament", str(path), stdout=io.StringIO())
    code, out, _err = _evaluate(tmp_path, json.dumps(_marathon(1000)))
    expected = json.loads(out)["players"][0]["dwz_new"]
    assert code == 0 and expected > 32767  # beyond PostgreSQL's smallint
    low = Player.objects.get(key="LOW")
    assert low.dwz == expected
    assert Evaluation.objects.get(player=low).dwz_new == expected
    call_command("recalculate", "--verify", stdout=io.StringIO())


@pytest.mark.django_db
def test_more_games_than_an_evaluation_row_holds_are_refused(tmp_path):
    message = _import_error(tmp_path, json.dumps(_marathon(10_000)))
    assert 'games: player "LOW" has 10000 games; at most 9999 per tournament' in message
    assert 'games: player "HIGH" has 10000 games' in message


@pytest.mark.django_db
def test_start_values_of_new_players_are_stored_with_their_audit(tmp_path):
    data = _two_players()
    data["players"].append({"id": "C", "fide_elo": 1800})
    data["games"].append({"white": "C", "black": "B", "result": "1/2-1/2"})
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    call_command("import_tournament", str(path), stdout=io.StringIO())
    starts = RatingAdjustment.objects.filter(kind=AdjustmentKind.START)
    assert sorted(starts.values_list("player__key", "dwz", "index", "fide_elo")) == [
        ("A", 1500, 5, None),
        ("B", 1400, 5, None),
        ("C", None, None, 1800),
    ]
    assert AuditEvent.objects.filter(object_type="adjustment").count() == 3
    call_command("recalculate", "--verify", stdout=io.StringIO())


class _GoneReader(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.django_db
def test_a_reader_that_goes_away_does_not_undo_the_import(tmp_path):
    """``import_tournament FILE | head -1``: the import is committed before the first line is printed."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_marathon(3)))
    call_command("import_tournament", str(path), stdout=_GoneReader())
    assert Tournament.objects.filter(name="Marathon").exists()


def test_dwz_evaluate_survives_a_reader_that_goes_away(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_marathon(3)))
    call_command("dwz_evaluate", str(path), stdout=_GoneReader())


def test_import_tournament_piped_into_head_keeps_the_import(tmp_path, migrated_sqlite):
    """The real pipe, in a process of its own on a SQLite file: no traceback, the tournament stays."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dwzsite.settings_test",
        "DATABASE_URL": f"sqlite:///{migrated_sqlite}",
    }
    manage = [sys.executable, "manage.py"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_marathon(3)))
    importer = subprocess.Popen(  # import_tournament FILE | head -c 1
        [*manage, "import_tournament", str(path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    head = subprocess.run(["head", "-c", "1"], stdin=importer.stdout, capture_output=True, check=True)
    importer.stdout.close()
    stderr = importer.stderr.read().decode()
    importer.wait()
    assert head.stdout, stderr
    assert "Traceback" not in stderr
    # Read straight from the file: a second Django process only to count cost about 0.6 s of CPU.
    with sqlite3.connect(migrated_sqlite) as db:
        assert db.execute("SELECT count(*) FROM ratings_tournament").fetchone() == (1,)
    db.close()


@pytest.mark.django_db
def test_import_dsb_list_exits_2_on_a_damaged_deflate_stream(tmp_path):
    from tests.dsb_lists import generate

    data = bytearray(generate(30, seed=1).zip_bytes())
    name_length = int.from_bytes(data[26:28], "little")
    extra_length = int.from_bytes(data[28:30], "little")
    start = 30 + name_length + extra_length  # the first member's compressed bytes
    for k in range(start + 2, start + 60):
        data[k] ^= 0x5A
    path = tmp_path / "LV-C-csv.zip"
    path.write_bytes(bytes(data))
    with pytest.raises(CommandError) as exc:
        call_command("import_dsb_list", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert exc.value.returncode == 2
    assert "kein lesbares Zip-Archiv" in str(exc.value)
