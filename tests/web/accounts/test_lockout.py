"""Login throttling (django-axes): five wrong passwords for one username from one address lock that
username there for the cool-off period, on the officers' login and the admin's alike."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.utils import timezone

from dwzsite.middleware import client_ip

LOCKED = "Zu viele fehlgeschlagene Anmeldeversuche"


@pytest.fixture
def officer(db):
    return get_user_model().objects.create_user(username="referent", password="richtig-geheim")


@pytest.fixture
def admin_user(db):
    return get_user_model().objects.create_superuser("chef", "chef@example.org", "admin-geheim")


def attempt(client, username, password, url="/anmelden/", **extra):
    return client.post(url, {"username": username, "password": password}, **extra)


def test_limit_and_cool_off_are_the_documented_defaults():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert datetime.timedelta(minutes=15) == settings.AXES_COOLOFF_TIME


def test_six_wrong_passwords_lock_the_login_with_a_clear_message(client, officer):
    answers = [attempt(client, "referent", "falsch") for _ in range(6)]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429, 429]
    assert answers[0].context["form"].non_field_errors()  # an ordinary wrong password first
    page = answers[5].content.decode()
    assert LOCKED in page and "15 Minuten gesperrt" in page
    assert 'name="password"' not in page  # no form that would only be refused again


def test_the_right_password_is_refused_while_locked_and_works_after_the_cool_off(client, officer):
    for _ in range(5):
        attempt(client, "referent", "falsch")
    locked = attempt(client, "referent", "richtig-geheim")
    assert locked.status_code == 429 and SESSION_KEY not in client.session

    # Fifteen minutes later (the attempts are dated back as the clock would have moved on).
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=15, seconds=1))
    answer = attempt(client, "referent", "richtig-geheim")
    assert answer.status_code == 302
    assert client.session[SESSION_KEY] == str(officer.pk)


def test_a_successful_login_resets_the_count(client, officer):
    for _ in range(4):
        attempt(client, "referent", "falsch")
    assert attempt(client, "referent", "richtig-geheim").status_code == 302
    client.logout()
    answers = [attempt(client, "referent", "falsch") for _ in range(4)]
    assert {a.status_code for a in answers} == {200}


def test_lock_is_per_username_and_address(client, officer):
    get_user_model().objects.create_user(username="kollege", password="kollege-geheim")
    for _ in range(5):
        attempt(client, "referent", "falsch")
    # A colleague behind the same address still logs in; so does the officer from another address.
    assert attempt(client, "kollege", "kollege-geheim").status_code == 302
    client.logout()
    assert attempt(client, "referent", "richtig-geheim", REMOTE_ADDR="192.0.2.7").status_code == 302


def test_admin_login_is_locked_too(client, admin_user):
    answers = [attempt(client, "chef", "falsch", url="/admin/login/") for _ in range(6)]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429, 429]
    assert LOCKED in answers[5].content.decode()
    assert attempt(client, "chef", "admin-geheim", url="/admin/login/").status_code == 429
    assert SESSION_KEY not in client.session


def test_lockout_message_in_english(client, officer):
    for _ in range(5):
        answer = attempt(client, "referent", "falsch", HTTP_ACCEPT_LANGUAGE="en")
    page = answer.content.decode()
    assert answer.status_code == 429
    assert "Too many failed login attempts" in page and "locked for 15 minutes" in page


def test_client_address_behind_the_proxy_is_the_last_forwarded_one(rf, settings):
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.4")
    settings.BEHIND_PROXY = False
    assert client_ip(request) == "10.0.0.1"
    settings.BEHIND_PROXY = True
    assert client_ip(request) == "198.51.100.4"  # the first entry is the client's own claim
