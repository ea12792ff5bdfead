import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_page_is_german_and_switches_to_english(live_server, page):
    console_errors = []
    page.on("console", lambda msg: msg.type == "error" and console_errors.append(msg.text))

    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_have_text("Die DWZ für Vereine und Verbände")
    expect(page.locator("html")).to_have_attribute("lang", "de")

    page.get_by_role("button", name="English").click()

    expect(page.locator("h1")).to_have_text("DWZ for clubs and federations")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # Vendored Bootstrap is served locally: the navbar is styled (no CDN involved).
    assert page.evaluate("getComputedStyle(document.querySelector('nav')).display") == "flex"
    assert console_errors == []
