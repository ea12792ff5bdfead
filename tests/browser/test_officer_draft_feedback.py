"""The draft as the one way to enter, in a real browser at 1366 and 390 px: a player not found is created from
the participants' search and is a participant at once (still there after a reload, no orphan); a player
pasted again is named; a result typed over a stored one is said beside the board input ("Brett 1: 1-0 →
0-1") with an undo that puts the old one back; the old "Ergebnisse" URL lands on the draft."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.models import Club, Membership, Organisation, Player, Tournament, TournamentDraft
from ratings.models.officer import OfficerScope, TournamentEntryMode, TournamentMode
from tests.builders import collect_errors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = [1366, 390]


@pytest.fixture
def swiss():
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0503", name="SK Zuffenhausen 1921", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    players = []
    for number, (surname, first_name) in enumerate([("Krämer", "Tobias"), ("Pfeiffer", "Sabine")], start=1):
        p = Player.objects.create(key=f"C0503-{number:04d}", surname=surname, first_name=first_name)
        Membership.objects.create(player=p, club=club, member_number=str(number))
        players.append(p)
    t = Tournament.objects.create(
        name="Herbstopen 2024",
        start_date=datetime.date(2024, 10, 1),
        end_date=datetime.date(2024, 10, 29),
        rounds=3,
        organiser_club=club,
    )
    TournamentEntryMode.objects.create(tournament=t, mode=TournamentMode.SWISS)
    return t, club, players


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def _in_view(page, selector):
    box = page.locator(selector).bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box, width)


@pytest.mark.parametrize("width", WIDTHS)
def test_new_player_joins_the_draft_and_a_repeat_is_named(live_server, page, swiss, log_in, width):
    tournament, club, players = swiss
    base = live_server.url
    page.set_viewport_size({"width": width, "height": 900})
    errors = collect_errors(page)
    log_in(page, "referent")

    # The old page's URL lands on the draft's participants (301, then the entry's 302).
    page.goto(base + f"/turniere/{tournament.pk}/ergebnisse/")
    expect(page).to_have_url(re.compile(rf"/turniere/{tournament.pk}/teilnehmer/$"))

    page.locator("#bulk-lines").fill("\n".join(p.key for p in players))
    page.locator("#bulk-add").click()
    expect(page.locator("#participants tbody tr")).to_have_count(2)

    # Searching a name nobody has: the form to create him opens, the name filled in.
    page.wait_for_load_state("load")
    page.locator("#participant-search").fill("Neumann, Lea")
    details = page.locator("#new-player-details")
    expect(details.locator("summary")).to_have_text("„Neumann, Lea“ nicht gefunden – neu anlegen")
    expect(page.locator("#id_np-surname")).to_have_value("Neumann")
    expect(page.locator("#id_np-first_name")).to_have_value("Lea")
    _in_view(page, "#new-player-submit")
    _no_sideways_scroll(page)
    page.locator("#id_np-birth_year").fill("2012")
    page.locator("#id_np-club").select_option(label=str(club))
    page.locator("#new-player-submit").click()
    expect(page.locator(".alert-success")).to_contain_text(
        "Spieler „Neumann, Lea“ angelegt und als Nr. 3 in den Entwurf aufgenommen."
    )
    expect(page.locator("#participants tbody tr")).to_have_count(3)
    # Leaving and coming back: she is still a participant (the draft), the player record has its participant.
    page.get_by_role("link", name="Turnierkopf").click()
    page.goto(base + f"/turniere/{tournament.pk}/teilnehmer/")
    expect(page.locator("#participants")).to_contain_text("Neumann, Lea")
    lea = Player.objects.get(surname="Neumann")
    assert TournamentDraft.objects.get(tournament=tournament).participants[-1] == lea.pk

    # Pasting players who are in already: named, with their start numbers, nobody twice.
    page.locator("#bulk-lines").fill(f"{players[1].key}\nNeumann, Lea")
    page.locator("#bulk-add").click()
    notice = page.locator(".alert", has_text="Schon Teilnehmer")
    expect(notice).to_contain_text("Pfeiffer, Sabine (Nr. 2), Neumann, Lea (Nr. 3)")
    _in_view(page, ".alert-info")
    expect(page.locator("#participants tbody tr")).to_have_count(3)
    _no_sideways_scroll(page)
    assert errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_replaced_result_is_said_in_place_with_undo(live_server, page, swiss, log_in, width):
    tournament, _club, players = swiss
    base = live_server.url
    page.set_viewport_size({"width": width, "height": 900})
    errors = collect_errors(page)
    log_in(page, "referent")
    page.goto(base + f"/turniere/{tournament.pk}/teilnehmer/")
    page.locator("#bulk-lines").fill("\n".join(p.key for p in players))
    page.locator("#bulk-add").click()
    page.goto(base + f"/turniere/{tournament.pk}/runden/1/")

    def type_line(text):
        page.locator("#board-input").fill(text)
        with page.expect_navigation():
            page.locator("#board-input").press("Enter")

    type_line("1 2 1")
    expect(page).to_have_url(re.compile(r"/runden/2/"))  # round 1 complete: on to round 2, nothing said
    expect(page.locator("#overwrite-notice")).to_have_count(0)
    page.goto(base + f"/turniere/{tournament.pk}/runden/1/")
    type_line("1 2 0")  # the correction
    expect(page).to_have_url(re.compile(r"/runden/1/"))  # stays where the result was replaced
    notice = page.locator("#overwrite-notice")
    expect(notice).to_contain_text("Brett 1:")
    expect(notice).to_contain_text("1-0 → 0-1")
    expect(page.locator("#boards-table")).to_contain_text("0-1")
    _in_view(page, "#overwrite-notice")
    _in_view(page, "#overwrite-notice button")
    _no_sideways_scroll(page)
    # The notice sits beside the board input: right below it.
    gap = page.evaluate(
        """() => document.getElementById("overwrite-notice").getBoundingClientRect().top
              - document.getElementById("board-input").getBoundingClientRect().bottom"""
    )
    assert 0 <= gap < 40, gap
    with page.expect_navigation():
        notice.get_by_role("button", name="Brett 1 zurück auf 1-0").click()
    expect(page.locator("#overwrite-notice")).to_contain_text("Brett 1: wieder 1-0 (rückgängig gemacht).")
    expect(page.locator("#boards-table")).to_contain_text("1-0")
    games = TournamentDraft.objects.get(tournament=tournament).games
    assert [(g["round"], g["board"], g["result"]) for g in games] == [(1, 1, "1-0")]
    assert errors == []
