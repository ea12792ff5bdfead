"""The officers' Abgleich page in the browser at 1366 and 390 px: reached from the dashboard, the three
planted causes shown, every column at 1366 px, the priority columns (player, DSB, dwzsite, cause, with the
tournaments and the hint under the player) without horizontal scrolling at 390 px, the cause filter."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.models import Club, Organisation
from ratings.models.officer import OfficerScope
from tests.official_planted import members_of, plant, store

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth"
TABLE_FITS = (
    "(() => { const t = document.querySelector('#comparison-table');"
    " return t.scrollWidth <= t.parentElement.clientWidth; })()"
)


def test_the_comparison_page_at_1366_and_390(live_server, page, log_in):
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    planted = plant()
    members_of(club, planted.world.players)
    store(planted)
    missing = planted.world.tournaments[planted.missing]
    errors = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))

    page.set_viewport_size({"width": 1366, "height": 900})
    log_in(page, "referent")
    page.goto(live_server.url + "/referent/")
    page.get_by_role("link", name="Abgleich DSB").click()
    page.locator("#comparison-imports a").first.click()
    table = page.locator("#comparison-table")
    expect(table).to_be_visible()
    expect(table.locator('tr[data-cause="ours_extra"]')).to_have_count(4)
    expect(table.locator('tr[data-cause="dsb_extra"]')).to_have_count(4)
    pair_row = table.locator(f'tr[data-player="{planted.pair[0].key}"]')
    expect(pair_row.locator(".comparison-tournaments")).to_contain_text("T02")
    expect(table.locator(".comparison-message").first).to_be_visible()
    expect(table.locator("th", has_text="Hinweis")).to_be_visible()
    assert page.evaluate(FITS)

    page.set_viewport_size({"width": 390, "height": 900})
    assert page.evaluate(FITS) and page.evaluate(TABLE_FITS)
    expect(table.locator("th", has_text="Hinweis")).to_be_hidden()
    expect(table.locator(".comparison-message-short").first).to_be_visible()
    key = table.locator('tr[data-cause="ours_extra"]').first.get_attribute("data-player")
    detail = table.locator(f'tr.comparison-detail[data-player="{key}"]')
    expect(detail).to_contain_text("T12")

    page.select_option("#id_ursache", "ours_extra")
    page.get_by_role("button", name="Filtern").click()
    expect(table.locator("tr.comparison-row")).to_have_count(4)
    assert page.evaluate(FITS) and page.evaluate(TABLE_FITS)
    detail.get_by_role("link", name="T12").click()
    expect(page).to_have_url(live_server.url + missing.get_absolute_url())
    expect(page.locator("#official-verdict")).to_have_attribute("data-state", "differs")
    assert page.evaluate(FITS)
    assert errors == []
