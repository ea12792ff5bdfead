"""The logged-in menu fits one line at 1366 px, no page scrolls sideways at 1024 px, and the dashboard's
buttons are on screen at 390 px; logging in lands on "Meine Turniere"."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.models import Club, Organisation, Tournament
from ratings.models.officer import OfficerScope

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MEASURE = """() => ({
  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  navHeight: document.querySelector('nav.navbar').getBoundingClientRect().height,
  offscreen: [...document.querySelectorAll('main a.btn, main button')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5);
  }).map(e => e.textContent.trim()),
})"""


@pytest.fixture
def admin_user():
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0503", name="SK Zuffenhausen 1921", organisation=bezirk)
    for n in range(3):
        Tournament.objects.create(
            name=f"Vereinsmeisterschaft 2025/26 SK Zuffenhausen 1921, Gruppe {n}",
            start_date=datetime.date(2025, 9, 1),
            end_date=datetime.date(2026, 5, 1),
            rounds=9,
            organiser_club=club,
        )
    user = get_user_model().objects.create_superuser(
        username="wertungsreferentin", password="demo-admin", email=""
    )
    OfficerScope.objects.create(user=user, organisation=bezirk)
    return user


@pytest.mark.parametrize("language", ["de-DE", "en-US"])
def test_menu_and_dashboard_fit(live_server, browser, admin_user, language):
    context = browser.new_context(locale=language, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + "/anmelden/")
    page.locator("#id_username").fill("wertungsreferentin")
    page.locator("#id_password").fill("demo-admin")
    page.locator("main button[type=submit]").click()
    expect(page).to_have_url(live_server.url + "/referent/")
    for width in (1366, 1200, 1024, 390):  # the menu's layout is CSS alone: a resize needs no reload
        page.set_viewport_size({"width": width, "height": 900})
        m = page.evaluate(MEASURE)
        assert m["overflow"] <= 0, (width, m)
        assert m["navHeight"] < 64, (width, m)  # one line: the brand's height plus padding
        assert m["offscreen"] == [], (width, m)
    context.close()
