"""The officer's whole path in a real browser: log in → new round robin → add players on the "Teilnehmer" tab
(autocomplete) → "Kreuztabelle": type results with the keyboard → the preview updates → save → the report and
the player card show the new DWZ.

Values derived by hand in tests/web/officer/test_preview.py: A 1600 → 1620, B 1500 → 1482, C 1400 → 1396.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.enums import AdjustmentKind
from ratings.models import Club, Membership, Organisation, Player, RatingAdjustment
from ratings.models.officer import OfficerScope
from ratings.services import adjustment_save

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def setup():
    lv = Organisation.objects.create(code="C00", name="Schachverband Württemberg")
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart", parent=lv)
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    players = []
    for number, (surname, dwz) in enumerate([("Anton", 1600), ("Berta", 1500), ("Carl", 1400)], start=1):
        p = Player.objects.create(key=f"C0501-{number}", surname=surname, first_name="Test", birth_year=1980)
        Membership.objects.create(player=p, club=club, member_number=str(number))
        adjustment_save(adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=dwz, index=10))
        players.append(p)
    return club, players


def test_officer_enters_round_robin_with_live_preview(live_server, page, setup):
    club, players = setup
    errors = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))

    page.goto(live_server.url + "/anmelden/")
    page.get_by_label("Benutzername").fill("referent")
    page.get_by_label("Passwort").fill("demo-referent")
    page.get_by_role("button", name="Anmelden").click()
    expect(page).not_to_have_url(re.compile("/anmelden/"))

    page.goto(live_server.url + "/turniere/neu/")
    page.get_by_label("Name").fill("Vereinsmeisterschaft")
    page.get_by_label("Beginn").fill("2024-03-01")
    page.get_by_label("Ende").fill("2024-03-10")
    page.get_by_label("Ausrichter").select_option(label=f"{club.zps} {club.name}")
    page.get_by_label("Turnierart").select_option("rr")
    page.get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(r"/turniere/\d+/teilnehmer/$"))  # participants first

    # Autocomplete: type, pick the suggestion (a plain submit button that adds the player to the draft).
    for p in players:
        # Each pick reloads the page; typing before htmx has bound its listeners (on load) would be lost.
        page.wait_for_load_state("load")
        page.locator("#participant-search").fill(p.surname[:4])
        suggestion = page.locator("#participant-search-area button", has_text="Hinzufügen").first
        expect(page.locator("#participant-search-area")).to_contain_text(p.surname)
        suggestion.click()
        expect(page.locator("#participants")).to_contain_text(p.surname)

    page.locator("#to-rounds").click()  # "Weiter: Kreuztabelle ausfüllen"
    expect(page).to_have_url(re.compile(r"/turniere/\d+/kreuztabelle/$"))
    page.wait_for_load_state("load")  # the grid's key handlers are bound on load
    cell = lambda i, j: page.locator(f"#id_rr-{players[i].pk}-{players[j].pk}")  # noqa: E731
    cell(0, 1).click()
    page.keyboard.press("1")  # A beats B; focus moves on to A–C
    page.keyboard.press("1")  # A beats C
    expect(cell(1, 0)).to_have_value("0")  # the mirror cell filled itself
    cell(1, 2).click()
    page.keyboard.press("r")  # B–C draw
    expect(cell(2, 1)).to_have_value("½")

    preview = page.locator("#rating-preview")
    expect(preview.locator(f'tr[data-player="{players[0].pk}"]')).to_contain_text("1620-11")
    expect(preview.locator(f'tr[data-player="{players[1].pk}"]')).to_contain_text("1482-11")
    expect(preview.locator(f'tr[data-player="{players[2].pk}"]')).to_contain_text("1396-11")
    expect(preview).to_contain_text("0 spätere Turniere")

    # A wrong code shows the error in the preview; fixing it brings the values back.
    cell(0, 2).fill("7")
    cell(0, 2).dispatch_event("input")
    expect(page.locator("#preview-errors")).to_contain_text("Unbekanntes Ergebnis „7“")
    cell(0, 2).click()
    page.keyboard.press("1")
    expect(preview.locator(f'tr[data-player="{players[0].pk}"]')).to_contain_text("1620-11")

    page.get_by_role("button", name="Speichern und auswerten").click()
    expect(page.locator("#recalculation-report")).to_contain_text("1620")

    page.goto(live_server.url + f"/spieler/{players[0].key}/")
    expect(page.locator("#current-dwz")).to_contain_text("1620")
    assert errors == []
