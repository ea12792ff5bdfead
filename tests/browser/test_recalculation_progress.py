"""The background recalculation's progress page and notice in a real browser, at a phone's and a laptop's
width: it fits, polls itself under the Content-Security-Policy (htmx, no inline script), stops when done."""

import datetime

import pytest
from playwright.sync_api import expect

from ratings.models import RecalculationJob, RecalculationJobStatus
from tests.builders import collect_errors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _fits(page, width):
    """The page resized to ``width`` fits. Resized, not reloaded: the layout is CSS alone but for the card's
    chart, which the test loads at 390 px first (a chart only grows with its box, it never widens a page)."""
    page.set_viewport_size({"width": width, "height": 900})
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_notice_and_progress_page_update_themselves(live_server, page, data):
    errors = collect_errors(page)
    job = RecalculationJob.objects.create(
        since=datetime.date(2019, 5, 12), status=RecalculationJobStatus.RUNNING, done=3, total=12, estimate=8
    )
    # The page's own timers under Playwright's clock: the test moves the clock on to the next poll (every
    # 2 s) instead of waiting for it.
    page.clock.install()
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(live_server.url + f"/spieler/{data['hans'].key}/")
    notice = page.locator("#recalculation-notice")
    expect(notice).to_contain_text("Neuberechnung läuft")
    _fits(page, 390)
    _fits(page, 1366)
    expect(notice).to_be_visible()
    notice.get_by_role("link", name="Fortschritt").click()

    expect(page.locator("#recalculation-status")).to_have_text("läuft")
    expect(page.locator("#recalculation-count")).to_contain_text("3 von 12 Turnieren ausgewertet (25 %)")
    bar = page.locator("progress.recalculation-bar")
    expect(bar).to_be_visible()
    assert bar.bounding_box()["width"] > 100
    _fits(page, 1366)
    _fits(page, 390)
    assert bar.bounding_box()["width"] > 100

    RecalculationJob.objects.filter(pk=job.pk).update(done=9)
    page.clock.fast_forward(2000)
    expect(page.locator("#recalculation-count")).to_contain_text("9 von 12")
    RecalculationJob.objects.filter(pk=job.pk).update(status=RecalculationJobStatus.DONE, done=12)
    page.clock.fast_forward(2000)
    expect(page.locator("#recalculation-done")).to_contain_text("Fertig: 12 Turniere")
    expect(page.locator("#recalculation-progress")).not_to_have_attribute("hx-trigger", "every 2s")
    _fits(page, 390)
    _fits(page, 1366)

    page.goto(live_server.url + f"/spieler/{data['hans'].key}/")
    expect(page.locator("#recalculation-notice")).to_have_count(0)
    assert errors == []
