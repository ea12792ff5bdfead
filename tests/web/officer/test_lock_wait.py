"""Issue 9 §2: a save that cannot get the rating lock in time answers "Bitte gleich noch einmal" (503) with
the officer's input kept, never a 500."""

import pytest
from django.db import connection
from django.urls import reverse

from ratings.models import Game
from tests.builders import grid_data, head_data, holding_rating_lock

RESULTS = {(0, 1): "1", (0, 2): "1", (1, 2): "5"}


@pytest.fixture
def lock_held():
    """Another connection holds the rating lock until the test is done."""
    with holding_rating_lock():
        yield


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="the test database is SQLite's shared-cache memory database: it refuses at once, never waits",
)
@pytest.mark.django_db(transaction=True)
def test_save_waiting_too_long_for_the_lock_keeps_the_input(
    login, users, tournament, players, settings, lock_held
):
    settings.RATING_LOCK_TIMEOUT = 1
    client = login(users["officer_a"])
    response = client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]), grid_data(players, RESULTS, save="1")
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    page = response.content.decode()
    assert "Bitte gleich noch einmal" in page
    cell = f"rr-{players[1].pk}-{players[2].pk}"
    assert f'name="{cell}" value="5"' in page
    assert f'name="p" value="{players[2].pk}"' in page
    assert 'name="save" value="1"' in page
    assert not Game.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
def test_lock_timeout_anywhere_in_a_view_is_the_busy_page(login, users, tree, tournament, monkeypatch):
    from ratings import services
    from ratings.recalculation import RatingLockTimeout

    def busy(**kwargs):
        raise RatingLockTimeout

    monkeypatch.setattr(services, "tournament_save_head", busy)
    client = login(users["officer_a"])
    response = client.post(
        reverse("ratings:tournament-edit", args=[tournament.pk]),
        head_data(tree, name="Neuer Name"),
    )
    assert response.status_code == 503
    assert 'name="name" value="Neuer Name"' in response.content.decode()
    assert 'id="busy-resend"' in response.content.decode()
