"""An officer imports a real TRF file in the browser: upload → what was read → players → preview → save.
Nothing is written before the final button. The flow runs at 1366 px; the review page, the one with wide
tables, is measured at 390 px as well."""

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.models import Club, Evaluation, Organisation, Player, Tournament
from ratings.models.officer import OfficerScope

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parent.parent / "data" / "trf"
SHOTS = os.environ.get("TRF_SCREENSHOTS")  # a folder: save screenshots there to look at them


@pytest.fixture
def officer():
    lv = Organisation.objects.create(code="C00", name="Schachverband Württemberg")
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart", parent=lv)
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    return club


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_officer_imports_a_real_file(live_server, page, officer, log_in):
    width = 1366
    page.set_viewport_size({"width": width, "height": 900})
    errors = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    log_in(page, "referent")

    page.goto(live_server.url + "/referent/")
    page.get_by_role("link", name="Turnier aus Datei").click()
    page.get_by_label("TRF-Datei").set_input_files(str(DATA / "lichess-swiss-2020-06.trf"))
    _shot(page, f"trf-upload-{width}")
    page.get_by_role("button", name="Datei lesen").click()

    read = page.locator("#trf-read")
    expect(read).to_contain_text("13 Spieler")
    expect(read).to_contain_text("10 Runden")
    expect(read).to_contain_text("(H: 2, U: 4, Z: 12)")
    expect(page.locator("#id_name")).to_have_value("Mai 5 Plus 0 Turnier")
    expect(page.locator("#trf-open")).to_contain_text("13 Spieler sind unbekannt")
    page.locator("#id_organiser").select_option(label=f"{officer.zps} {officer.name}")
    page.locator("#id_new_player_club").select_option(label=str(officer))
    page.get_by_role("button", name="Vorschau berechnen").click()

    preview = page.locator("#rating-preview")
    expect(preview).to_be_visible()
    expect(preview.locator('tr[data-rank="1"]')).to_contain_text("8,0")
    assert Tournament.objects.count() == 0 and Player.objects.count() == 0
    _shot(page, f"trf-review-{width}")
    if SHOTS:
        page.locator("#trf-players").screenshot(path=str(Path(SHOTS) / f"trf-players-{width}.png"))
    # At a phone's width nothing is wider than the screen but the scrollable tables.
    page.set_viewport_size({"width": 390, "height": 900})
    _shot(page, "trf-review-390")
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    page.set_viewport_size({"width": width, "height": 900})

    page.get_by_role("button", name="Speichern und auswerten").click()
    expect(page).to_have_url(re.compile(r"/turniere/\d+/$"))
    expect(page.locator("body")).to_contain_text("aus der Datei gespeichert")
    tournament = Tournament.objects.get()
    assert tournament.entries.count() == 13 and tournament.organiser_club == officer
    assert Evaluation.objects.filter(tournament=tournament).count() == 13
    _shot(page, f"trf-saved-{width}")
    assert errors == []
