"""No GET parameter of any page gives a server error: a NUL byte (PostgreSQL refuses it in text: issue 26,
``/statistik/?verband=%00`` answered 500), a 100 kB value or invalid UTF-8, sent to every parameter of every
public and officer page (every URL pattern of the site but the Django admin), logged in as an officer.

The NUL case is answered 400 by ``dwzsite.middleware.NulByteMiddleware`` on both databases; run this on
PostgreSQL too (DATABASE_URL), where a NUL that got through would be a 500.
"""

from __future__ import annotations

import datetime
import inspect
import re
from importlib import import_module
from pathlib import Path

import pytest
from django import forms
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from ratings.enums import ResultCode
from ratings.models import Club, Organisation
from ratings.web.public import filters
from tests.builders import club_player, make_tournament, make_user

pytestmark = pytest.mark.django_db

RATINGS = Path(__file__).resolve().parents[2] / "ratings"
VIEWS = [
    *RATINGS.glob("web/*/views/*.py"),
    *RATINGS.glob("web/accounts/*.py"),
    RATINGS / "web" / "health.py",
    RATINGS / "api" / "views.py",
]
GENERIC = {"q", "page", "per_page", "sort", "verband", "verein", "jahr", "format", "_export", "top", "liste"}
BIG = "x" * 100_000


def parameter_names() -> set[str]:
    """Every GET parameter a view reads: the filter sets' and forms' fields, ``request.GET`` in the views."""
    names = set(GENERIC)
    for module in (
        filters,
        *(
            import_module(m)
            for m in (
                "ratings.web.public.forms",
                "ratings.web.officer.forms.results",
                "ratings.web.officer.forms.tournament",
            )
        ),
    ):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm):
                names |= set(cls.base_fields)
            elif hasattr(cls, "base_filters"):
                names |= set(cls.base_filters)
    for path in VIEWS:
        names |= set(re.findall(r"GET(?:\.get|\.getlist)?\(\s*\"(\w+)\"", path.read_text()))
    return names


def patterns(resolver: URLResolver | None = None, namespace: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin" or entry.app_name == "admin":
                continue
            found += patterns(entry, f"{namespace}{entry.namespace}:" if entry.namespace else namespace)
        elif entry.name:
            found.append((namespace + entry.name, entry))
    return found


@pytest.fixture
def site():
    """A small federation, three rated players with a round robin, an officer of their club."""
    dsb = Organisation.objects.create(code="000", name="Deutscher Schachbund")
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart", parent=dsb)
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk)
    a, b, c = (
        club_player(club, name, dwz, number=str(i))
        for i, (name, dwz) in enumerate((("Anton", 1600), ("Berta", 1500), ("Carl", 1400)), start=1)
    )
    games = [(1, a, b, ResultCode.WHITE_WINS), (2, b, c, ResultCode.DRAW), (3, c, a, ResultCode.BLACK_WINS)]
    tournament = make_tournament(
        [a, b, c], games, end=datetime.date(2024, 3, 10), organiser_club=club, rounds=3
    )
    values = {
        "key": a.key,
        "zps": club.zps,
        "code": bezirk.code,
        "pk": tournament.pk,
        "round_no": 1,
        "event": 1,
        "token": "unbekannt",
        "uidb64": "MQ",
        "scope": "verein",
        "fmt": "csv",
    }
    return {"values": values, "officer": make_user("officer", club=club), "club": club}


def urls(site) -> list[str]:
    found = []
    for name, pattern in patterns():
        kwargs = {key: site["values"][key] for key in pattern.pattern.converters}
        kwargs |= {k: site["values"][k] for k in re.findall(r"<(?:\w+:)?(\w+)>", str(pattern.pattern))}
        if name.endswith("dsb-list-download"):
            kwargs["code"] = site["club"].zps
        if "(?" in str(pattern.pattern) or "^" in str(pattern.pattern):
            found.append("/api/unbekannt")  # the JSON 404 catch-all
            continue
        found.append(reverse(name, kwargs=kwargs))
    return sorted(set(found))


def test_every_page_is_enumerated(site):
    found = urls(site)
    assert len(found) >= 50
    assert {"/statistik/", "/api/players/C0501-1", "/referent/", "/turniere/1/ergebnisse/"} <= {
        re.sub(r"/\d+/", "/1/", u) for u in found
    }
    assert {"sort", "verband", "q", "geschlecht", "aktiv", "p"} <= parameter_names()


def test_a_nul_byte_in_any_parameter_is_a_400(client, site):
    """Each parameter on its own, on every page (the middleware answers before login matters)."""
    client.force_login(site["officer"])
    failures = []
    for url in urls(site):
        for name in sorted(parameter_names()):
            response = client.get(url, {name: "a\x00"})
            if response.status_code != 400:
                failures.append((url, name, response.status_code))
        for path, status in ((f"{url}?{chr(0)}=1", 400), (url.rstrip("/") + "%00/", 404)):
            response = client.get(path)
            if response.status_code != status:
                failures.append((path, "", response.status_code))
    assert failures == []


def test_the_statistics_page_of_the_issue_says_why_in_german(client, site):
    response = client.get("/statistik/?verband=%00")
    assert response.status_code == 400
    assert "Die Adresse enthält ein Nullbyte" in response.content.decode()
    api = client.get(f"/api/players/{site['values']['key']}?x=%00")
    assert api.status_code == 400 and "Nullbyte" in api.json()["error"]


@pytest.mark.parametrize("logged_in", [False, True], ids=["public", "officer"])
def test_huge_values_and_invalid_utf8_in_every_parameter_are_no_server_error(site, logged_in):
    """All parameters of the site at once on every page: the forms and filters validate every field."""
    client = Client(raise_request_exception=False)
    if logged_in:
        client.force_login(site["officer"])
    names = sorted(parameter_names())
    failures = []
    for url in urls(site):
        for value in (BIG, "%ff%fe%c3", "%c3%28%a0%a1x", f"%ff{BIG[:1000]}"):
            response = client.get(f"{url}?" + "&".join(f"{name}={value}" for name in names))
            if response.status_code >= 500:
                failures.append((url, value[:20], response.status_code))
    assert failures == []
