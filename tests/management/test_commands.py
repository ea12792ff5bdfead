import datetime
import io
import itertools
import json
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.enums import AdjustmentKind
from ratings.models import Evaluation, Membership, Player, RatingAdjustment, Tournament
from tests.builders import snapshot
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

RESULTS = ("1-0", "0-1", "1/2-1/2", "1-0", "0-1", "1/2-1/2", "+-")


def _files(tmp_path, n=30, seed=1):
    """n tournament files over 2024-2026 drawn from 40 players (some rated, some FIDE, some new members)."""
    rng = random.Random(seed)
    people = []
    for i in range(40):
        p = {
            "id": f"C0501-{i + 1:04d}",
            "name": f"Spieler{i}, Vorname",
            "birth_year": rng.randint(1950, 2016),
        }
        if i % 5 == 4:
            p["club"] = "C0501"
        elif i % 9 == 3:
            p["fide_elo"] = rng.randint(1700, 2300)
        else:
            p["dwz"], p["index"] = rng.randint(800, 2200), rng.randint(0, 50)
        people.append(p)
    files = []
    day = datetime.date(2024, 1, 7)
    for j in range(n):
        day += datetime.timedelta(days=rng.randint(10, 35))
        players = rng.sample(people, rng.randint(4, 9))
        games = [
            {"white": a["id"], "black": b["id"], "result": rng.choice(RESULTS)}
            for a, b in itertools.combinations(players, 2)
        ]
        iso = day.isocalendar()
        code = f"C{iso.year % 10}{iso.week:02d}-C05-{j:03d}"
        data = {
            "tournament": {"code": code, "name": f"Turnier {j}", "end_date": day.isoformat()},
            "players": players,
            "games": games,
        }
        path = tmp_path / f"t{j:02d}.json"
        path.write_text(json.dumps(data))
        files.append(path)
    return files


def _import(*paths, **kwargs):
    out = io.StringIO()
    call_command("import_tournament", *[str(p) for p in paths], stdout=out, **kwargs)
    return out.getvalue()


def _wipe():
    Tournament.objects.all().delete()
    Membership.objects.all().delete()
    Player.objects.all().delete()


def test_out_of_order_import_equals_in_order_import(tmp_path):
    ClubFactory(zps="C0501")
    files = _files(tmp_path)
    for path in files:
        _import(path)
    in_order = snapshot()
    assert Evaluation.objects.filter(status="first").exists()  # the newcomers got first ratings
    _wipe()
    shuffled = files[:]
    random.Random(2).shuffle(shuffled)
    for path in shuffled:
        _import(path)
    assert snapshot() == in_order
    call_command("recalculate", "--verify", stdout=io.StringIO())


def test_start_value_is_the_state_before_the_first_evaluation(tmp_path):
    ClubFactory(zps="C0501")
    a = {"id": "A", "dwz": 1000, "index": 5, "birth_year": 2003}
    b = {"id": "B", "dwz": 1200, "index": 5, "birth_year": 2003}
    late = {
        "tournament": {"end_date": "2018-12-15"},
        "players": [{**a, "dwz": 1500}, b],
        "games": [{"white": "A", "black": "B", "result": "1/2-1/2"}],
    }
    early = {
        "tournament": {"end_date": "2018-11-15"},
        "players": [a, {**b, "dwz": 999}],
        "games": [{"white": "A", "black": "B", "result": "1-0"}],
    }
    (tmp_path / "late.json").write_text(json.dumps(late))
    (tmp_path / "early.json").write_text(json.dumps(early))
    _import(tmp_path / "late.json")
    _import(tmp_path / "early.json")  # A is known now: his 1000 in this file is ignored
    a_row = Player.objects.get(key="A")
    start = RatingAdjustment.objects.get(player=a_row, kind=AdjustmentKind.START)
    assert (start.dwz, start.index) == (1500, 5)
    first = Evaluation.objects.get(player=a_row, end_date=datetime.date(2018, 11, 15))
    assert first.dwz_old == 1500  # the start value applies before his first evaluation, wherever it is


def test_bad_file_exits_2_naming_the_field_and_saves_nothing(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps(
            {
                "tournament": {"end_date": "2024-01-01"},
                "players": [{"id": "A"}, {"id": "B"}],
                "games": [{"white": "A", "black": "B", "result": "1-0"}],
            }
        )
    )
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "tournament": {"end_date": "2024-01-01"},
                "players": [{"id": "A", "club": "X9999"}],
                "games": [{"white": "A", "black": "A", "result": "2-0"}],
            }
        )
    )
    with pytest.raises(CommandError) as exc:
        _import(good, bad)
    assert exc.value.returncode == 2
    assert "players[0].club" in str(exc.value)
    assert "games[0].result" in str(exc.value)
    assert not Player.objects.exists()
    assert not Tournament.objects.exists()


def test_dry_run_shows_the_evaluation_and_saves_nothing(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {
                "tournament": {"end_date": "2018-11-15", "name": "Probe"},
                "players": [
                    {"id": "A", "dwz": 1000, "index": 5, "birth_year": 2003},
                    {"id": "B", "dwz": 1200, "index": 5, "birth_year": 2003},
                ],
                "games": [{"white": "A", "black": "B", "result": "1-0"}],
            }
        )
    )
    out = _import(path, dry_run=True)
    assert "1000 → 1101" in out and "1200 → 1132" in out
    assert not Player.objects.exists()


def test_export_lists_current_ratings(tmp_path):
    club = ClubFactory(zps="C0501")
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {
                "tournament": {"end_date": "2018-11-15"},
                "players": [
                    {
                        "id": "A",
                        "name": "Alt, Anna",
                        "dwz": 1000,
                        "index": 5,
                        "birth_year": 2003,
                        "club": club.zps,
                    },
                    {"id": "B", "dwz": 1200, "index": 5, "birth_year": 2003},
                ],
                "games": [{"white": "A", "black": "B", "result": "1-0"}],
            }
        )
    )
    _import(path)
    out = io.StringIO()
    call_command("export_ratings", "--format", "json", stdout=out)
    rows = json.loads(out.getvalue())
    assert rows[0] == {
        "id": "B",
        "name": "B",
        "club": None,
        "dwz": 1132,
        "index": 6,
        "last_evaluation": "2018-11-15",
    }
    assert rows[1]["id"] == "A" and rows[1]["club"] == "C0501" and rows[1]["name"] == "Alt, Anna"
    out = io.StringIO()
    call_command("export_ratings", "--format", "csv", stdout=out)
    assert out.getvalue().splitlines()[0] == "id,name,club,dwz,index,last_evaluation"
    assert 'A,"Alt, Anna",C0501,1101,6,2018-11-15' in out.getvalue()


def test_recalculate_verify_exits_1_listing_differences(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {
                "tournament": {"end_date": "2018-11-15"},
                "players": [
                    {"id": "A", "dwz": 1000, "index": 5, "birth_year": 2003},
                    {"id": "B", "dwz": 1200, "index": 5, "birth_year": 2003},
                ],
                "games": [{"white": "A", "black": "B", "result": "1-0"}],
            }
        )
    )
    _import(path)
    Evaluation.objects.filter(player__key="A").update(dwz_new=1111)
    out = io.StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("recalculate", "--verify", stdout=out)
    assert exc.value.returncode == 1
    assert "dwz_new stored 1111, replay 1101" in out.getvalue()
    call_command("recalculate", stdout=io.StringIO())
    call_command("recalculate", "--verify", stdout=io.StringIO())
    call_command("recalculate", "--from", "2018-01-01", stdout=io.StringIO())
    assert Evaluation.objects.get(player__key="A").dwz_new == 1101
    # Nothing changed since: the stored rows are taken as they are, unless --no-reuse.
    out = io.StringIO()
    call_command("recalculate", stdout=out)
    assert "1 Turniere, 2 Auswertungen (davon 2 unverändert übernommen)" in out.getvalue()
    out = io.StringIO()
    call_command("recalculate", "--no-reuse", stdout=out)
    assert "1 Turniere, 2 Auswertungen in" in out.getvalue()
    # After the upgrade that added entry ratings, stored rows have NULL until one full recalculation.
    Evaluation.objects.update(entry_rating=None)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("recalculate", "--verify", stdout=out)
    assert "entry_rating stored None, replay 1200" in out.getvalue()
    call_command("recalculate", stdout=io.StringIO())
    call_command("recalculate", "--verify", stdout=io.StringIO())
    assert Evaluation.objects.get(player__key="B").entry_rating == 1200


def _bad_import(tmp_path, tournament=None, **player):
    """Import one file whose first player carries ``player``; return the CommandError (exit 2 expected)."""
    ClubFactory(zps="C0501")
    data = {
        "tournament": {"end_date": "2024-01-01", **(tournament or {})},
        "players": [{"id": "A", **player}, {"id": "B"}],
        "games": [{"white": "A", "black": "B", "result": "1-0"}],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as exc:
        _import(path)
    assert exc.value.returncode == 2
    assert not Player.objects.exists()
    assert not Tournament.objects.exists()
    return str(exc.value)


@pytest.mark.parametrize(
    ("player", "field"),
    [
        ({"club": ["C0501"]}, "players[0].club"),
        ({"club": {"zps": "C0501"}}, "players[0].club"),
        ({"club": "not-a-zps"}, "players[0].club"),
        ({"club": "C0999"}, "players[0].club"),
        ({"birth_year": -5}, "players[0].birth_year"),
        ({"birth_year": 1000000000}, "players[0].birth_year"),
        ({"birth_year": 1899}, "players[0].birth_year"),
        ({"birth_year": datetime.date.today().year + 1}, "players[0].birth_year"),
        ({"name": "X" * 101}, "players[0].name"),
        ({"name": "Meier, " + "X" * 101}, "players[0].name"),
        ({"name": "Mei\x00er"}, "players[0].name"),
        ({"name": 5}, "players[0].name"),
        ({"id": "A\x00"}, "players[0].id"),
        ({"sex": "x"}, "players[0].sex"),
        ({"sex": ["m"]}, "players[0].sex"),
        ({"dwz": 1500, "index": 100000}, "players[0].index"),
    ],
)
def test_bad_player_field_exits_2_naming_it(tmp_path, player, field):
    message = _bad_import(tmp_path, **player)
    if "id" in player:  # the games name "A": they now point at an unknown id as well
        assert field in message
    else:
        assert f"bad.json: {field}:" in message


@pytest.mark.parametrize(
    ("tournament", "field"),
    [
        ({"code": 5}, "tournament.code"),
        ({"code": "ABC"}, "tournament.code"),
        ({"code": "C401-C05-VM\x00"}, "tournament.code"),
        ({"name": 5}, "tournament.name"),
        ({"name": "T" * 201}, "tournament.name"),
        ({"name": "T\x00"}, "tournament.name"),
        ({"place": "P\x00"}, "tournament.place"),
        ({"place": 5}, "tournament.place"),
        ({"start_date": "2023-13-45"}, "tournament.start_date"),
    ],
)
def test_bad_tournament_field_exits_2_naming_it(tmp_path, tournament, field):
    assert f"bad.json: {field}:" in _bad_import(tmp_path, tournament=tournament)


def test_all_problems_of_a_file_are_reported_together(tmp_path):
    message = _bad_import(tmp_path, {"name": 5}, club=["C0501"], birth_year=-5, sex="q")
    for field in ("tournament.name", "players[0].club", "players[0].birth_year", "players[0].sex"):
        assert field in message


def test_valid_stored_fields_are_imported(tmp_path):
    ClubFactory(zps="C0501")
    path = tmp_path / "ok.json"
    name = "M" * 100 + ", " + "V" * 100
    data = {
        "tournament": {"code": "C401-C05-VM1", "name": "T" * 200, "place": "Ort", "end_date": "2024-01-01"},
        "players": [{"id": "A", "name": name, "birth_year": 1900, "sex": "w", "club": "C0501"}, {"id": "B"}],
        "games": [{"white": "A", "black": "B", "result": "1-0", "round": 40000}],
    }
    path.write_text(json.dumps(data))
    _import(path)
    a = Player.objects.get(key="A")
    assert (len(a.surname), len(a.first_name), a.birth_year, a.sex) == (100, 100, 1900, "w")
    assert Membership.objects.filter(player=a, club__zps="C0501").exists()
    assert Tournament.objects.get().games.get().round == 1  # an out-of-range round is packed


def test_deeply_nested_json_exits_2(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CommandError) as exc:
        _import(path)
    assert exc.value.returncode == 2
    assert "deep.json: cannot read JSON: malformed JSON" in str(exc.value)


def test_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    data = {
        "tournament": {"end_date": "2024-01-01", "name": "Größe"},
        "players": [{"id": "A", "name": "Müller, Jörg"}, {"id": "B"}],
        "games": [{"white": "A", "black": "B", "result": "1-0"}],
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8-sig")
    _import(path)
    assert Player.objects.get(key="A").name == "Müller, Jörg"
    assert Tournament.objects.get().name == "Größe"


@pytest.mark.parametrize("since", ["", " ", "2024-13-01"])
def test_recalculate_from_rejects_a_non_date(since):
    with pytest.raises(CommandError) as exc:
        call_command("recalculate", "--from", since, stdout=io.StringIO())
    assert exc.value.returncode == 2
    assert "--from" in str(exc.value) and "YYYY-MM-DD" in str(exc.value)


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_into_a_closed_pipe_exits_quietly(migrated_sqlite, fmt):
    """``export_ratings | head``: the reader leaves early; no BrokenPipeError traceback (a real pipe and a
    real, migrated SQLite file: the subprocess cannot see the test database)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dwzsite.settings_test",
        "DATABASE_URL": f"sqlite:///{migrated_sqlite}",
    }
    manage = [sys.executable, "manage.py"]
    proc = subprocess.Popen(
        [*manage, "export_ratings", "--all", "--format", fmt],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader is gone before the first line
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0, err
    assert "BrokenPipe" not in err and "Traceback" not in err
