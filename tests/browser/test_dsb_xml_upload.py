"""An officer imports a CLM-style DSB-XML report (Latin-1 bytes, umlauts replaced) on a phone (390 px):
the same upload and review page as a TRF file; ``Mueller, Joerg`` is found as the stored ``Müller, Jörg``."""

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from ratings.models import Club, Evaluation, Organisation, Tournament
from ratings.models.officer import OfficerScope
from tests.builders import make_player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CLM = Path(__file__).resolve().parent.parent / "data" / "dsb-xml" / "clm-style.xml"
SHOTS = os.environ.get("TRF_SCREENSHOTS")  # a folder: save screenshots there to look at them


@pytest.fixture
def officer():
    lv = Organisation.objects.create(code="200", name="Bayerischer Schachbund")
    club = Club.objects.create(zps="21001", name="SC München-Süd", organisation=lv)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=lv)
    return club


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_officer_imports_a_clm_file_on_a_phone(live_server, page, officer, log_in):
    mueller = make_player(
        surname="Müller", first_name="Jörg", birth_year=1968, dwz=1850, index=20, club=officer
    )
    page.set_viewport_size({"width": 390, "height": 844})
    errors = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    log_in(page, "referent")

    page.goto(live_server.url + reverse("ratings:trf-upload"))
    expect(page.locator("body")).to_contain_text("DSB-XML-Turnierbericht")
    page.get_by_label("TRF-Datei").set_input_files(str(CLM))
    _shot(page, "xml-upload-390")
    assert _overflow(page) <= 0
    page.get_by_role("button", name="Datei lesen").click()

    read = page.locator("#trf-read")
    expect(read).to_contain_text("4 Spieler")
    expect(read).to_contain_text("Windows-1252")
    expect(page.locator("#id_name")).to_have_value("Vereinsmeisterschaft 2026 SC Muenchen-Sued")
    expect(page.locator("#trf-players")).to_contain_text("Name und Geburtsjahr")
    page.locator("#id_organiser").select_option(label=f"{officer.zps} {officer.name}")
    page.locator("#id_new_player_club").select_option(label=str(officer))
    page.get_by_role("button", name="Vorschau berechnen").click()
    expect(page.locator("#rating-preview")).to_be_visible()
    _shot(page, "xml-review-390")
    assert _overflow(page) <= 0
    assert Tournament.objects.count() == 0

    page.get_by_role("button", name="Speichern und auswerten").click()
    expect(page).to_have_url(re.compile(r"/turniere/\d+/$"))
    tournament = Tournament.objects.get()
    assert tournament.entries.filter(player=mueller).exists() and tournament.entries.count() == 4
    assert Evaluation.objects.filter(tournament=tournament).count() == 4
    assert errors == []
