"""Card, tournament and list pages at a phone's and a laptop's width: no sideways scrolling of the page, every
column shown reachable inside the table's own scroll box, the card's chart inside the width; the chart of a
single evaluation."""

import pytest
from playwright.sync_api import expect

from ratings.models import Tournament
from tests.builders import collect_errors, make_player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REACHABLE = """(selector) => {
  const table = document.querySelector(selector);
  const box = table.closest('.table-responsive') || table.parentElement;
  box.scrollLeft = box.scrollWidth;
  const shown = [...table.querySelectorAll('thead th')].filter((th) => th.offsetWidth > 0);
  const last = shown[shown.length - 1].getBoundingClientRect();
  return last.right <= window.innerWidth + 1;
}"""


def test_public_pages_fit_the_width(live_server, page, data):
    errors = collect_errors(page)
    tournament = Tournament.objects.get(name="Maiturnier")
    pages = [
        (f"/spieler/{data['hans'].key}/", "#history-table"),
        (f"/turniere/{tournament.pk}/", "#standings-table"),
        ("/ranglisten/", "table"),
        ("/vereine/C0501/", "table"),
        ("/statistik/?verband=C00", "#stat-years"),
    ]
    # Each page is loaded at 390 px and then widened to 1366 px: the tables are laid out by CSS alone, and a
    # chart laid out for the phone only grows with its box (it never makes a wider page).
    for path, table in pages:
        page.set_viewport_size({"width": 390, "height": 900})
        page.goto(live_server.url + path)
        for width in (390, 1366):
            page.set_viewport_size({"width": width, "height": 900})
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (width, path)
            assert page.evaluate(REACHABLE, table), (width, path, table)
            if path.startswith("/spieler/"):
                # The chart is drawn inside the width (on the phone, too: the card was loaded at 390 px).
                canvas = page.locator("#dwz-chart")
                expect(canvas).to_have_attribute("data-ready", "1")
                assert canvas.bounding_box()["width"] <= width, (width, "chart")
                # On the card, Pkt./Par., We and Lstg. are columns of the table (scrolled to, not hidden).
                for label in ("Pkt.", "Par.", "We", "Lstg."):
                    head = page.locator("#history-table thead")
                    expect(head.get_by_text(label, exact=True)).to_be_attached()
                    cell = page.locator("#history-table thead th", has_text=label).first
                    assert cell.evaluate("el => getComputedStyle(el).display") != "none", (width, label)
    # The statistics charts are drawn (from json_script, no inline script).
    page.goto(live_server.url + "/statistik/")
    for name in ("histogram", "years", "tournaments"):
        expect(page.locator(f'canvas[data-chart="{name}"]')).to_have_attribute("data-ready", "1")
    assert errors == []


def test_the_club_list_shows_the_members_on_a_phone_without_scrolling(live_server, page, data):
    """At 390 px the federation column gives way: ZPS, club and member count fit the width, the table
    does not scroll; at 1366 px the federation is back."""
    for width, federation in ((390, False), (1366, True)):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(live_server.url + "/vereine/")
        box = page.locator("#club-table").evaluate(
            "t => [t.closest('.table-responsive').scrollWidth, t.closest('.table-responsive').clientWidth]"
        )
        assert box[0] <= box[1], (width, box)
        members = page.locator("#club-table tbody td.num").first
        expect(members).to_be_in_viewport()
        assert page.locator("#club-table thead th", has_text="Verband").is_visible() is federation


def test_chart_with_one_evaluation_shows_one_point(live_server, page, db):
    player = make_player(surname="Einzel", first_name="Eva", dwz=1500, index=1)
    errors = collect_errors(page)
    page.goto(live_server.url + f"/spieler/{player.key}/")
    expect(page.locator("#dwz-chart")).to_have_attribute("data-ready", "1")
    expect(page.locator("#chart-single")).to_contain_text("DWZ 1500")
    script = "Chart.getChart(document.getElementById('dwz-chart'))"
    assert page.evaluate(f"{script}.data.datasets[0].data") == [1500]
    scale = page.evaluate(f"(() => {{ const y = {script}.scales.y; return [y.min, y.max]; }})()")
    assert scale[0] < 1500 < scale[1]
    assert errors == []


def test_the_page_links_wrap_under_a_list_on_a_phone(live_server, page, data):
    """A list of many pages at 390 px: the page links wrap under it instead of widening the table's box (it
    scrolled sideways for them, and a swipe pushed the DWZ-Index out of view)."""
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(live_server.url + "/ranglisten/?per_page=1&page=3")
    expect(page.locator(".pagination .page-item")).not_to_have_count(0)
    box = page.locator("#rating-table").evaluate(
        "t => [t.closest('.table-responsive').scrollWidth, t.closest('.table-responsive').clientWidth]"
    )
    assert box[0] <= box[1], box
    dwz = page.locator("#rating-table tbody td.num:not(.d-none)").last.bounding_box()
    assert dwz is not None and dwz["x"] + dwz["width"] <= 390, dwz
