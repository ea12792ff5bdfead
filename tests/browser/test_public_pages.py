"""Browser tests of the public pages: search with an umlaut → player card with its chart; rating list filter
and export; the calculator's live result; the language switch on a public page."""

import csv
import io

import pytest
from playwright.sync_api import expect

from tests.builders import collect_errors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_search_with_umlaut_opens_the_card_with_its_chart(live_server, page, data):
    errors = collect_errors(page)
    page.goto(live_server.url + "/")
    # The start page lists the latest evaluated tournament first.
    expect(page.locator("#latest-title + * a").first).to_have_text("Winterblitz")
    page.get_by_label("Spieler, Verein oder Turnier suchen").fill("Muller")
    page.keyboard.press("Enter")
    link = page.locator("#search-players").get_by_role("link", name="Müller, Hans")
    expect(link).to_be_visible()
    link.click()
    expect(page.locator("h1")).to_contain_text("Müller, Hans")
    expect(page.locator("#history-table")).to_contain_text("Maiturnier")
    canvas = page.locator("#dwz-chart")
    expect(canvas).to_have_attribute("data-ready", "1")
    assert (
        page.evaluate("Chart.getChart(document.getElementById('dwz-chart')).data.datasets[0].data.length")
        == 3
    )
    box = canvas.bounding_box()
    assert box["width"] > 100 and box["height"] > 100
    assert errors == []


def test_rating_list_filter_and_csv_export(live_server, page, data):
    errors = collect_errors(page)
    page.goto(live_server.url + "/ranglisten/")
    expect(page.locator("#rating-table tbody tr")).to_have_count(7)
    page.get_by_label("Verband").select_option("C00")
    page.get_by_label("Geschlecht").select_option("m")
    page.get_by_role("button", name="Filtern").click()
    expect(page.locator("#rating-table tbody tr")).to_have_count(1)
    expect(page.locator("#rating-table tbody")).to_contain_text("Müller, Hans")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="CSV", exact=True).click()
    download = download_info.value
    with open(download.path(), encoding="utf-8-sig") as handle:
        rows = list(csv.reader(io.StringIO(handle.read()), delimiter=";"))
    assert [r[1] for r in rows[1:]] == ["Müller, Hans"]
    with page.expect_download() as download_info:
        page.get_by_role("link", name="XLSX").click()
    assert download_info.value.suggested_filename.endswith(".xlsx")
    assert errors == []


def test_rating_list_sorting_by_keyboard_keeps_the_page_and_a_name_opens_the_card(live_server, page, data):
    page.goto(live_server.url + "/ranglisten/")
    page.locator("#rating-table thead").get_by_role("link", name="Name").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(live_server.url + "/ranglisten/?sort=name")
    expect(page.locator("#rating-table tbody tr").first).to_contain_text("Gegner1")
    # The sort link swapped only the table; a player's link loads his whole card, heading included.
    page.locator("#rating-table tbody").get_by_role("link", name="Müller, Hans").click()
    expect(page.locator("h1")).to_contain_text("Müller, Hans")
    expect(page.locator("#history-table")).to_contain_text("Maiturnier")


def test_calculator_updates_live(live_server, page):
    errors = collect_errors(page)
    page.goto(live_server.url + "/rechner/")
    page.get_by_label("Ihre DWZ").fill("1850")
    page.get_by_label("Index").fill("3")
    page.get_by_label("Geburtsjahr").fill("1980")
    page.get_by_label("Turnierende").fill("2019-05-12")
    # Spec §14 E2: 1700 (1), 1780 (½), 1900 (1), 2010 (0), 1650 (½) -> 1859, We 2.776, E 15.
    rows = [("1700", "1"), ("1780", "0.5"), ("1900", "1"), ("2010", "0"), ("1650", "0.5")]
    for i, (rating, result) in enumerate(rows):
        page.locator(f"#id_opp-{i}-rating").fill(rating)
        page.locator(f"#id_opp-{i}-result").select_option(result)
    expect(page.locator("#calc-new")).to_have_text("1859-4")
    expect(page.locator("#calc-we")).to_have_text("2,776")
    expect(page.locator("#calc-edition")).to_contain_text("klassisch")
    # Add a sixth opponent (a loss against 1500): the result follows without a submit.
    page.get_by_role("button", name="Gegner hinzufügen").click()
    page.locator("#id_opp-5-rating").fill("1500")
    page.locator("#id_opp-5-result").select_option("0")
    expect(page.locator("#calc-points")).to_have_text("3 / 6")
    # Remove it again.
    page.get_by_role("button", name="Gegner entfernen").nth(5).click()
    expect(page.locator("#calc-new")).to_have_text("1859-4")
    # A date after 2026-06-07 switches to WO 2026 (K instead of E).
    page.get_by_label("Turnierende").fill("2026-09-20")
    expect(page.locator("#calc-edition")).to_contain_text("WO 2026")
    assert errors == []


def test_calculator_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False, locale="de-DE")
    page = context.new_page()
    page.goto(live_server.url + "/rechner/")
    page.get_by_label("Ihre DWZ").fill("1600")
    page.get_by_label("Index").fill("20")
    page.get_by_label("Geburtsjahr").fill("1990")
    page.get_by_label("Turnierende").fill("2025-09-20")
    page.locator("#id_opp-0-rating").fill("1600")
    page.get_by_role("button", name="Berechnen").click()
    # Classic, adult, idx 20: E0 = 1.6^4 + 15 = 21.55 -> 22; Rn = 1600 + 800 * 0.5 / 23 = 1617.39 -> 1617.
    expect(page.locator("#calc-new")).to_have_text("1617-21")
    context.close()


def test_language_switch_on_a_public_page(live_server, page, data):
    page.goto(live_server.url + "/ranglisten/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page).to_have_url(live_server.url + "/ranglisten/")  # stable German URLs, no language prefix
    page.goto(live_server.url + f"/spieler/{data['hans'].key}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # Dates follow the language (Django's localisation): 12.05.2019 in German, otherwise in English.
    expect(page.locator("#history-table")).not_to_contain_text("12.05.2019")
