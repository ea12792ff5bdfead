"""Corrections that show what they change (issue 32): the report after a save lists the tournament's own
changes, the audit trail offers the version before a save, the confirmation shows the cells old → new, and
the restore ends on a report with its own diff and the button to undo it. At 1366 and 390 px."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.models import Club, Game, Organisation, Tournament, TournamentEntry
from ratings.models.officer import OfficerScope, TournamentEntryMode, TournamentMode
from ratings.services import tournament_save_results
from tests.axe_support import serious_violations
from tests.builders import club_player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _results(tournament, players, results, user):
    tournament_save_results(
        tournament=Tournament.objects.get(pk=tournament.pk),
        entries=[TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, 1)],
        games=[
            Game(round=n, board=1, white=players[i], black=players[j], result=r)
            for n, ((i, j), r) in enumerate(results, 1)
        ],
        user=user,
    )


@pytest.mark.parametrize("width", [1366, 390])
def test_officer_sees_what_a_save_changed_and_restores_the_version_before(live_server, page, log_in, width):
    lv = Organisation.objects.create(code="C00", name="Schachverband Württemberg")
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=lv)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, club=club)
    players = [
        club_player(club, "Anton", 1600, number="1"),
        club_player(club, "Berta", 1500, number="2"),
        club_player(club, "Carl", 1400, number="3"),
    ]
    tournament = Tournament.objects.create(
        name="Vereinsmeisterschaft",
        start_date=datetime.date(2024, 3, 1),
        end_date=datetime.date(2024, 3, 10),
        rounds=3,
        organiser_club=club,
    )
    TournamentEntryMode.objects.create(tournament=tournament, mode=TournamentMode.ROUND_ROBIN)
    _results(tournament, players, [((0, 1), "1-0"), ((0, 2), "1-0"), ((1, 2), "1/2-1/2")], user)
    _results(tournament, players, [((0, 1), "0-1"), ((0, 2), "1-0"), ((1, 2), "1/2-1/2")], user)
    errors = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "referent")

    # A head save: the report names the change and offers the version before.
    page.goto(f"{live_server.url}/turniere/{tournament.pk}/bearbeiten/")
    page.get_by_label("Name").fill("VM 2024")
    page.locator("#tournament-head").get_by_role("button", name="Speichern").click()
    expect(page).to_have_url(re.compile(r"/referent/bericht/$"))
    expect(page.locator("#saved-changes")).to_contain_text("Name: Vereinsmeisterschaft → VM 2024")
    expect(page.locator("#restore-previous")).to_be_visible()
    assert _fits(page)
    assert serious_violations(page) == []

    # The trail on the head page: the version before the result correction.
    page.goto(f"{live_server.url}/turniere/{tournament.pk}/bearbeiten/")
    correction = page.locator(".officer-audit li.border-start").filter(has_text="Ergebnisse geändert")
    expect(correction).to_contain_text("R1/B1: Anton, Test – Berta, Test 1-0 → 0-1")
    correction.get_by_role("link", name="Fassung davor wiederherstellen").click()
    changes = page.locator("#restore-changes")
    expect(changes).to_contain_text("Runde 1, Brett 1: Anton, Test – Berta, Test 0-1 → 1-0")
    expect(changes).to_contain_text("Name: VM 2024 → Vereinsmeisterschaft")  # the whole version comes back
    assert _fits(page)
    assert serious_violations(page) == []
    page.locator("#restore-confirm").click()

    expect(page).to_have_url(re.compile(r"/referent/bericht/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Frühere Fassung")
    expect(page.locator("#saved-changes")).to_contain_text(
        "Runde 1, Brett 1: Anton, Test – Berta, Test 0-1 → 1-0"
    )
    expect(page.locator("#restore-previous")).to_be_visible()  # the restore can be undone the same way
    assert _fits(page)
    assert Game.objects.get(tournament=tournament, round=1).result == "1-0"
    assert Tournament.objects.get(pk=tournament.pk).name == "Vereinsmeisterschaft"
    assert errors == []
