"""WO 6.2 in the browser, at 1366 and 390 px: the dashboard lists the overdue tournaments of the officer's
area; a tournament that ended more than a year ago has no edit links for him, and its edit page, typed in,
says that only an administrator may correct it."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings import permissions
from ratings.models import Club, Organisation, Tournament
from ratings.models.officer import OfficerScope

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MESSAGE = (
    "Turniere, die vor mehr als einem Jahr endeten, kann nur ein Administrator korrigieren oder löschen."
)


@pytest.fixture(autouse=True)
def _window_on(_correction_window_off, settings):
    settings.OFFICER_CORRECTION_WINDOW = True  # off in the rest of the suite (tests/conftest.py)


def _ended(days: int, club: Club, name: str) -> Tournament:
    end = permissions.today() - datetime.timedelta(days=days)
    return Tournament.objects.create(name=name, start_date=end, end_date=end, organiser_club=club)


@pytest.mark.parametrize("width", [1366, 390])
def test_officer_sees_overdue_tournaments_and_the_refused_correction(live_server, page, log_in, width):
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    overdue = _ended(50, club, "Vereinsblitz mit langem Namen, noch ohne Ergebnisse")
    old = _ended(400, club, "Stadtmeisterschaft vom Vorjahr")
    _ended(5, club, "Frisches Turnier")
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "referent")

    page.goto(live_server.url + "/referent/")
    section = page.locator("#overdue")
    expect(section).to_be_visible()
    expect(section.locator(".overdue-item")).to_have_count(2)  # the fresh one is not overdue
    item = section.locator(f'.overdue-item[data-tournament="{overdue.pk}"]')
    expect(item).to_contain_text("Frist seit 8 Tagen abgelaufen")
    expect(item.get_by_role("link", name="Ergebnisse eintragen")).to_be_visible()
    expect(section.locator(f'.overdue-item[data-tournament="{old.pk}"]')).to_contain_text("nur Administrator")
    expect(page.locator("#window-note")).to_contain_text(MESSAGE)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    item.get_by_role("link", name="Ergebnisse eintragen").click()
    # The entry opens the tab the tournament is at (here: its participants or its grid).
    expect(page).to_have_url(re.compile(rf"/turniere/{overdue.pk}/(teilnehmer|kreuztabelle|runden/\d+)/"))

    page.goto(live_server.url + old.get_absolute_url())
    expect(page.locator(".officer-window-closed")).to_contain_text(MESSAGE)
    expect(page.get_by_role("link", name="Löschen")).to_have_count(0)
    response = page.goto(live_server.url + f"/turniere/{old.pk}/bearbeiten/")
    assert response is not None and response.status == 403
    expect(page.locator("#permission-reason")).to_have_text(MESSAGE)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert [e for e in errors if "status of 403" not in e] == []  # the refused page itself is logged
