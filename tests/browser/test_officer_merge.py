"""An officer finds a duplicate from his dashboard, sees the consequences of the merge and confirms it."""

import datetime
import random
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.enums import AdjustmentKind
from ratings.models import Club, Membership, Organisation, Player, RatingAdjustment
from ratings.models.officer import OfficerScope
from ratings.services import adjustment_save
from tests.builders import round_robin, save_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _player(club, number, surname, dwz):
    p = Player.objects.create(key=f"C0501-{number}", surname=surname, first_name="Test", birth_year=1980)
    Membership.objects.create(player=p, club=club, member_number=str(number))
    adjustment_save(adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=dwz, index=10))
    return p


def test_officer_merges_a_duplicate(live_server, page, log_in):
    """The flow at 1366 px; the merge page, where the officer decides, fits at 390 px too."""
    lv = Organisation.objects.create(code="C00", name="Schachverband Württemberg")
    club = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=lv)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=lv)
    anton = _player(club, 1, "Anton", 1600)
    berta, carl = _player(club, 2, "Berta", 1500), _player(club, 3, "Carl", 1400)
    typed = _player(club, 9, "Anton", 1550)
    save_tournament(
        [typed, berta, carl],
        round_robin([typed, berta, carl], random.Random(3)),
        end=datetime.date(2024, 5, 1),
        name="Stadtmeisterschaft",
    )
    errors = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.set_viewport_size({"width": 1366, "height": 900})
    log_in(page, "referent")
    page.goto(live_server.url + "/referent/")
    page.get_by_role("link", name="Mögliche Dubletten").click()
    expect(page.locator("#duplicates")).to_contain_text("C0501-9")
    page.get_by_role("link", name="Prüfen und zusammenführen").click()
    expect(page.locator("#merge-keep")).to_have_text("C0501-1")
    expect(page.locator("#merge-tournaments")).to_contain_text("Stadtmeisterschaft")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 390, "height": 900})  # CSS alone lays it out: no reload
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert Player.objects.filter(pk=typed.pk).exists()
    page.locator("#merge-confirm").click()
    expect(page).to_have_url(re.compile(r"/spieler/C0501-1/$"))
    expect(page.get_by_text("ist mit")).to_be_visible()
    expect(page.get_by_text("Stadtmeisterschaft").first).to_be_visible()
    assert not Player.objects.filter(pk=typed.pk).exists()
    assert anton.entries.count() == 1
    assert errors == []
