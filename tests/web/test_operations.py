"""Operations: security headers, /health/, error mails to ADMINS, the officers' idle timeout."""

import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from django.urls import include, path
from django.utils import timezone

from dwzsite.middleware import SESSION_SEEN_KEY, permissions_policy
from tests.builders import PRODUCTION, run_manage


def boom(request):
    raise RuntimeError("kaputt")


# A URLconf for the error-mail test: the site plus one view that fails.
urlpatterns = [path("kaputt/", boom), path("", include("dwzsite.urls"))]


# --- headers ----------------------------------------------------------------------------------------------


def test_pages_carry_csp_and_permissions_policy(client, db):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
    assert (
        "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"]
    )
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_templates_have_no_inline_script(client, db):
    html = client.get("/rechner/").content.decode()
    assert "<script>" not in html and " onclick=" not in html


def test_permissions_policy_header_format():
    assert permissions_policy({"camera": [], "fullscreen": ["self"]}) == "camera=(), fullscreen=(self)"


def test_production_settings_redirect_to_https_with_hsts():
    script = (
        "from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    )
    result = run_manage("shell", "--no-imports", "-v", "0", "-c", script, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "31536000", "True", "True"]


# --- /health/ ---------------------------------------------------------------------------------------------


def test_health_is_ok_with_the_database(client, db):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert "no-cache" in response["Cache-Control"]
    assert "Content-Security-Policy" not in response
    assert not response.cookies  # no session, no CSRF cookie for a monitor


def test_health_needs_no_login_and_only_reads(client, db):
    assert client.head("/health/").status_code == 200
    assert client.post("/health/").status_code == 405


def test_health_is_503_without_a_database(tmp_path):
    """A real unreachable database (a file in a directory that does not exist), in a separate process."""
    script = (
        "from django.test import Client; "
        "r = Client().get('/health/', HTTP_HOST='localhost'); "
        "print(r.status_code, r.content.decode())"
    )
    result = run_manage(
        "shell",
        "--no-imports",
        "-v",
        "0",
        "-c",
        script,
        DJANGO_SETTINGS_MODULE="dwzsite.settings",
        DJANGO_DEBUG="True",
        DATABASE_URL=f"sqlite:///{tmp_path}/missing/dir/db.sqlite3",
    )
    assert result.returncode == 0, result.stderr
    status, body = result.stdout.strip().split(" ", 1)
    assert status == "503"
    assert json.loads(body) == {"status": "error", "database": "unavailable"}


# --- error mails ------------------------------------------------------------------------------------------


@pytest.mark.urls("tests.web.test_operations")
def test_a_server_error_is_mailed_to_the_admins(client, db, settings):
    settings.DEBUG = False
    settings.ADMINS = [("Erika Muster", "erika@example.org")]
    client.raise_request_exception = False
    response = client.get("/kaputt/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "Serverfehler" in page
    assert "style=" not in page, "the CSP forbids inline styles"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["erika@example.org"]
    assert "/kaputt/" in message.subject and "RuntimeError" in message.body


@pytest.mark.urls("tests.web.test_operations")
def test_a_not_found_is_not_mailed(client, db, settings):
    settings.DEBUG = False
    settings.ADMINS = [("Erika Muster", "erika@example.org")]
    assert client.get("/spieler/gibt-es-nicht/").status_code == 404
    assert mail.outbox == []


def test_admins_and_smtp_come_from_the_environment():
    script = (
        "from django.conf import settings as s; "
        "print(repr((s.ADMINS, s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, "
        "s.SERVER_EMAIL)))"
    )
    env = {
        **PRODUCTION,
        "DJANGO_ADMINS": "Erika Muster <erika@example.org>, ops@example.org",
        "DJANGO_EMAIL_HOST": "smtp.example.org",
        "DJANGO_SERVER_EMAIL": "dwz@example.org",
    }
    result = run_manage("shell", "--no-imports", "-v", "0", "-c", script, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == repr(
        (
            [("Erika Muster", "erika@example.org"), ("", "ops@example.org")],
            "django.core.mail.backends.smtp.EmailBackend",
            "smtp.example.org",
            587,
            True,
            "dwz@example.org",
        )
    )


# --- idle timeout -----------------------------------------------------------------------------------------


@pytest.fixture
def officer_client(client, db):
    user = get_user_model().objects.create_user(username="referent", password="x")
    client.force_login(user)
    return client


def stored_session(client):
    return Session.objects.get(session_key=client.session.session_key)


def test_session_lasts_thirty_idle_minutes(settings):
    assert settings.SESSION_COOKIE_AGE == 30 * 60
    assert settings.SESSION_SAVE_EVERY_REQUEST is False  # one write a minute at most, see the middleware


def test_an_officer_idle_for_thirty_minutes_is_logged_out(officer_client):
    assert officer_client.get("/referent/").status_code in (200, 403)
    # Thirty minutes without a request: the stored session has expired.
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    response = officer_client.get("/referent/")
    assert response.status_code == 302 and response.url.startswith("/anmelden/")


def test_each_request_pushes_the_expiry_on(officer_client):
    officer_client.get("/")
    # Twenty-five minutes later (the last refresh long ago, five minutes left), the officer opens a page.
    session = stored_session(officer_client)
    data = session.get_decoded()
    data[SESSION_SEEN_KEY] -= 25 * 60
    session.session_data = Session.objects.encode(data)
    session.expire_date = timezone.now() + datetime.timedelta(minutes=5)
    session.save()
    officer_client.get("/")
    left = stored_session(officer_client).expire_date - timezone.now()
    assert datetime.timedelta(minutes=29) < left <= datetime.timedelta(minutes=30)


def test_requests_within_a_minute_do_not_write_the_session(officer_client):
    officer_client.get("/")
    before = stored_session(officer_client).expire_date
    officer_client.get("/")
    assert stored_session(officer_client).expire_date == before


def test_anonymous_visitors_get_no_session(client, db):
    client.get("/")
    client.get("/ranglisten/")
    assert Session.objects.count() == 0
