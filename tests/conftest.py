import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import translation
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls there otherwise.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "de-DE"}


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language. A request through LocaleMiddleware (an English page,
    an Accept-Language header) leaves its language active in the thread, so a later test's messages came
    out in English or German depending on which files had run before it on the same worker."""
    translation.deactivate()


@pytest.fixture(autouse=True)
def _local_pages_empty():
    """Each test starts with no page in the worker's own page copies (``dwzsite.page_cache.local_pages``):
    its keys hold the generation and its time, which a test that moves the clock could meet again."""
    from dwzsite.page_cache import local_pages

    local_pages.clear()


@pytest.fixture(autouse=True)
def _correction_window_off(settings):
    """The suite's tournaments have fixed dates, most of them more than a year back by now: the WO 6.2 year
    of a Wertungsreferent (``ratings.permissions``) would refuse them. Its own tests turn it on with
    ``override_settings(OFFICER_CORRECTION_WINDOW=True)`` and count from dates relative to today."""
    settings.OFFICER_CORRECTION_WINDOW = False


@pytest.fixture(autouse=True)
def _plausibility_checks(request):
    """The plausibility warnings (ratings.selectors.plausibility) only where a test is about them (marker
    ``plausibility``): the other tests save tournaments of 2024 without a time control, which would ask for
    a confirmation on every save."""
    with override_settings(PLAUSIBILITY_CHECKS=request.node.get_closest_marker("plausibility") is not None):
        yield


@pytest.fixture(autouse=True)
def _throttle_counts_of_live_tests_cleared(request, django_db_blocker):
    """The request limits count in a database cache table (``settings.THROTTLE_CACHE``), which a
    transactional test's flush leaves alone (it is no model's table): a browser test's form posts from
    127.0.0.1 still counted against the next file's test client, also 127.0.0.1, within the hour's window.
    Cleared after every test that wrote outside a rolled-back transaction."""
    yield
    if not ({"transactional_db", "live_server"} & set(request.fixturenames)):
        marker = request.node.get_closest_marker("django_db")
        if marker is None or not marker.kwargs.get("transaction"):
            return
    from django.core.cache import caches

    with django_db_blocker.unblock():
        caches[settings.THROTTLE_CACHE].clear()


_migrated_copy: list[Path] = []
_CONFIGURED_NAME = settings.DATABASES["default"]["NAME"]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, tmp_path_factory):
    """The test database, and on SQLite a file copy of it taken while it is freshly migrated and empty: the
    template of ``migrated_sqlite_template`` without a second ``migrate`` in a subprocess."""
    from django.db import connection

    # pytest-django creates the test database only when a collected test asks for one; without it the
    # connection still points at the configured file, which must not be copied (nor created).
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"] != _CONFIGURED_NAME:
        db = tmp_path_factory.mktemp("migrated") / "template.sqlite3"
        with django_db_blocker.unblock():
            connection.ensure_connection()
            with sqlite3.connect(db) as target:
                connection.connection.backup(target)
            target.close()
        _migrated_copy.append(db)


@pytest.fixture(scope="session")
def migrated_sqlite_template(request, tmp_path_factory) -> Path:
    """A SQLite file with every migration applied, made once per session (per xdist worker): commands run in
    a subprocess cannot see the test database. On SQLite it is a copy of the test database (if the session
    has one); otherwise the migrations run in a subprocess (seconds of CPU)."""
    if "sqlite" in settings.DATABASES["default"]["ENGINE"]:
        request.getfixturevalue("django_db_setup")
        if _migrated_copy:
            return _migrated_copy[0]
    db = tmp_path_factory.mktemp("migrated") / "template.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k != "DATABASE_URL"}
    env |= {"DJANGO_SETTINGS_MODULE": "dwzsite.settings_test", "DATABASE_URL": f"sqlite:///{db}"}
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=root, env=env, check=True)
    return db


@pytest.fixture
def migrated_sqlite(migrated_sqlite_template, tmp_path) -> Path:
    """A fresh, migrated, empty SQLite file of this test's own."""
    db = tmp_path / "db.sqlite3"
    shutil.copyfile(migrated_sqlite_template, db)
    return db


# Example counts of the property and fuzz tests: ``examples(n)`` is n in ``make test`` (Hypothesis' default
# profile) and ten times n with ``pytest --hypothesis-profile=thorough``, the run to make by hand after
# changing a parser, an import or the recalculation (about ten times as long).
# Input generation that is merely slow (a loaded CI machine: a round-trip example took 93 s once) is not a
# failure of the code under test; every other health check stays on.
_SLOW_IS_FINE = [HealthCheck.too_slow]
hypothesis_settings.register_profile("default", suppress_health_check=_SLOW_IS_FINE)
hypothesis_settings.register_profile("thorough", max_examples=1000, suppress_health_check=_SLOW_IS_FINE)
hypothesis_settings.load_profile("default")


def examples(n: int) -> int:
    return max(1, n * hypothesis_settings.default.max_examples // 100)


# Test kinds by folder: the pure engine and file formats are unit tests, the browser tests end-to-end,
# everything else works against the database (integration). Select with ``-m unit`` and the like.
KINDS = {"dwz": "unit", "formats": "unit", "browser": "e2e"}


# The order in which files go to the xdist workers (``--dist loadfile`` hands out whole files from the front
# of the collection): the long browser files first, the database tests next, the many short unit files
# last, so that both workers finish within a short file of each other. xdist's own order (most tests first)
# put the browser files, few tests of several seconds each, at the very end.
KIND_ORDER = {"e2e": 0, "integration": 1, "unit": 2}


def pytest_configure(config):
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    root = config.rootpath / "tests"
    kinds: dict = {}
    per_file: dict = {}
    for item in items:
        parts = item.path.relative_to(root).parts if item.path.is_relative_to(root) else ()
        kind = KINDS.get(parts[0], "integration") if len(parts) > 1 else "integration"
        item.add_marker(getattr(pytest.mark, kind))
        kinds[item.path] = kind
        per_file[item.path] = per_file.get(item.path, 0) + 1
    items.sort(key=lambda item: (KIND_ORDER[kinds[item.path]], -per_file[item.path], str(item.path)))
