"""The JSON contract (spec §13): validation messages and the output format, without Django."""

from __future__ import annotations

import copy

import pytest

from ratings.dwz import evaluate
from ratings.dwz.contract import ContractError, parse_json_text, parse_tournament, result_to_json

from .builders import example

BASE = {
    "tournament": {"code": None, "name": "t", "end_date": "2020-05-01"},
    "players": [{"id": "A", "dwz": 1500, "index": 3}, {"id": "B", "dwz": 1400}],
    "games": [{"white": "A", "black": "B", "result": "1-0"}],
}


def errors_of(data) -> list[str]:
    with pytest.raises(ContractError) as info:
        parse_tournament(data)
    return info.value.messages


def changed(path: str, value):
    """BASE with one value replaced; path like 'players.0.dwz'; value ... = delete the key."""
    data = copy.deepcopy(BASE)
    *parents, last = path.split(".")
    node = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is ...:
        del node[last]
    else:
        node[int(last) if isinstance(node, list) else last] = value
    return data


def test_base_is_valid():
    t = parse_tournament(BASE)
    assert [p.id for p in t.players] == ["A", "B"] and t.games[0].result == "1-0"


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("tournament.end_date", ..., "tournament.end_date: missing"),
        ("tournament.end_date", "2020-02-30", "tournament.end_date: invalid date"),
        ("tournament.end_date", "01.05.2020", "tournament.end_date: not a date"),
        ("tournament", ..., "tournament.end_date: missing"),
        ("players.0.id", ..., "players[0].id: missing"),
        ("players.0.id", 7, "players[0].id: not a string"),
        ("players.1.id", "A", 'players[1].id: duplicate id "A"'),
        ("players.0.dwz", 3001, "players[0].dwz: must be an integer in 0-3000"),
        ("players.0.dwz", -1, "players[0].dwz: must be an integer in 0-3000"),
        ("players.0.dwz", "1500", "players[0].dwz: must be an integer"),
        ("players.0.dwz", 1500.5, "players[0].dwz: must be an integer"),
        ("players.0.dwz", True, "players[0].dwz: must be an integer"),
        ("players.0.fide_elo", 4000, "players[0].fide_elo: must be an integer in 0-3000"),
        ("players.0.index", -1, "players[0].index: must be a non-negative integer"),
        ("players.0.index", 2.5, "players[0].index: must be a non-negative integer"),
        ("players.0.birth_year", "1990", "players[0].birth_year: must be an integer"),
        ("players.1.restpartien", "x", "players[1].restpartien: must be a list"),
        ("players.1.member", "no", 'players[1].member: must be true or false, got "no"'),
        ("players.1.member", 0, "players[1].member: must be true or false, got 0"),
        ("games.0.white", "X", 'games[0].white: unknown player id "X"'),
        ("games.0.black", ..., "games[0].black: missing"),
        ("games.0.black", "A", 'games[0]: player "A" plays himself'),
        ("games.0.result", "2-0", 'games[0].result: unknown result "2-0"'),
        ("games.0.result", ..., "games[0].result: missing"),
        ("players", ..., "players: missing"),
        ("games", {}, "games: must be a list"),
    ],
)
def test_bad_input_names_the_field(path, value, message):
    assert any(m.startswith(message) for m in errors_of(changed(path, value))), errors_of(
        changed(path, value)
    )


@pytest.mark.parametrize(
    ("rp", "message"),
    [
        (
            {"opponent_rating": 3100, "score": 1, "end_date": "2019-01-01"},
            ".opponent_rating: must be an integer",
        ),
        ({"score": 1, "end_date": "2019-01-01"}, ".opponent_rating: missing"),
        ({"opponent_rating": 1500, "score": 0.25, "end_date": "2019-01-01"}, ".score: must be 0, 0.5 or 1"),
        ({"opponent_rating": 1500, "score": "1", "end_date": "2019-01-01"}, ".score: must be 0, 0.5 or 1"),
        ({"opponent_rating": 1500, "score": 1, "end_date": "2019-13-01"}, ".end_date: invalid date"),
        ({"opponent_rating": 1500, "score": 1}, ".end_date: missing"),
    ],
)
def test_bad_restpartie(rp, message):
    data = copy.deepcopy(BASE)
    data["players"].append({"id": "U", "restpartien": [rp]})
    assert any(m.startswith("players[2].restpartien[0]" + message) for m in errors_of(data))


def test_all_problems_are_collected():
    data = changed("games.0.result", "2-0")
    data["players"][0]["dwz"] = 5000
    del data["tournament"]["end_date"]
    assert len(errors_of(data)) == 3


def test_malformed_json():
    with pytest.raises(ContractError) as info:
        parse_json_text("{bad")
    assert info.value.messages[0].startswith("input: malformed JSON")


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000])
def test_deeply_nested_json_is_malformed_not_a_crash(text):
    with pytest.raises(ContractError) as info:
        parse_json_text(text)
    assert info.value.messages == ["input: malformed JSON: nested too deeply"]


def test_not_an_object():
    assert errors_of([1, 2]) == ["input: must be a JSON object with tournament, players and games"]


def test_unknown_keys_ignored_and_optional_keys_default():
    data = copy.deepcopy(BASE)
    data["extra"] = 1
    data["players"][0]["club"] = "x"
    data["players"].append({"id": "C"})
    assert parse_tournament(data).players[2].dwz is None


def test_index_and_restpartien_only_where_they_mean_something():
    data = copy.deepcopy(BASE)
    data["players"].append(
        {
            "id": "U",
            "index": 5,
            "restpartien": [{"opponent_rating": 1500, "score": 0.5, "end_date": "2019-01-01"}],
        }
    )
    data["players"].append(
        {
            "id": "F",
            "fide_elo": 2000,
            "restpartien": [{"opponent_rating": 1500, "score": 1, "end_date": "2019-01-01"}],
        }
    )
    t = parse_tournament(data)
    assert t.players[2].index is None and len(t.players[2].restpartien) == 1
    assert t.players[3].restpartien == ()


def test_output_format_numbers():
    """points/expected with 3 decimals as numbers, E as int, K as a 1-decimal number, all keys present."""
    out = result_to_json(evaluate(parse_tournament(example("E11")["input"])))
    keys = {
        "id",
        "status",
        "dwz_old",
        "index_old",
        "n",
        "points",
        "expected",
        "coefficient",
        "level",
        "performance",
        "dwz_new",
        "index_new",
        "restpartien",
    }
    assert all(set(p) == keys for p in out["players"])
    y = next(p for p in out["players"] if p["id"] == "Y")
    assert y["coefficient"] == 80.0 and isinstance(y["coefficient"], float)
    out = result_to_json(evaluate(parse_tournament(example("E9")["input"])))
    r1 = out["players"][0]
    assert (r1["points"], r1["expected"], r1["coefficient"]) == (4.5, 3.663, 24) and isinstance(
        r1["coefficient"], int
    )


def test_member_false_gives_a_non_member_row_with_the_entry_rating():
    """WO 3.4.3: B (not a DSB member) takes part, gets no DWZ; the row says so and shows the rating A met."""
    assert [p.member for p in parse_tournament(BASE).players] == [True, True]
    assert [p.member for p in parse_tournament(changed("players.1.member", None)).players] == [True, True]
    out = result_to_json(evaluate(parse_tournament(changed("players.1.member", False))))
    a, b = out["players"]
    assert (
        "entry_rating" not in a
        and a["dwz_new"] == result_to_json(evaluate(parse_tournament(BASE)))["players"][0]["dwz_new"]
    )
    assert b == {
        "id": "B", "status": "non_member", "dwz_old": 1400, "index_old": 0, "n": 1, "points": 0,
        "expected": 0.362, "coefficient": None, "level": 1500, "performance": None, "dwz_new": None,
        "index_new": None, "restpartien": [], "entry_rating": 1400,
    }  # fmt: skip
