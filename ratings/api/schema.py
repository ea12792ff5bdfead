"""The OpenAPI 3.1 description of the read-only JSON API (served at /api/openapi.json; docs/api.md explains
the fields). A contract test validates every API response against these schemas, so a field added to a
response without being described here fails the tests."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

from ratings.enums import Edition, EvaluationStatus

OPENAPI_VERSION = "3.1.0"


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema["type"]
    return {**schema, "type": [kind, "null"]}


STR = {"type": "string"}
INT = {"type": "integer"}
NUM = {"type": "number"}
BOOL = {"type": "boolean"}
DATE = {"type": "string", "format": "date"}
N_STR, N_INT, N_NUM, N_DATE = _nullable(STR), _nullable(INT), _nullable(NUM), _nullable(DATE)


def _object(properties: dict[str, Any], *, required: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


PLAYER_SUMMARY = {
    "key": {**STR, "description": "stable key, as in /spieler/<key>/"},
    "name": {**STR, "description": '"nicht veröffentlicht" if the player objected to publication'},
    "published": {"type": "boolean", "description": "false: he objected; no names, personal data, history"},
    "surname": N_STR,
    "first_name": N_STR,
    "sex": {"type": ["string", "null"], "enum": ["m", "w", "d", None]},
    "birth_year": {**N_INT, "description": "null under 18 (see age_class)"},
    "age_class": {**N_STR, "description": "U8 … U18 for players under 18, else null"},
    "dwz": N_INT,
    "index": N_INT,
    "fide_id": N_INT,
    "fide_elo": N_INT,
    "fide_title": N_STR,
    "status": {"type": "string", "description": "A active, P passive"},
    "last_evaluated": N_DATE,
}
EVALUATION = {
    "status": {"type": "string", "enum": [s.value for s in EvaluationStatus]},
    "dwz_old": N_INT,
    "index_old": N_INT,
    "points": NUM,
    "games": INT,
    "expected": N_NUM,
    "coefficient": {**N_NUM, "description": "E (classic edition) or K (wo2026)"},
    "level": N_INT,
    "performance": N_INT,
    "dwz_new": N_INT,
    "index_new": N_INT,
}
HISTORY_EVALUATION = {
    "number": N_INT,
    "date": N_DATE,
    "type": {"const": "evaluation"},
    "tournament": _object({"id": INT, "name": STR, "code": N_STR}),
    "edition": {"type": "string", "enum": [e.value for e in Edition]},
    **EVALUATION,
}
HISTORY_ADJUSTMENT = {
    "number": N_INT,
    "date": N_DATE,
    "type": {"const": "adjustment"},
    "kind": STR,
    "dwz_new": N_INT,
    "index_new": N_INT,
    "fide_elo": N_INT,
}

STICHTAG = {
    "type": "string",
    "format": "date",
    "description": "present with ?stichtag=: the day whose values the answer gives (the DWZ-Index after the "
    "last evaluation or adjustment on or before it)",
}

SCHEMAS: dict[str, Any] = {
    "Club": _object({"zps": STR, "name": STR}),
    "PlayerSummary": _object(PLAYER_SUMMARY),
    "Player": _object(
        {
            **PLAYER_SUMMARY,
            "memberships": {
                "type": "array",
                "items": _object({"club": ref("Club"), "member_number": STR}),
            },
            "history": {
                "type": "array",
                "items": {"oneOf": [_object(HISTORY_EVALUATION), _object(HISTORY_ADJUSTMENT)]},
            },
            "stichtag": STICHTAG,
        },
        required=[*PLAYER_SUMMARY, "memberships", "history"],
    ),
    "ClubPlayers": _object(
        {
            "club": _object({"zps": STR, "name": STR, "organisation": _object({"code": STR, "name": STR})}),
            "players": {
                "type": "array",
                "items": _object(
                    {"rank": {**N_INT, "description": "by DWZ within the club"}, **PLAYER_SUMMARY}
                ),
            },
            "stichtag": STICHTAG,
        },
        required=["club", "players"],
    ),
    "Evaluation": _object(EVALUATION),
    "ScoreLine": _object(
        {
            "round": INT,
            "opponent": {**N_STR, "description": "the opponent's key; null for a bye"},
            "colour": {"type": ["string", "null"], "enum": ["white", "black", None]},
            "result": STR,
            "points": N_NUM,
            "counted": BOOL,
            "opponent_rating": N_INT,
        }
    ),
    "Tournament": _object(
        {
            "id": INT,
            "code": N_STR,
            "name": STR,
            "place": STR,
            "start_date": DATE,
            "end_date": DATE,
            "rounds": N_INT,
            "organiser": N_STR,
            "rated": BOOL,
            "edition": {"type": ["string", "null"], "enum": [*(e.value for e in Edition), None]},
            "round_robin": BOOL,
            "players": {
                "type": "array",
                "items": _object(
                    {
                        "number": INT,
                        "key": STR,
                        "name": STR,
                        "club": {"oneOf": [ref("Club"), {"type": "null"}]},
                        "points": NUM,
                        "evaluation": {"oneOf": [ref("Evaluation"), {"type": "null"}]},
                        "games": {"type": "array", "items": ref("ScoreLine")},
                    }
                ),
            },
        }
    ),
    "Error": _object(
        {"error": STR, "status": INT, "parameter": {**STR, "description": "the query parameter at fault"}},
        required=["error", "status"],
    ),
}


def _get(summary: str, schema: str, parameters: list[dict[str, Any]]) -> dict[str, Any]:
    def json(name: str, description: str) -> dict[str, Any]:
        return {
            "description": description,
            "headers": {"Access-Control-Allow-Origin": {"schema": {"const": "*"}}},
            "content": {"application/json": {"schema": ref(name)}},
        }

    limited = json("Error", "too many requests from this address (API_LIMIT per API_WINDOW)")
    limited["headers"] = {
        **limited["headers"],
        "Retry-After": {"description": "seconds until the window ends", "schema": {"type": "integer"}},
    }
    return {
        "get": {
            "summary": summary,
            "parameters": parameters,
            "responses": {
                "200": json(schema, "OK"),
                **(
                    {"400": json("Error", "a query parameter that is not valid")}
                    if any(p.get("name") == "stichtag" for p in parameters)
                    else {}
                ),
                "404": json("Error", "not found"),
                "429": limited,
            },
        }
    }


STICHTAG_PARAMETER = {
    "name": "stichtag",
    "in": "query",
    "required": False,
    "description": "a day (YYYY-MM-DD or DD.MM.YYYY): DWZ, index, last evaluation, rank and history as of "
    "that day; anything else is a 400 naming the parameter",
    "schema": {"type": "string"},
}


def _path_parameter(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


def openapi() -> dict[str, Any]:
    """The OpenAPI document (plain data, JSON-serialisable), with what ``API_SCHEMA_EXTENSIONS`` add (other
    apps' paths and schemas: named in the setting, so ratings imports none of them)."""
    document = _document()
    document["paths"]["/api/players/{key}"]["get"]["responses"]["301"] = {
        "description": "the player was merged into another record: Location is the kept player's address",
        "headers": {
            "Location": {"schema": {"type": "string"}},
            "Access-Control-Allow-Origin": {"schema": {"const": "*"}},
        },
    }
    for name in settings.API_SCHEMA_EXTENSIONS:
        import_string(name)(document)
    return document


def _document() -> dict[str, Any]:
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "dwzsite JSON API",
            "version": "1",
            "description": "Read-only JSON for club websites: players, club rating lists, tournaments. "
            "No login; every response carries Access-Control-Allow-Origin: *. GET and HEAD only.",
        },
        "paths": {
            "/api/players/{key}": _get(
                "One player with memberships and full history",
                "Player",
                [
                    _path_parameter(
                        "key", "the player's key", {"type": "string", "pattern": "^[A-Za-z0-9-]{1,40}$"}
                    ),
                    STICHTAG_PARAMETER,
                ],
            ),
            "/api/clubs/{zps}/players": _get(
                "A club's members as a rating list",
                "ClubPlayers",
                [
                    _path_parameter("zps", "the club's ZPS (5 characters)", {"type": "string"}),
                    {
                        "name": "aktiv",
                        "in": "query",
                        "required": False,
                        "description": "1: active members only",
                        "schema": {"type": "string", "enum": ["1", "true", "ja"]},
                    },
                    STICHTAG_PARAMETER,
                ],
            ),
            "/api/tournaments/{id}": _get(
                "One tournament with its evaluation and every player's games",
                "Tournament",
                [_path_parameter("id", "the tournament number", {"type": "integer"})],
            ),
        },
        "components": {"schemas": dict(SCHEMAS)},
    }
