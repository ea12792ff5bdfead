import datetime
import os
import threading
import time

import pytest

from ratings.enums import ResultCode, Sex
from tests.builders import make_player, make_tournament
from tests.conftest import CHROMIUM
from tests.factories import ClubFactory, OrganisationFactory


def pytest_collection_modifyitems(config, items):
    """Browser tests skip only when no Chromium is installed."""
    if os.path.exists(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=f"Chromium not installed at {CHROMIUM}")
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(skip)


class _RequestsInFlight:
    """Wraps the live server's WSGI application and counts the requests it is handling."""

    def __init__(self, app):
        self.app, self.active, self.changed = app, 0, threading.Condition()

    def __call__(self, environ, start_response):
        self._add(1)
        try:
            result = self.app(environ, start_response)
        except BaseException:
            self._add(-1)
            raise
        return _Finished(result, lambda: self._add(-1))

    def _add(self, n):
        with self.changed:
            self.active += n
            self.changed.notify_all()

    def wait_idle(self, timeout):
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.active and self.changed.wait(deadline - time.monotonic()):
                pass
            return self.active == 0


class _Finished:
    """The response iterable; the request is done when the server closes it (after the last byte)."""

    def __init__(self, result, done):
        self.result, self.done = result, done

    def __iter__(self):
        return iter(self.result)

    def close(self):
        try:
            if hasattr(self.result, "close"):
                self.result.close()
        finally:
            self.done()


@pytest.fixture(scope="session")
def _server_requests(live_server):
    httpd = live_server.thread.httpd
    counter = _RequestsInFlight(httpd.get_app())
    httpd.set_app(counter)
    return counter


@pytest.fixture(autouse=True)
def _server_idle_before_flush(request):
    """After a browser test, wait for the live server's last request (an htmx call the page fired before it
    closed) before the database is flushed: on SQLite the server's threads share the test's connection, and
    a flush while a request runs fails ("database table is locked") or the request does."""
    if "live_server" not in request.fixturenames:
        yield
        return
    counter = request.getfixturevalue("_server_requests")
    yield
    assert counter.wait_idle(timeout=30), f"{counter.active} request(s) still running after the test"


@pytest.fixture
def log_in(live_server):
    """``log_in(page, username)``: the page's browser context gets the user's session cookie, made with
    force_login (no login form, no django-axes attempt). Tests of the login itself fill the form."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    def log_in(page, username):
        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        page.context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )

    return log_in


@pytest.fixture
def data(db):
    land = OrganisationFactory(code="C00", name="Württembergischer Schachbund", parent=None)
    bezirk = OrganisationFactory(code="C05", name="Bezirk Stuttgart", parent=land)
    baden = OrganisationFactory(code="B00", name="Badischer Schachbund", parent=None)
    club = ClubFactory(zps="C0501", name="SF Stuttgart", organisation=bezirk)
    other = ClubFactory(zps="B0101", name="SK Karlsruhe", organisation=baden)
    hans = make_player(surname="Müller", first_name="Hans", dwz=1850, index=3, club=club, sex=Sex.MALE)
    opponents = [
        make_player(surname=f"Gegner{i}", first_name="X", dwz=r, index=20, club=other)
        for i, r in enumerate((1700, 1780, 1900, 2010, 1650), start=1)
    ]
    results = [
        ResultCode.WHITE_WINS,
        ResultCode.DRAW,
        ResultCode.WHITE_WINS,
        ResultCode.BLACK_WINS,
        ResultCode.DRAW,
    ]
    make_tournament(
        [hans, *opponents],
        [(i, hans, o, r) for i, (o, r) in enumerate(zip(opponents, results, strict=True), start=1)],
        end=datetime.date(2019, 5, 12),
        name="Maiturnier",
    )
    make_tournament(
        [hans, opponents[0]],
        [(1, hans, opponents[0], ResultCode.WHITE_WINS)],
        end=datetime.date(2020, 2, 2),
        name="Winterblitz",
    )
    make_player(surname="Groß", first_name="Greta", dwz=2105, index=60, club=club, sex=Sex.FEMALE)
    return {"hans": hans}
