"""Every API path answers a method other than GET and HEAD as docs/api.md says: a JSON 405 with ``Allow`` and
the CORS header, never Django's CSRF page (issue 32); ``OPTIONS`` is the CORS preflight."""

import pytest
from django.test import Client
from django.test.utils import override_settings

pytestmark = pytest.mark.django_db


@pytest.fixture
def csrf_client():
    """A client that checks CSRF as a browser's request is checked (the test client skips it otherwise)."""
    return Client(enforce_csrf_checks=True)


def _paths(e2):
    return [
        f"/api/players/{e2['player'].key}",
        "/api/clubs/C0501/players",
        f"/api/tournaments/{e2['tournament'].pk}",
        "/api/tournaments/999999",
        "/api/openapi.json",
        "/api/",
        "/api/nothing/here",
        "/api/divisions/1",
        "/api/divisions/1/table",
    ]


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_unsupported_methods_get_a_json_405_with_cors(csrf_client, e2, method):
    for path in _paths(e2):
        response = getattr(csrf_client, method)(path, data="{}", content_type="application/json")
        assert response.status_code == 405, (method, path, response.status_code)
        assert response["Content-Type"] == "application/json", path
        assert response.json() == {"error": "method not allowed: GET and HEAD only", "status": 405}
        assert response["Allow"] == "GET, HEAD, OPTIONS"
        assert response["Access-Control-Allow-Origin"] == "*"


def test_options_is_the_cors_preflight(csrf_client, e2):
    for path in _paths(e2):
        response = csrf_client.options(
            path,
            headers={
                "Origin": "https://club.example.org",
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "content-type",
            },
        )
        assert response.status_code == 204, path
        assert response.content == b""
        assert response["Access-Control-Allow-Origin"] == "*"
        assert response["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
        assert "content-type" in response["Access-Control-Allow-Headers"].lower()
        assert int(response["Access-Control-Max-Age"]) > 0
        assert response["Allow"] == "GET, HEAD, OPTIONS"


@override_settings(API_LIMIT=1)
def test_a_preflight_is_not_counted_by_the_throttle(csrf_client, e2):
    path = f"/api/players/{e2['player'].key}"
    for _ in range(3):
        assert csrf_client.options(path).status_code == 204
    assert csrf_client.get(path).status_code == 200  # the limit counts requests for data only
    assert csrf_client.get(path).status_code == 429


def test_get_is_unchanged(csrf_client, e2):
    response = csrf_client.get(f"/api/players/{e2['player'].key}")
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"
    assert csrf_client.get("/api/").status_code == 200
