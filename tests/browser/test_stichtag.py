"""A rating list and a card at a Stichtag at a phone's and a laptop's width (issue 30 §1): the date typed in
German in the list's form, the "Stand" shown, the values of that day, links that keep the day, no sideways
scrolling; a bad date is the form's message."""

import pytest
from playwright.sync_api import expect

from ratings.models import Evaluation
from tests.builders import collect_errors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_list_and_card_at_a_stichtag(live_server, page, data, width):
    hans = data["hans"]
    after_may = Evaluation.objects.get(player=hans, tournament__name="Maiturnier")
    errors = collect_errors(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/ranglisten/")
    page.fill("#id_stichtag", "01.01.2020")
    page.get_by_role("button", name="Filtern").click()
    expect(page.locator(".stichtag-note")).to_have_text("Stand: 01.01.2020")
    row = page.locator("#rating-table tbody tr", has_text="Müller")
    expect(row).to_contain_text(f"{after_may.dwz_new}-{after_may.index_new}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # The row's link keeps the day: the card as of it, its history up to it.
    row.get_by_role("link", name="Müller, Hans").click()
    expect(page.locator("#stichtag-note")).to_have_text("Stand: 01.01.2020")
    expect(page.locator("#current-dwz")).to_have_text(f"{after_may.dwz_new}-{after_may.index_new}")
    expect(page.locator("#history-table")).not_to_contain_text("Winterblitz")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # A date that does not exist: the form says so, the card shows today's values.
    page.fill("#id_stichtag", "30.02.2020")
    page.get_by_role("button", name="Anzeigen").click()
    expect(page.locator("#stichtag-form [role=alert]")).to_contain_text("Stichtag: bitte ein Datum")
    hans.refresh_from_db()
    expect(page.locator("#current-dwz")).to_have_text(f"{hans.dwz}-{hans.index}")
    assert errors == []
