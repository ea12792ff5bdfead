"""The calculator names the index it assumed for a DWZ given without one (issue 32), at desktop and phone
width: the note and the new DWZ are visible and inside the page."""

import pytest
from playwright.sync_api import expect

from tests.builders import collect_errors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _settled_box(page, locator):
    """The element's box once htmx has stopped swapping the result: the form queues the last request
    (``hx-sync="this:queue last"``), so a swap can replace the element between finding and measuring it."""
    box = None
    for _ in range(50):
        box = locator.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(100)
    return box


@pytest.mark.parametrize("width", [1366, 390])
def test_an_empty_index_is_assumed_and_said(live_server, page, width):
    errors = collect_errors(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/rechner/")
    page.get_by_label("Ihre DWZ").fill("1600")
    page.get_by_label("Geburtsjahr").fill("1990")
    page.get_by_label("Turnierende").fill("2026-09-20")
    page.locator("#id_opp-0-rating").fill("1600")
    page.locator("#id_opp-0-result").select_option("1")
    note = page.locator("#calc-assumed-index")
    expect(note).to_contain_text("gerechnet mit Index 11")
    expect(page.locator("#calc-new")).to_have_text("1614")  # K 28 (column >10), not K 60
    expect(page.locator("#calc-coefficient")).to_have_text("28,0")
    for locator in (note, page.locator("#calc-new")):
        box = _settled_box(page, locator)
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Typing the index replaces the assumption.
    page.get_by_label("Index").fill("3")
    expect(page.locator("#calc-new")).to_have_text("1622-4")  # K 44 (group B, column 3): 1600 + 22
    expect(note).to_have_count(0)
    assert errors == []
