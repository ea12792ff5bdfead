"""A division's page at a laptop's and a phone's width: the table and the rounds shown, no sideways scrolling
of the page, every table column reachable in its own scroll box; the card's league panel."""

import pytest
from playwright.sync_api import expect

from tests.builders import collect_errors
from tests.leagues.league_builders import small_division

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REACHABLE = """(selector) => {
  const table = document.querySelector(selector);
  const box = table.closest('.table-responsive') || table.parentElement;
  box.scrollLeft = box.scrollWidth;
  const shown = [...table.querySelectorAll('thead th')].filter((th) => th.offsetWidth > 0);
  const last = shown[shown.length - 1].getBoundingClientRect();
  return last.right <= window.innerWidth + 1;
}"""


@pytest.mark.parametrize("width", [1366, 390])
def test_division_page_fits(live_server, page, width):
    league = small_division()
    errors = collect_errors(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/ligen/staffel/{league.division.pk}/")
    table = page.locator("#league-table")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr").first).to_contain_text("SF Delta 1")
    expect(page.locator("#runde-1")).to_contain_text("SK Alpha 1")
    for selector in ("#league-table", "#league-crosstable"):
        assert page.evaluate(REACHABLE, selector), (width, selector)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Wins, draws and losses are left to the wide screen; MP and BP stay.
    wins = page.locator("#league-table thead th").nth(3)
    assert (wins.evaluate("el => getComputedStyle(el).display") == "none") == (width == 390)
    # A round's reports: every match open with its boards, each player linking to his card.
    page.locator("#runde-1 h3 a").click()
    expect(page.locator(".match-boards").first).to_be_visible()
    assert page.evaluate(REACHABLE, ".match-boards"), (width, "boards")
    # The result is what a player opens the report for: in view on a phone without scrolling the box.
    result = page.locator(".match-boards thead th").last.bounding_box()
    assert result is not None and result["x"] + result["width"] <= width, (width, result)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator(".match-boards a").first.click()
    expect(page.locator("#league-board-record")).to_contain_text("SK Alpha 1")
    assert errors == []
