"""``manage.py dwz_evaluate`` (spec §13): round trips on the spec examples and exit 2 on bad input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from .builders import example, load_examples

ROOT = Path(__file__).resolve().parents[2]


def run(tmp_path, data, raw: str | None = None):
    path = tmp_path / "in.json"
    path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command("dwz_evaluate", str(path), stdout=out, stderr=err)
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("ex", load_examples(), ids=lambda e: e["id"])
def test_round_trip(tmp_path, ex):
    """No database needed: pytest-django would refuse any query in a test without the db mark."""
    code, out, err = run(tmp_path, ex["input"])
    assert (code, err) == (0, "")
    assert json.loads(out) == ex["output"]


def test_subprocess_stdin():
    ex = example("E9")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dwzsite.settings_test"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "dwz_evaluate", "-"],
        input=json.dumps(ex["input"]),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ex["output"]


def test_subprocess_bad_input_exit_2():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dwzsite.settings_test"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "dwz_evaluate", "-"],
        input="{bad",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.startswith("input: malformed JSON")


def _base():
    return {
        "tournament": {"end_date": "2020-05-01"},
        "players": [{"id": "A", "dwz": 1500}, {"id": "B", "dwz": 1400}],
        "games": [{"white": "A", "black": "B", "result": "1-0"}],
    }


def _with(mutate):
    data = _base()
    mutate(data)
    return data


BAD = [
    ("unknown player", lambda d: d["games"][0].update(black="X"), 'games[0].black: unknown player id "X"'),
    ("plays himself", lambda d: d["games"][0].update(black="A"), 'games[0]: player "A" plays himself'),
    ("unknown result", lambda d: d["games"][0].update(result="2-0"), 'games[0].result: unknown result "2-0"'),
    ("missing end date", lambda d: d["tournament"].pop("end_date"), "tournament.end_date: missing"),
    (
        "bad end date",
        lambda d: d["tournament"].update(end_date="2020-5-1"),
        "tournament.end_date: not a date",
    ),
    (
        "dwz too high",
        lambda d: d["players"][0].update(dwz=3001),
        "players[0].dwz: must be an integer in 0-3000",
    ),
    (
        "dwz negative",
        lambda d: d["players"][0].update(dwz=-5),
        "players[0].dwz: must be an integer in 0-3000",
    ),
    (
        "fide not int",
        lambda d: d["players"][0].update(fide_elo="x"),
        "players[0].fide_elo: must be an integer",
    ),
    (
        "index negative",
        lambda d: d["players"][0].update(index=-1),
        "players[0].index: must be a non-negative",
    ),
    (
        "birth year",
        lambda d: d["players"][0].update(birth_year="1990"),
        "players[0].birth_year: must be an integer",
    ),
    ("no id", lambda d: d["players"][0].pop("id"), "players[0].id: missing"),
    ("duplicate id", lambda d: d["players"][1].update(id="A"), 'players[1].id: duplicate id "A"'),
    (
        "restpartie score",
        lambda d: d["players"].append(
            {"id": "U", "restpartien": [{"opponent_rating": 1500, "score": 2, "end_date": "2019-01-01"}]}
        ),
        "players[2].restpartien[0].score: must be 0, 0.5 or 1",
    ),
    (
        "restpartie date",
        lambda d: d["players"].append(
            {"id": "U", "restpartien": [{"opponent_rating": 1500, "score": 1, "end_date": "x"}]}
        ),
        "players[2].restpartien[0].end_date: not a date",
    ),
    (
        "restpartie rating",
        lambda d: d["players"].append(
            {"id": "U", "restpartien": [{"opponent_rating": 3500, "score": 1, "end_date": "2019-01-01"}]}
        ),
        "players[2].restpartien[0].opponent_rating: must be an integer in 0-3000",
    ),
]


@pytest.mark.parametrize(("name", "mutate", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(tmp_path, name, mutate, message):
    code, out, err = run(tmp_path, _with(mutate))
    assert (code, out) == (2, "")
    # Renaming or dropping an id also orphans the game that uses it: that is a second, honest message.
    assert any(line.startswith(message) for line in err.splitlines()), err


def test_malformed_json(tmp_path):
    code, out, err = run(tmp_path, None, raw='{"tournament": ')
    assert (code, out) == (2, "")
    assert err.startswith("input: malformed JSON")


def test_one_line_per_problem(tmp_path):
    data = _base()
    data["games"].append({"white": "A", "black": "A", "result": "2-0"})
    data["players"][1]["dwz"] = 9999
    code, out, err = run(tmp_path, data)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 3


def test_missing_file(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("dwz_evaluate", str(tmp_path / "nope.json"), stdout=out, stderr=err)
    assert info.value.code == 2 and out.getvalue() == "" and "cannot read" in err.getvalue()


def test_deeply_nested_json_exits_2(tmp_path):
    code, out, err = run(tmp_path, None, raw="[" * 100_000 + "]" * 100_000)
    assert (code, out) == (2, "")
    assert "malformed JSON" in err


def test_utf8_bom_is_accepted(tmp_path):
    ex = example("E9")
    code, out, err = run(tmp_path, None, raw="\ufeff" + json.dumps(ex["input"]))
    assert (code, err) == (0, "")
    assert json.loads(out) == ex["output"]


def test_utf8_bom_on_stdin_is_accepted():
    ex = example("E9")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dwzsite.settings_test"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "dwz_evaluate", "-"],
        input="\ufeff" + json.dumps(ex["input"]),
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ex["output"]
