"""The league import contract: a valid document, and every problem named by its JSON path (all or nothing)."""

from __future__ import annotations

import copy
import datetime
import json

import pytest

from leagues.core.contract import ContractError, parse_json_text, parse_league
from leagues.core.types import Board, Match, MatchPoints, MatchStatus

DOC = {
    "season": {"name": "2025/26", "organisation": "C05", "reference_date": "2025-08-01"},
    "division": {
        "name": "Bezirksliga Nord",
        "boards": 2,
        "rounds": 2,
        "cycles": 2,
        "match_points": {"win": 2, "draw": 1, "loss": 0},
        "time_control": "90/40+30+30s",
    },
    "players": [
        {"id": "a1", "name": "Alpha, Anna", "birth_year": 1990, "dwz": 1800, "index": 40, "fide_elo": None},
        {"id": "a2", "name": "Alpha, Bert", "birth_year": 1985, "dwz": 1700, "index": 30, "fide_elo": None},
        {"id": "b1", "name": "Beta, Carl", "birth_year": 2001, "dwz": None, "index": None, "fide_elo": 1750},
        {"id": "b2", "name": "Beta, Dora", "birth_year": None, "dwz": 1500, "index": 5, "fide_elo": None},
    ],
    "teams": [
        {"id": "A", "name": "SK Alpha 2", "club": "C0501", "line_up": ["a1", "a2"]},
        {"id": "B", "name": "SV Beta", "club": None, "line_up": ["b1", "b2"]},
    ],
    "matches": [
        {
            "round": 1,
            "date": "2025-09-14",
            "home": "A",
            "away": "B",
            "status": "played",
            "boards": [
                {"board": 1, "home": "a1", "away": "b1", "result": "1-0", "rated_result": None},
                {"board": 2, "home": "a2", "away": None, "result": "+-"},
            ],
        },
        {"round": 2, "date": "2025-10-05", "home": "B", "away": "A", "status": "home_forfeit", "boards": []},
    ],
}


def errors_of(doc: object) -> list[str]:
    with pytest.raises(ContractError) as info:
        parse_league(doc)
    return info.value.messages


def test_valid_document():
    league = parse_league(DOC)
    assert league.season.name == "2025/26" and league.season.reference_date == datetime.date(2025, 8, 1)
    assert league.division.points == MatchPoints(2, 1, 0) and league.division.cycles == 2
    assert [p.id for p in league.players] == ["a1", "a2", "b1", "b2"]
    assert league.names["b2"] == "Beta, Dora"
    assert [(t.id, t.number, t.club) for t in league.teams] == [("A", 2, "C0501"), ("B", 1, None)]
    assert league.teams[0].to_team().number == 2
    assert league.matches == (
        Match(
            1,
            "A",
            "B",
            datetime.date(2025, 9, 14),
            MatchStatus.PLAYED,
            (Board(1, "a1", "b1", "1-0"), Board(2, "a2", None, "+-")),
        ),
        Match(2, "B", "A", datetime.date(2025, 10, 5), MatchStatus.HOME_FORFEIT, cycle=2),  # the return match
    )
    assert parse_json_text(json.dumps(DOC)) == league


def test_match_points_default():
    doc = copy.deepcopy(DOC)
    del doc["division"]["match_points"]
    assert parse_league(doc).division.points == MatchPoints()


def test_every_problem_with_its_path():
    doc = copy.deepcopy(DOC)
    doc["season"]["reference_date"] = "2025-13-01"
    doc["season"]["organisation"] = "c5"
    doc["division"]["cycles"] = 3
    doc["division"]["match_points"] = {"win": 1, "draw": 2, "loss": 0}
    doc["players"][3]["dwz"] = 4000
    doc["teams"][1]["line_up"] = ["b1", "a1", "zz"]
    doc["teams"][1]["club"] = "X"
    board = doc["matches"][0]["boards"]
    board[0]["away"] = "b9"
    board[1]["result"] = "1-0"
    board.append({"board": 2, "home": "a1", "away": "b2", "result": "2-0", "rated_result": "+"})
    doc["matches"][1]["status"] = "lost"
    doc["matches"].append({"round": 0, "date": "2025-11-01", "home": "A", "away": "A", "status": "played"})
    assert errors_of(doc) == [
        'season.organisation: not a federation code such as C05: "c5"',
        'season.reference_date: invalid date "2025-13-01"',
        "division.cycles: must be an integer in 1-2, got 3",
        "division.match_points: win >= draw >= loss is required",
        "players[3].dwz: must be an integer in 0-3000, got 4000",
        'teams[1].club: not a ZPS such as C0501: "X"',
        'teams[1].line_up[1]: player "a1" is already in team "A"',
        'teams[1].line_up[2]: unknown player id "zz"',
        'matches[0].boards[0].away: unknown player id "b9"',
        'matches[0].boards[1].result: a board with an empty side is "+-" or "--", got "1-0"',
        'matches[0].boards[2].away: player "b2" is not in the line-up of team "B"',
        'matches[0].boards[2].result: unknown result "2-0"',
        'matches[0].boards[2].rated_result: unknown result "+"',
        'matches[1].status: must be one of "played", "home_forfeit", "away_forfeit", "double_forfeit", '
        'got "lost"',
        # The division is invalid, so the round is only checked against 1-99.
        "matches[2].round: must be an integer in 1-99, got 0",
        'matches[2]: team "A" plays itself',
    ]


def test_line_up_board_clashes_and_forfeit_boards():
    doc = copy.deepcopy(DOC)
    boards = doc["matches"][0]["boards"]
    boards[1].update(away="a2", result="0-1")  # a player of the home team on the away side
    boards.append({"board": 1, "home": "a1", "away": "b2", "result": "0-1"})
    doc["matches"][1]["boards"] = [{"board": 1, "home": "b1", "away": "a1", "result": "1-0"}]
    assert errors_of(doc) == [
        'matches[0].boards[1].away: player "a2" is not in the line-up of team "B"',
        "matches[0].boards[2].board: board 1 again (also boards[0])",
        'matches[0].boards[2].home: player "a1" plays twice (also boards[0])',
        "matches[1].boards: a match lost by forfeit has no boards",
    ]


def test_a_team_plays_once_per_round():
    doc = copy.deepcopy(DOC)
    doc["matches"].append(
        {"round": 1, "date": "2025-09-15", "home": "B", "away": "A", "status": "double_forfeit", "boards": []}
    )
    assert errors_of(doc) == [
        'matches[2].home: team "B" plays twice in round 1 (also matches[0])',
        'matches[2].away: team "A" plays twice in round 1 (also matches[0])',
    ]


def test_empty_side_is_never_rated_and_plays_himself():
    doc = copy.deepcopy(DOC)
    boards = doc["matches"][0]["boards"]
    boards[1]["rated_result"] = "1-0"
    doc["teams"][0]["line_up"].append("b2")
    doc["teams"][1]["line_up"].remove("b2")
    boards[0]["away"] = None
    boards[0]["home"] = None
    boards[0]["result"] = "-+"
    assert errors_of(doc) == [
        'matches[0].boards[0].result: a board with an empty side is "--", got "-+"',
        'matches[0].boards[1].rated_result: a board with an empty side is never rated, got "1-0"',
    ]


@pytest.mark.parametrize(
    ("doc", "first"),
    [
        ([], "input: must be a JSON object with season, division, players, teams and matches"),
        ({}, "season: missing"),
        (
            {"season": 1, "division": {}, "players": {}, "teams": [], "matches": []},
            "season: must be an object",
        ),
        ({"season": {"name": "\ud800"}}, "season.name: not valid Unicode (a lone surrogate such as \\ud800)"),
    ],
)
def test_shape_errors(doc, first):
    assert errors_of(doc)[0] == first


def test_malformed_json():
    with pytest.raises(ContractError) as info:
        parse_json_text("{")
    assert info.value.messages[0].startswith("input: malformed JSON")


def test_rounds_and_cycles():
    doc = copy.deepcopy(DOC)
    doc["division"].update(rounds=14)
    doc["matches"][1]["round"] = 8
    assert [m.cycle for m in parse_league(doc).matches] == [1, 2]  # round 8 of 14 opens the second cycle
    doc["matches"][1]["round"] = 15
    assert errors_of(doc) == ["matches[1].round: must be an integer in 1-14, got 15"]
    doc["division"].update(cycles=1)
    doc["matches"][1]["round"] = 8
    assert [m.cycle for m in parse_league(doc).matches] == [1, 1]
