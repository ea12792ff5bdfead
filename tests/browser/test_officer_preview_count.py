"""In the browser: the preview's "außerdem N spätere Turniere" is what the report then lists, for a
correction in club A's round robin that reaches club B's later tournaments through a shared player. Entered
at 1366 px; the count is read and the save made at 390 px (the preview then stands below the grid)."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.enums import AdjustmentKind
from ratings.models import (
    Club,
    Game,
    Membership,
    Organisation,
    Player,
    RatingAdjustment,
    Tournament,
    TournamentEntry,
)
from ratings.models.officer import OfficerScope, TournamentMode
from ratings.services import adjustment_save, tournament_save_results

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _player(club, key, surname, dwz):
    p = Player.objects.create(key=key, surname=surname, first_name="Test")
    Membership.objects.create(player=p, club=club, member_number=key[-2:])
    adjustment_save(adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=dwz, index=10))
    return p


def _tournament(club, day, players, games, mode):
    t = Tournament.objects.create(
        name=f"Turnier am {day}. März",
        start_date=datetime.date(2024, 3, day),
        end_date=datetime.date(2024, 3, day),
        rounds=3,
        organiser_club=club,
    )
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    rows = [Game(round=r, board=1, white=w, black=b, result=x) for r, (w, b, x) in enumerate(games, start=1)]
    tournament_save_results(tournament=t, entries=entries, games=rows, mode=mode)
    return t


@pytest.fixture
def chain():
    lv = Organisation.objects.create(code="C00", name="Schachverband Württemberg")
    bezirk_a = Organisation.objects.create(code="C05", name="Bezirk Stuttgart", parent=lv)
    bezirk_b = Organisation.objects.create(code="C06", name="Bezirk Ulm", parent=lv)
    club_a = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk_a)
    club_b = Club.objects.create(zps="C0601", name="SF Ulm", organisation=bezirk_b)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, club=club_a)  # club B's tournaments are out of his scope
    a1, a2 = _player(club_a, "C0501-21", "Albrecht", 1700), _player(club_a, "C0501-22", "Adler", 1600)
    b1, b2 = _player(club_b, "C0601-31", "Berger", 1650), _player(club_b, "C0601-32", "Brandt", 1550)
    b3 = _player(club_b, "C0601-33", "Bauer", 1450)
    rr = TournamentMode.ROUND_ROBIN
    first = _tournament(club_a, 1, [a1, a2, b1], [(a1, a2, "1-0"), (a1, b1, "1-0"), (a2, b1, "1/2-1/2")], rr)
    _tournament(club_b, 8, [b1, b2], [(b1, b2, "1-0")], TournamentMode.SWISS)
    _tournament(club_b, 15, [b2, b3], [(b2, b3, "1/2-1/2")], TournamentMode.SWISS)
    return first, [a1, a2, b1]


def test_preview_count_equals_the_report(live_server, page, chain, log_in):
    first, (a1, _a2, b1) = chain
    page.set_viewport_size({"width": 1366, "height": 900})
    log_in(page, "referent")
    page.goto(live_server.url + f"/turniere/{first.pk}/kreuztabelle/")
    page.wait_for_load_state("load")  # the grid's key handlers are bound on load
    later = page.locator("#preview-later")
    expect(later).to_contain_text("außerdem 0 spätere Turniere")  # as stored: nothing would change
    page.locator(f"#id_rr-{a1.pk}-{b1.pk}").click()
    page.keyboard.press("0")  # the correction: Albrecht lost to Berger
    expect(later).to_contain_text("außerdem 2 spätere Turniere")
    page.set_viewport_size({"width": 390, "height": 900})
    expect(later).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shown = int(re.search(r"außerdem (\d+) spätere", later.inner_text()).group(1))
    page.get_by_role("button", name="Speichern und auswerten").click()
    report = page.locator("#recalculation-report")
    expect(report).to_contain_text("3 Turniere wurden ausgewertet")
    assert report.locator("ol li").count() == shown + 1  # the corrected one and the later ones
