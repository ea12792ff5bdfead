"""The league's part of the OpenAPI document: ``ratings.api.schema.openapi`` calls ``extend`` (named in the
setting ``API_SCHEMA_EXTENSIONS``, so ratings never imports leagues)."""

from __future__ import annotations

from typing import Any

from ratings.api.schema import DATE, INT, N_INT, N_STR, NUM, STR, _get, _object, _path_parameter, ref

STATUSES = ["scheduled", "played", "home_forfeit", "away_forfeit", "double_forfeit", "bye"]
RESULTS = ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--", None]

TABLE = {
    "type": "array",
    "items": _object(
        {
            "rank": INT,
            "team": {**STR, "description": "the team's name"},
            "match_points": {**INT, "description": "after a deduction"},
            "board_points": {**NUM, "description": "after a deduction; halves as .5"},
            "played": INT,
        }
    ),
}
HEAD = {"id": INT, "name": STR, "season": {**STR, "description": "the season's name, e.g. 2025/26"}}
BOARD = _object(
    {
        "board": INT,
        "home": {**N_STR, "description": "the home player's name; null: the board was left empty"},
        "away": N_STR,
        "result": {"type": ["string", "null"], "enum": RESULTS, "description": "from the home side"},
    }
)
MATCH = _object(
    {
        "home": STR,
        "away": {**N_STR, "description": "null: a bye"},
        "date": {**DATE, "description": "the day played (postponed) or scheduled"},
        "status": {"type": "string", "enum": STATUSES},
        "board_points": {
            "oneOf": [{"type": "array", "items": NUM, "minItems": 2, "maxItems": 2}, {"type": "null"}],
            "description": "[home, away]; null while scheduled and for a bye",
        },
        "boards": {"type": "array", "items": ref("LeagueBoard")},
    }
)
SCHEMAS: dict[str, Any] = {
    "LeagueBoard": BOARD,
    "LeagueMatch": MATCH,
    "DivisionTable": _object({**HEAD, "table": TABLE}),
    "Division": _object(
        {
            **HEAD,
            "table": TABLE,
            "rounds": {
                "type": "array",
                "items": _object({"round": INT, "matches": {"type": "array", "items": ref("LeagueMatch")}}),
            },
            "tournament": {**N_INT, "description": "the division's DWZ tournament (its first part's)"},
        }
    ),
}


def extend(document: dict[str, Any]) -> None:
    """Add the division paths and their schemas to the OpenAPI ``document``."""
    parameter = [_path_parameter("id", "the division's number", {"type": "integer"})]
    document["paths"]["/api/divisions/{id}"] = _get(
        "A league division: table, rounds with every match's boards, its DWZ tournament",
        "Division",
        parameter,
    )
    document["paths"]["/api/divisions/{id}/table"] = _get(
        "A league division's table (for club websites)", "DivisionTable", parameter
    )
    document["components"]["schemas"].update(SCHEMAS)
