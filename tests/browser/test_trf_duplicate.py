"""An officer uploads the same TRF file twice on a phone (390 px): the second upload names the tournament
already saved, with a link, and saves only after "Trotzdem speichern" (issue 26 §2). Nothing is merged or
dropped: both are saved, as the officer chose."""

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.models import Club, Organisation, Tournament
from ratings.models.officer import OfficerScope

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.plausibility]

FILE = Path(__file__).resolve().parent.parent / "data" / "trf" / "lichess-swiss-2020-06.trf"


@pytest.fixture
def club():
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    return club


def _upload_and_save(page, live_server, club):
    page.goto(live_server.url + "/referent/")
    page.get_by_role("link", name="Turnier aus Datei").click()
    page.get_by_label("TRF-Datei").set_input_files(str(FILE))
    page.get_by_role("button", name="Datei lesen").click()
    page.locator("#id_organiser").select_option(label=f"{club.zps} {club.name}")
    page.locator("#id_new_player_club").select_option(label=str(club))
    page.get_by_role("button", name="Vorschau berechnen").click()
    expect(page.locator("#rating-preview")).to_be_visible()
    page.get_by_role("button", name="Speichern und auswerten").click()
    warnings = page.locator("#plausibility")
    expect(warnings).to_be_visible()
    return warnings


def test_the_same_file_twice_asks_before_the_second_save(live_server, page, club, log_in):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, "referent")

    warnings = _upload_and_save(page, live_server, club)
    expect(warnings).to_contain_text("Keine Bedenkzeit angegeben")  # the lichess file has no record 122
    expect(warnings.locator('li[data-code="same_file"]')).to_have_count(0)
    assert Tournament.objects.count() == 0
    page.get_by_role("button", name="Trotzdem speichern").click()
    expect(page).to_have_url(re.compile(r"/turniere/\d+/$"))
    first = Tournament.objects.get()

    warnings = _upload_and_save(page, live_server, club)
    duplicate = warnings.locator('li[data-code="same_file"]')
    expect(duplicate).to_contain_text(
        "Diese Datei wurde schon als „Mai 5 Plus 0 Turnier“ (29.05.2020) importiert."
    )
    expect(duplicate.get_by_role("link")).to_have_attribute("href", first.get_absolute_url())
    # On a phone the warnings fit the screen and the button is reachable.
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    assert Tournament.objects.count() == 1
    page.get_by_role("button", name="Trotzdem speichern").click()
    expect(page).to_have_url(re.compile(r"/turniere/\d+/$"))
    expect(page.locator("body")).to_contain_text("aus der Datei gespeichert")
    assert Tournament.objects.count() == 2
