"""Request limits per client address (ratings/throttle.py): the password reset form and the JSON API.

The (N+1)-th request in a window is a 429 with ``Retry-After``; another address is not affected; the next
window starts afresh; behind the proxy the address is the last X-Forwarded-For entry (as for the lockout).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings

from ratings.web import throttle

pytestmark = pytest.mark.django_db

RESET = "/passwort/vergessen/"
API = "/api/openapi.json"


@pytest.fixture
def clock(monkeypatch):
    """The throttle's clock, at the start of a window; ``clock.now += s`` moves it on."""

    class Clock:
        now = 1_800_000_000.0  # a multiple of every window used here

    monkeypatch.setattr(throttle, "now", lambda: Clock.now)
    return Clock


@pytest.fixture
def known(db):
    return get_user_model().objects.create_user("referent", "referent@example.org", "geheim-123")


def reset(client, ip="192.0.2.1", **extra):
    return client.post(RESET, {"email": "referent@example.org"}, REMOTE_ADDR=ip, **extra)


@override_settings(PASSWORD_RESET_LIMIT=3, PASSWORD_RESET_WINDOW=3600)
def test_the_fourth_reset_from_one_address_sends_no_mail(client, known, clock):
    assert [reset(client).status_code for _ in range(3)] == [302, 302, 302]
    assert len(mail.outbox) == 3
    clock.now += 600
    refused = reset(client)
    assert refused.status_code == 429 and refused["Retry-After"] == "3000"
    assert "Zu viele Anfragen von Ihrer Adresse. Bitte in 50 Minuten noch einmal versuchen." in (
        refused.content.decode()
    )
    assert len(mail.outbox) == 3
    assert reset(client, ip="192.0.2.2").status_code == 302  # another address
    assert len(mail.outbox) == 4
    clock.now += 3000  # the next window
    assert reset(client).status_code == 302
    assert len(mail.outbox) == 5


@override_settings(PASSWORD_RESET_LIMIT=1)
def test_the_reset_page_itself_is_not_counted(client, known, clock):
    assert [client.get(RESET).status_code for _ in range(3)] == [200, 200, 200]
    assert reset(client).status_code == 302 and reset(client).status_code == 429


@override_settings(API_LIMIT=5, API_WINDOW=60)
def test_the_sixth_api_request_in_a_minute_is_a_json_429(client, clock):
    assert [client.get(API, REMOTE_ADDR="198.51.100.7").status_code for _ in range(5)] == [200] * 5
    clock.now += 45
    refused = client.get(API, REMOTE_ADDR="198.51.100.7")
    assert refused.status_code == 429 and refused["Retry-After"] == "15"
    assert refused.json() == {"error": "too many requests: at most 5 in 60 s per address", "status": 429}
    assert refused["Access-Control-Allow-Origin"] == "*"
    assert client.get("/api/players/X", REMOTE_ADDR="198.51.100.7").status_code == 429  # every endpoint
    assert client.get(API, REMOTE_ADDR="198.51.100.8").status_code == 200
    clock.now += 15
    assert client.get(API, REMOTE_ADDR="198.51.100.7").status_code == 200


@override_settings(API_LIMIT=2, BEHIND_PROXY=True)
def test_behind_the_proxy_the_last_forwarded_address_counts(client, clock):
    def get(forwarded):
        return client.get(API, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded).status_code

    assert [get("10.0.0.1, 203.0.113.5"), get("10.0.0.2, 203.0.113.5")] == [200, 200]
    assert get("10.0.0.3, 203.0.113.5") == 429  # a forged first entry does not help
    assert get("203.0.113.6") == 200  # another client behind the same proxy


@override_settings(API_LIMIT=0)
def test_a_limit_of_0_switches_the_throttle_off(client, clock):
    assert {client.get(API).status_code for _ in range(5)} == {200}


def test_an_api_request_costs_the_throttle_a_few_queries(client, clock, django_assert_max_num_queries):
    client.get(API)
    # the count's row read, the cull's count, the row again and its update, in a savepoint
    with django_assert_max_num_queries(6):
        assert client.get(API).status_code == 200
