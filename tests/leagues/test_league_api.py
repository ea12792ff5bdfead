"""``/api/divisions/<id>``: shape and values of the hand-computed ``small_division``, JSON 404s, the
OpenAPI description (validated with openapi-spec-validator, responses against its schemas), query count."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.leagues.league_builders import round_robin_division, small_division

pytestmark = pytest.mark.django_db
jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")


def _validator(document, name):
    resource = referencing.Resource.from_contents(
        document, default_specification=referencing.jsonschema.DRAFT202012
    )
    registry = referencing.Registry().with_resource("urn:dwzsite-openapi", resource)
    schema = {"$ref": f"urn:dwzsite-openapi#/components/schemas/{name}"}
    return jsonschema.Draft202012Validator(
        schema, registry=registry, format_checker=jsonschema.FormatChecker()
    )


@pytest.fixture
def league():
    return small_division()


def test_division_values_computed_by_hand(client, league):
    response = client.get(f"/api/divisions/{league.division.pk}")
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"
    data = response.json()
    assert (data["id"], data["name"], data["season"]) == (league.division.pk, "Kreisklasse Süd", "2025/26")
    assert data["table"] == [
        {"rank": 1, "team": "SF Delta 1", "match_points": 5, "board_points": 4.5, "played": 3},
        {"rank": 2, "team": "SK Alpha 1", "match_points": 4, "board_points": 4, "played": 3},
        {"rank": 3, "team": "SC Gamma 1", "match_points": 1, "board_points": 1, "played": 2},
        {"rank": 4, "team": "SV Beta 1", "match_points": 0, "board_points": 0.5, "played": 2},
    ]
    rounds = data["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3]
    first = rounds[0]["matches"][0]
    assert first == {
        "home": "SK Alpha 1",
        "away": "SV Beta 1",
        "date": "2025-09-14",
        "status": "played",
        "board_points": [1.5, 0.5],
        "boards": [
            {"board": 1, "home": "Alpha1, Erik", "away": "Beta1, Erik", "result": "1-0"},
            {"board": 2, "home": "Alpha2, Erik", "away": "Beta2, Erik", "result": "1/2-1/2"},
        ],
    }
    empty_board = rounds[0]["matches"][1]
    assert empty_board["board_points"] == [1, 1]
    assert empty_board["boards"][0] == {"board": 1, "home": None, "away": "Delta1, Erik", "result": "-+"}
    forfeit = rounds[1]["matches"][0]
    assert (forfeit["status"], forfeit["board_points"], forfeit["boards"]) == ("away_forfeit", [2, 0], [])
    scheduled = rounds[2]["matches"][1]
    assert (scheduled["status"], scheduled["board_points"]) == ("scheduled", None)
    assert data["tournament"] is None


def test_table_alone(client, league):
    data = client.get(reverse("leagues-api:division-table", args=[league.division.pk])).json()
    assert set(data) == {"id", "name", "season", "table"}
    assert [row["team"] for row in data["table"]][:2] == ["SF Delta 1", "SK Alpha 1"]


@pytest.mark.parametrize("url", ["/api/divisions/999", "/api/divisions/999/table", "/api/divisions/x"])
def test_unknown_division_is_a_json_404(client, db, url):
    response = client.get(url)
    assert response.status_code == 404 and response.json()["status"] == 404
    assert response["Access-Control-Allow-Origin"] == "*"


def test_openapi_describes_the_divisions(client, league):
    document = client.get("/api/openapi.json").json()
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(document)
    assert {"/api/divisions/{id}", "/api/divisions/{id}/table", "/api/tournaments/{id}"} <= set(
        document["paths"]
    )
    for url, name in (
        (f"/api/divisions/{league.division.pk}", "Division"),
        (f"/api/divisions/{league.division.pk}/table", "DivisionTable"),
        ("/api/divisions/999", "Error"),
    ):
        errors = list(_validator(document, name).iter_errors(client.get(url).json()))
        assert errors == [], (url, [e.message for e in errors[:3]])
    assert "/api/divisions/{id}" in client.get("/api/").content.decode()


@override_settings(API_LIMIT=0)  # the throttle's own queries (its cache table): tests/web/test_throttle.py
@pytest.mark.parametrize("teams", [4, 10])
def test_query_count_is_fixed(client, django_assert_num_queries, teams):
    division = round_robin_division(teams=teams, boards=6, rounds_played=3)
    with django_assert_num_queries(5):
        response = client.get(f"/api/divisions/{division.pk}")
    assert len(response.json()["rounds"]) == teams - 1
