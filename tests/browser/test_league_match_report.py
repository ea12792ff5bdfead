"""The captain's match report on a phone (390 px): the line-up comes from the ranking list, one player is
swapped, the eight results are typed ("1 1", "2 ½", "3 +" …), sent; every click and key press is counted
and must stay at or below 40. The opposing captain sees the report at once; the director approves; the
rating officer evaluates and downloads the division's DSB XML (a TR report of every rated board, valid against
the DSB's schema); ``ratings_verify`` is clean after each step."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from leagues.models import Board, DivisionPart, Match
from ratings.formats import dsb_xml
from ratings.models import Evaluation, TournamentDraft
from ratings.recalculation import ratings_verify
from tests.builders import collect_errors
from tests.leagues.league_data import small_league

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
MAX_ACTIONS = 40
XSD = Path(__file__).resolve().parents[1] / "data/dsb-xml/DSB_DWZ_TournamentReport-2.5.xsd"
TYPED = ["1 1", "2 ½", "3 +", "4 0", "5 =", "6 1", "7 -", "8 ½"]


class Actions:
    def __init__(self, page):
        self.page, self.count = page, 0

    def click(self, locator):
        locator.click()
        self.count += 1

    def select(self, locator, value):
        locator.select_option(value)  # on a phone: tap the field, tap the option
        self.count += 2

    def type(self, text):
        self.page.keyboard.type(text)
        self.count += len(text)

    def press(self, key):
        self.page.keyboard.press(key)
        self.count += 1


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def _download_and_check_the_report(page, match):
    """The officer's DSB XML download: valid against the schema, type TR, one game per rated board."""
    with page.expect_download() as info:
        page.locator("#division-xml").click()
    data = Path(info.value.path()).read_bytes()
    assert dsb_xml.schema_problems(data, XSD.read_bytes()) == []
    report = dsb_xml.parse(data)
    assert report.tournament.type == "TR" and report.tournament.rounds == 2  # the division's rounds
    rated = Board.objects.filter(match=match, game__isnull=False).select_related("home_player", "away_player")
    assert rated.count() == len(report.games) == 6  # boards 3 and 7 were forfeited: not rated
    numbers = {p.number: (p.surname, p.forename) for p in report.players}
    played = {frozenset({numbers[g.white], numbers[g.black]}) for g in report.games}
    assert played == {
        frozenset(
            {
                (b.home_player.surname, b.home_player.first_name),
                (b.away_player.surname, b.away_player.first_name),
            }
        )
        for b in rated
    }


def test_captain_reports_on_a_phone(live_server, page, log_in):
    league = small_league(boards=8)
    match = league["match1"]
    substitute = league["players"][0][8]  # rank 9, not a regular of team 1
    base = live_server.url
    page.set_viewport_size({"width": 390, "height": 844})
    errors = collect_errors(page)
    log_in(page, "mf1")
    page.goto(base + f"/ligen/kampf/{match.pk}/bericht/")
    expect(page.locator("select[name=home_1]")).to_have_value(str(league["players"][0][0].pk))
    actions = Actions(page)
    actions.select(page.locator("select[name=home_8]"), str(substitute.pk))
    actions.click(page.locator("#quick"))
    for k, line in enumerate(TYPED):
        actions.type(line)
        if k < len(TYPED) - 1:
            actions.press("Enter")
    with page.expect_navigation():
        actions.click(page.get_by_role("button", name="Bericht absenden"))
    assert actions.count <= MAX_ACTIONS, actions.count
    expect(page.locator("#score")).to_have_text("4½:3½")  # 1 ½ 1 0 ½ 1 0 ½ = 4½ : 3½
    _no_sideways_scroll(page)
    assert Board.objects.get(match=match, number=8).home_player_id == substitute.pk
    assert Board.objects.get(match=match, number=3).away_player_id is None  # "+": the guest did not appear
    assert ratings_verify() == []

    # The opposing captain sees it at once.
    page.context.clear_cookies()
    log_in(page, "mf2")
    page.goto(base + f"/ligen/kampf/{match.pk}/bericht/")
    expect(page.locator("#reported")).to_contain_text("mf1")

    # The director approves: the division's tournament is a draft with a preview.
    page.context.clear_cookies()
    log_in(page, "staffelleiter")
    page.goto(base + f"/ligen/kampf/{match.pk}/leitung/")
    _no_sideways_scroll(page)
    with page.expect_navigation():
        page.locator("#approve").click()
    assert Match.objects.get(pk=match.pk).approved_at is not None
    part = DivisionPart.objects.get(division=league["division"])
    assert len(TournamentDraft.objects.get(tournament=part.tournament).games) == 6
    assert ratings_verify() == []

    # The rating officer sees the preview and evaluates.
    page.context.clear_cookies()
    log_in(page, "referent")
    page.goto(base + f"/ligen/staffel/{league['division'].pk}/leitung/")
    expect(page.locator("table.preview tbody tr")).to_have_count(12)
    expect(page.locator("#checks")).to_contain_text("Runde 2")  # round 2 is due and not reported
    page.locator("#confirm").check()
    with page.expect_navigation():
        page.locator("#evaluate").click()
    assert Evaluation.objects.filter(tournament=part.tournament).count() == 12
    assert ratings_verify() == []
    expect(page.locator(".part .badge")).to_have_text("ausgewertet")

    # He downloads the division's DSB report from his page (still on the phone).
    _download_and_check_the_report(page, match)
    assert ratings_verify() == []
    page.set_viewport_size({"width": 1366, "height": 900})
    _no_sideways_scroll(page)
    assert errors == []
