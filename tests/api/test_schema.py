"""The API contract: every response of the JSON API validates against /api/openapi.json; HEAD answers like
GET without a body; errors under /api/ are JSON with the CORS header."""

import datetime

import pytest
from django.urls import reverse

from ratings.enums import AdjustmentKind
from ratings.models import RatingAdjustment
from ratings.services import adjustment_save

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


def _schema_of(document, path_template, status):
    return document["paths"][path_template]["get"]["responses"][str(status)]["content"]["application/json"][
        "schema"
    ]["$ref"].rsplit("/", 1)[1]


@pytest.fixture
def document(client, db):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"
    return response.json()


def test_openapi_document_is_valid(document):
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(document)
    assert document["openapi"].startswith("3.")
    assert set(document["paths"]) >= {  # and what API_SCHEMA_EXTENSIONS add (the leagues' divisions)
        "/api/players/{key}",
        "/api/clubs/{zps}/players",
        "/api/tournaments/{id}",
    }


def test_every_response_matches_the_schema(client, document, e2, e1):
    player = e2["player"]
    adjustment_save(
        adjustment=RatingAdjustment(
            player=player, kind=AdjustmentKind.UMSTUFUNG, dwz=1870, index=4, date=datetime.date(2026, 6, 8)
        )
    )
    calls = [
        ("/api/players/{key}", reverse("ratings:api-player", args=[player.key])),
        ("/api/players/{key}", reverse("ratings:api-player", args=[e2["opponents"][0].key])),
        ("/api/players/{key}", "/api/players/NOBODY-1"),
        ("/api/clubs/{zps}/players", reverse("ratings:api-club-players", args=["C0501"])),
        ("/api/clubs/{zps}/players", reverse("ratings:api-club-players", args=["C0501"]) + "?aktiv=1"),
        ("/api/clubs/{zps}/players", "/api/clubs/Z9999/players"),
        ("/api/tournaments/{id}", reverse("ratings:api-tournament", args=[e2["tournament"].pk])),
        ("/api/tournaments/{id}", reverse("ratings:api-tournament", args=[e1["tournament"].pk])),
        ("/api/tournaments/{id}", "/api/tournaments/999999"),
        # Issue 30: at a Stichtag (before and after the Umstufung), and a bad one (400)
        ("/api/players/{key}", reverse("ratings:api-player", args=[player.key]) + "?stichtag=2026-06-07"),
        ("/api/players/{key}", reverse("ratings:api-player", args=[player.key]) + "?stichtag=08.06.2026"),
        ("/api/players/{key}", reverse("ratings:api-player", args=[player.key]) + "?stichtag=gestern"),
        (
            "/api/clubs/{zps}/players",
            reverse("ratings:api-club-players", args=["C0501"]) + "?stichtag=2019-01-01",
        ),
        (
            "/api/clubs/{zps}/players",
            reverse("ratings:api-club-players", args=["C0501"]) + "?stichtag=2019-02-30",
        ),
    ]
    seen = set()
    for template, url in calls:
        response = client.get(url)
        assert (
            response["Content-Type"] == "application/json" and response["Access-Control-Allow-Origin"] == "*"
        )
        name = _schema_of(document, template, response.status_code)
        errors = sorted(_validator(document, name).iter_errors(response.json()), key=str)
        assert errors == [], (url, [e.message for e in errors[:3]])
        seen.add((template, response.status_code))
    assert {status for _t, status in seen} == {200, 400, 404}


def test_schema_catches_an_undocumented_field(document, client, e2):
    data = client.get(reverse("ratings:api-player", args=[e2["player"].key])).json()
    data["surprise"] = 1
    assert not _validator(document, "Player").is_valid(data)


@pytest.mark.parametrize("name", ["api-player", "api-club-players", "api-tournament", "api-openapi"])
def test_head_answers_like_get_without_a_body(client, e2, name):
    args = {
        "api-player": [e2["player"].key],
        "api-club-players": ["C0501"],
        "api-tournament": [e2["tournament"].pk],
        "api-openapi": [],
    }[name]
    url = reverse(f"ratings:{name}", args=args)
    get, head = client.get(url), client.head(url)
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert head["Content-Type"] == get["Content-Type"] and head["Access-Control-Allow-Origin"] == "*"
    assert int(head["Content-Length"]) == len(get.content)


@pytest.mark.parametrize(
    "url",
    ["/api/players/NOBODY-1", "/api/nothing", "/api/players/", "/api/players/bad key", "/api/tournaments/x"],
)
def test_not_found_under_api_is_json_with_cors(client, db, url):
    for response in (client.get(url), client.head(url)):
        assert response.status_code == 404
        assert (
            response["Content-Type"] == "application/json" and response["Access-Control-Allow-Origin"] == "*"
        )
    assert client.get(url).json() == {"error": "not found", "status": 404}


def test_other_methods_are_a_json_405(client, e2):
    response = client.delete(reverse("ratings:api-player", args=[e2["player"].key]))
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD, OPTIONS"
    assert response.json()["status"] == 405


def test_human_api_page_links_the_description(client, db):
    html = client.get("/api/").content.decode()
    assert 'href="/api/openapi.json"' in html and "/api/tournaments/{id}" in html
