"""Posted board counts (``b-TOTAL_FORMS``) are clamped to the formset's ``absolute_max``; a non-number is the
formset's own validation error, never an exception."""

import pytest
from django.urls import reverse

from ratings.models import Game
from ratings.models.officer import TournamentEntryMode
from ratings.web.officer.forms import BoardFormSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_cap(monkeypatch):
    """The cap is what is tested, not rendering 2,000 rows: a cap of 12 boards behaves the same way."""
    monkeypatch.setattr(BoardFormSet, "absolute_max", 12)
    monkeypatch.setattr(BoardFormSet, "max_num", 12)
    return 12


@pytest.fixture
def swiss_url(tournament):
    TournamentEntryMode.objects.filter(tournament=tournament).update(mode="swiss")
    return reverse("ratings:tournament-grid", args=[tournament.pk])


def test_the_real_cap_is_2000_boards():
    assert BoardFormSet.absolute_max == BoardFormSet.max_num == 2000


def test_paste_clamps_a_huge_total(login, users, players, swiss_url, small_cap):
    client = login(users["officer_a"])
    data = {"p": [p.pk for p in players], "b-TOTAL_FORMS": "5000", "b-INITIAL_FORMS": "0"}
    response = client.post(swiss_url, {**data, "paste": "1 1 2 1", "do_paste": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'name="b-TOTAL_FORMS" value="{small_cap}"' in html
    assert 'name="b-0-result" value="1"' in html


@pytest.mark.parametrize("action", [{"add_rows": "1"}, {"paste": "1 1 2 1", "do_paste": "1"}, {"save": "1"}])
@pytest.mark.parametrize("total", ["abc", "²", "-1", "1e9"])
def test_non_integer_total_is_a_form_error(login, users, players, swiss_url, action, total):
    client = login(users["officer_a"])
    data = {"p": [p.pk for p in players], "b-TOTAL_FORMS": total, "b-INITIAL_FORMS": "0", **action}
    response = client.post(swiss_url, data)
    assert response.status_code < 500  # "-1" with save is a valid (empty) board list for Django
    assert not Game.objects.exists()


def test_add_rows_clamps_to_absolute_max(login, users, players, swiss_url, small_cap):
    client = login(users["officer_a"])
    data = {"p": [p.pk for p in players], "b-TOTAL_FORMS": "99999999999999999999", "b-INITIAL_FORMS": "0"}
    html = client.post(swiss_url, {**data, "add_rows": "1"}).content.decode()
    assert f'name="b-TOTAL_FORMS" value="{small_cap}"' in html
