"""import_trf and import_tournament print every plausibility warning and save nothing (exit 3) unless
``--allow-duplicate`` (a likely duplicate) and ``--confirm`` (the others) say so (issue 26 §2–3)."""

import datetime
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.models import Evaluation, Game, Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.plausibility]

DATA = Path(__file__).resolve().parents[1] / "data" / "trf"
KARL_MALA = DATA / "fide-example1-karl-mala-2005.trf"


def _run(command, *args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(command, *[str(a) for a in args], stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), err.getvalue() + str(exc)
    return 0, out.getvalue(), err.getvalue()


def _counts():
    return (
        Tournament.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Evaluation.objects.count(),
    )


def test_import_trf_asks_for_the_old_end_date_and_then_for_the_same_file():
    code, _out, err = _run("import_trf", KARL_MALA, "--create-unknown")
    assert code == 3 and _counts() == (0, 0, 0, 0)
    assert "Das Turnierende 31.07.2005 liegt mehr als ein Jahr zurück" in err
    assert "(bestätigen mit --confirm)" in err and "Nicht gespeichert" in err

    code, out, _err = _run("import_trf", KARL_MALA, "--create-unknown", "--confirm")
    assert code == 0 and "Warnung: Das Turnierende" in out
    first = Tournament.objects.get()
    assert first.time_control == "40/120, 60"  # record 122; 180 minutes: no warning about it
    counts = _counts()

    # The same file again (the case: every player found by FIDE id, every game identical).
    code, _out, err = _run("import_trf", KARL_MALA, "--confirm")
    assert code == 3 and _counts() == counts
    assert "Diese Datei wurde schon als „9. Karl-Mala-Gedenkturnier“" in err
    assert f"/turniere/{first.pk}/" in err and "(bestätigen mit --allow-duplicate)" in err

    code, _out, _err = _run("import_trf", KARL_MALA, "--confirm", "--allow-duplicate")
    assert code == 0 and Tournament.objects.count() == 2  # saved as asked: nothing merged or dropped


def test_import_trf_finds_the_same_tournament_in_another_file(tmp_path):
    """Another export of the same tournament (another name, so another digest): same dates, the players
    found by FIDE id, every game identical."""
    assert _run("import_trf", KARL_MALA, "--create-unknown", "--confirm")[0] == 0
    first = Tournament.objects.get()
    other = tmp_path / "karl-mala-export.trf"
    other.write_bytes(KARL_MALA.read_bytes().replace(b"012 9. Karl-Mala", b"012 Karl-Mala", 1))
    code, _out, err = _run("import_trf", other, "--confirm")
    assert code == 3 and Tournament.objects.count() == 1
    assert "Wahrscheinlich dasselbe Turnier wie „9. Karl-Mala-Gedenkturnier“ (31.07.2005)" in err
    assert "Diese Datei wurde schon" not in err and f"/turniere/{first.pk}/" in err


def test_import_trf_takes_the_time_control_from_the_command_line(tmp_path):
    five = tmp_path / "blitz.trf"
    five.write_bytes((DATA / "lichess-swiss-2020-06.trf").read_bytes())
    code, _out, err = _run("import_trf", five, "--create-unknown", "--confirm", "--time-control", "5+0")
    assert code == 0 and Tournament.objects.get().time_control == "5+0"
    code, _out, err = _run("import_trf", five, "--create-unknown", "--allow-duplicate")
    assert code == 3 and "Keine Bedenkzeit angegeben" in err and Tournament.objects.count() == 1


def _json(tmp_path, name="t.json", **head):
    end = datetime.date.today() - datetime.timedelta(days=5)
    data = {
        "tournament": {"name": "Stadtmeisterschaft", "end_date": end.isoformat(), **head},
        "players": [
            {"id": "A-1", "name": "Alpha, Anna", "birth_year": 1980, "dwz": 1600, "index": 5},
            {"id": "B-1", "name": "Beta, Bernd", "birth_year": 1975, "dwz": 1500, "index": 5},
            {"id": "C-1", "name": "Gamma, Gerd", "birth_year": 1990, "dwz": 1400, "index": 5},
        ],
        "games": [
            {"white": "A-1", "black": "B-1", "result": "1-0"},
            {"white": "A-1", "black": "C-1", "result": "1/2-1/2"},
            {"white": "B-1", "black": "C-1", "result": "0-1"},
        ],
    }
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_import_tournament_saves_a_plausible_file_at_once(tmp_path):
    code, out, _err = _run("import_tournament", _json(tmp_path, time_control="90 min + 30 s"))
    assert code == 0 and "Warnung" not in out
    assert Tournament.objects.get().time_control == "90 min + 30 s"


def test_import_tournament_refuses_the_same_file_twice(tmp_path):
    path = _json(tmp_path, time_control="90 min + 30 s")
    assert _run("import_tournament", path)[0] == 0
    counts = _counts()
    code, _out, err = _run("import_tournament", path)
    assert code == 3 and _counts() == counts
    assert "Diese Datei wurde schon als „Stadtmeisterschaft“" in err
    assert _run("import_tournament", path, "--allow-duplicate")[0] == 0
    assert Tournament.objects.count() == 2


def test_import_tournament_refuses_a_future_end_date_and_a_short_time_control(tmp_path):
    future = (datetime.date.today() + datetime.timedelta(days=400)).isoformat()
    path = _json(tmp_path, end_date=future, time_control="15 min + 10 s")
    code, _out, err = _run("import_tournament", path)
    assert code == 3 and _counts() == (0, 0, 0, 0)
    assert "liegt in der Zukunft" in err and "25 Minuten je Spieler" in err
    assert _run("import_tournament", path, "--allow-duplicate")[0] == 3  # not a duplicate: --confirm
    assert _run("import_tournament", path, "--confirm")[0] == 0


def test_a_file_given_twice_in_one_run_is_a_duplicate_and_nothing_is_saved(tmp_path):
    path = _json(tmp_path, time_control="90 min + 30 s")
    code, _out, err = _run("import_tournament", path, path)
    assert code == 3 and _counts() == (0, 0, 0, 0)
    assert "Diese Datei wurde schon" in err


def test_a_bad_time_control_type_is_bad_input(tmp_path):
    code, _out, err = _run("import_tournament", _json(tmp_path, time_control=90))
    assert code == 2 and "tournament.time_control: must be a string" in err
