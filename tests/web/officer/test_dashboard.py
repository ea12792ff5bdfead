"""WO 6.2 (spec §17): the officer's dashboard lists the tournaments of his area that ended more than six weeks
ago and are not yet evaluated (a draft not published, or rated without evaluation rows), with the end date,
the days since the deadline and a link."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import permissions
from ratings.models import Tournament, TournamentDraft
from tests.builders import save_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _window_on(_correction_window_off, settings):
    settings.OFFICER_CORRECTION_WINDOW = True  # off in the rest of the suite (tests/conftest.py)


def _ended(days: int, club, name: str, **fields) -> Tournament:
    end = permissions.today() - datetime.timedelta(days=days)
    return Tournament.objects.create(name=name, start_date=end, end_date=end, organiser_club=club, **fields)


def _overdue(html: str) -> dict[str, str]:
    """Each listed tournament's name and its list item's text."""
    section = re.search(r'<section id="overdue".*?</section>', html, re.S)
    if not section:
        return {}
    items = re.findall(r'<li class="list-group-item[^>]*>(.*?)</li>', section.group(0), re.S)
    out = {}
    for item in items:
        name = re.search(r'<a href="[^"]*">([^<]*)</a>', item).group(1)
        out[name] = " ".join(re.sub(r"<[^>]+>", " ", item).split())
    return out


def _dashboard(client, user) -> str:
    client.force_login(user)
    response = client.get(reverse("ratings:officer-dashboard"))
    assert response.status_code == 200
    return response.content.decode()


def test_the_dashboard_lists_the_overdue_tournaments_of_the_officers_area(client, users, tree, players):
    club = tree["club_a"]
    empty = _ended(50, club, "Nur Kopf")
    draft = _ended(100, club, "Mit Entwurf")
    TournamentDraft.objects.create(tournament=draft, participants=[p.pk for p in players])
    _ended(43, club, "Seit gestern")
    _ended(42, club, "Frist heute")  # the 42nd day is the last one: not overdue yet
    _ended(50, club, "Ungewertet", rated=False)  # nothing to evaluate
    _ended(50, tree["club_b"], "Anderer Bezirk")
    stale = _ended(500, club, "Uralt")
    end = permissions.today() - datetime.timedelta(days=60)
    evaluated = Tournament(name="Ausgewertet", start_date=end, end_date=end, organiser_club=club)
    a, b, c = players
    save_tournament(players, [(a, b, "1-0"), (b, c, "0-1")], end=end, tournament=evaluated)

    listed = _overdue(_dashboard(client, users["officer_a"]))
    assert list(listed) == ["Uralt", "Mit Entwurf", "Nur Kopf", "Seit gestern"]  # earliest end first
    assert "Frist seit 8 Tagen abgelaufen" in listed["Nur Kopf"]
    assert "Frist seit 1 Tag abgelaufen" in listed["Seit gestern"]
    assert "Entwurf fortsetzen" in listed["Mit Entwurf"]
    assert "Ergebnisse eintragen" in listed["Nur Kopf"]
    assert "nur Administrator" in listed["Uralt"]  # past the year: no link to a page he may not open
    assert empty.end_date.strftime("%d.%m.%Y") in listed["Nur Kopf"]
    html = _dashboard(client, users["officer_a"])
    assert reverse("ratings:tournament-rounds", args=[draft.pk]) in html
    assert reverse("ratings:tournament-grid", args=[stale.pk]) not in html

    assert "Anderer Bezirk" in _overdue(_dashboard(client, users["officer_b"]))
    assert "Nur Kopf" not in _overdue(_dashboard(client, users["officer_b"]))
    admin = _overdue(_dashboard(client, users["admin"]))
    assert {"Anderer Bezirk", "Uralt"} <= set(admin)
    assert "nur Administrator" not in admin["Uralt"]


def test_without_overdue_tournaments_there_is_no_list(client, users, tree):
    _ended(10, tree["club_a"], "Frisch")
    assert 'id="overdue"' not in _dashboard(client, users["officer_a"])


def test_the_dashboard_query_count_does_not_grow_with_the_list(client, users, tree, players):
    club = tree["club_a"]
    counts = []
    for n in (1, 4):
        Tournament.objects.all().delete()
        for i in range(n):
            t = _ended(50 + i, club, f"Offen {i}")
            if i % 2:
                TournamentDraft.objects.create(tournament=t, participants=[p.pk for p in players])
        client.force_login(users["officer_lv"])
        client.get(reverse("ratings:officer-dashboard"))  # the first request after a login writes the session
        with CaptureQueriesContext(connection) as ctx:
            html = client.get(reverse("ratings:officer-dashboard")).content.decode()
        assert len(_overdue(html)) == n
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_dashboard_links_each_tournament(client, users, tournament):
    client.force_login(users["officer_a"])
    html = client.get(reverse("ratings:officer-dashboard")).content.decode()
    assert f'href="{reverse("ratings:tournament-detail", args=[tournament.pk])}"' in html
