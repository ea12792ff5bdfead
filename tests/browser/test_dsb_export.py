"""The DSB export and the tournament's way in the browser, at 1366 and 390 px: the dashboard's states and
WO 6.2 countdown; the check list names the player without a birth year and offers no download until it is
fixed; the download records the submission. No horizontal scroll at 390 px."""

import datetime
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings import permissions
from ratings.formats import dsb_xml
from ratings.models import Club, Organisation, Player, Tournament, TournamentSubmission
from ratings.models.officer import OfficerScope
from tests.builders import make_player, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _setup():
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    a, b, c = (
        make_player(surname=n, first_name="Vorname", birth_year=1980 + i)
        for i, n in enumerate(("Abendroth-Schimmelpfennig", "Bergmann", "Christiansen"))
    )
    games = [(1, a, b, "1-0"), (2, b, c, "1/2-1/2"), (3, c, a, "0-1")]
    today = permissions.today()
    t = make_tournament(
        [a, b, c],
        games,
        end=today - datetime.timedelta(days=50),
        name="Offene Bezirksmeisterschaft mit einem sehr langen Namen 2026",
        organiser_club=club,
    )
    Tournament.objects.create(
        name="Sommeropen (angemeldet)",
        start_date=today - datetime.timedelta(days=2),
        end_date=today + datetime.timedelta(days=1),
        organiser_club=club,
        announced=True,
    )
    return t, b


@pytest.mark.parametrize("width", [1366, 390])
def test_dashboard_states_check_list_and_download(live_server, page, log_in, width):
    t, berta = _setup()
    Player.objects.filter(pk=berta.pk).update(birth_year=None)
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "referent")

    page.goto(live_server.url + "/referent/")
    item = page.locator(f'#unsubmitted .unsubmitted-item[data-tournament="{t.pk}"]')
    expect(item).to_contain_text("seit 8 Tagen überfällig")
    expect(page.locator("#not-entered")).to_contain_text("Sommeropen (angemeldet)")
    expect(page.locator(".tournament-state").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    item.get_by_role("link", name="Für den DSB exportieren").click()
    expect(page).to_have_url(live_server.url + f"/turniere/{t.pk}/dsb-export/")
    checks = page.locator("#export-checks")
    expect(checks).to_contain_text("Bergmann, Vorname (Startnummer 2) hat kein Geburtsjahr.")
    expect(page.locator("#export-blocked")).to_be_visible()
    expect(page.locator("#export-form")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    Player.objects.filter(pk=berta.pk).update(birth_year=1981)
    page.reload()
    expect(page.locator("#export-state")).to_contain_text("ausgewertet")
    with page.expect_download() as download_info:
        page.get_by_role("button", name="XML-Bericht herunterladen").click()
    data = Path(download_info.value.path()).read_bytes()
    assert dsb_xml.parse(data).tournament.label == t.name
    assert TournamentSubmission.objects.filter(tournament=t).count() == 1
    page.reload()
    expect(page.locator("#export-state")).to_contain_text("eingereicht")
    expect(page.locator("#last-submission")).to_contain_text("referent")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    page.goto(live_server.url + "/referent/")
    expect(page.locator("#unsubmitted")).to_have_count(0)
    assert errors == []
