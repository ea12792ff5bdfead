import datetime

import pytest
from django.urls import reverse

from ratings.models import Evaluation, Player, Tournament
from tests.builders import player, save_tournament
from tests.services.admin_posts import tournament_post_data as _post_data

pytestmark = pytest.mark.django_db


def test_admin_tournament_with_inline_games_runs_the_service(admin_client):
    a = player(dwz=1000, index=5, birth_year=2003)
    b = player(dwz=1200, index=5, birth_year=2003)
    response = admin_client.post(reverse("admin:ratings_tournament_add"), _post_data(a, b))
    assert response.status_code == 302, response.content.decode()[:2000]
    a.refresh_from_db()
    assert (a.dwz, a.index) == (1101, 6)
    assert Evaluation.objects.count() == 2


def test_admin_rejects_a_game_with_a_player_not_entered(admin_client):
    a = player(dwz=1000, index=5)
    b = player(dwz=1200, index=5)
    c = player(dwz=1300, index=5)
    response = admin_client.post(reverse("admin:ratings_tournament_add"), _post_data(a, b, black=c))
    assert response.status_code == 200
    assert "nicht im Turnier gemeldet" in response.content.decode()
    assert not Tournament.objects.exists()


def test_admin_delete_runs_the_service(admin_client):
    a = player(dwz=1000, index=5, birth_year=2003)
    b = player(dwz=1200, index=5, birth_year=2003)
    t, _ = save_tournament([a, b], [(a, b, "1-0")], end=datetime.date(2018, 11, 15))
    response = admin_client.post(reverse("admin:ratings_tournament_delete", args=[t.pk]), {"post": "yes"})
    assert response.status_code == 302
    a.refresh_from_db()
    assert (a.dwz, a.index) == (1000, 5)


def test_admin_recalculate_action_and_read_only_lists(admin_client):
    a = player(dwz=1000, index=5, birth_year=2003)
    b = player(dwz=1200, index=5, birth_year=2003)
    t, _ = save_tournament([a, b], [(a, b, "1-0")], end=datetime.date(2018, 11, 15))
    Player.objects.filter(pk=a.pk).update(dwz=1)
    response = admin_client.post(
        reverse("admin:ratings_tournament_changelist"),
        {"action": "recalculate_from_here", "_selected_action": [t.pk]},
    )
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.dwz == 1101
    names = "player tournament evaluation restpartie ratingadjustment club organisation membership game"
    for name in [*names.split(), "tournamententry", "ratingstate"]:
        assert admin_client.get(reverse(f"admin:ratings_{name}_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:ratings_player_change", args=[a.pk])).status_code == 200
    assert admin_client.get(reverse("admin:ratings_tournament_change", args=[t.pk])).status_code == 200
    assert admin_client.get(reverse("admin:ratings_player_changelist") + "?q=" + a.surname).status_code == 200
    assert admin_client.get(reverse("admin:ratings_evaluation_changelist") + "?year=2018").status_code == 200


def test_admin_adjustment_runs_the_service(admin_client):
    a = player(dwz=1000, index=5, birth_year=2003)
    response = admin_client.post(
        reverse("admin:ratings_ratingadjustment_add"),
        {
            "player": a.pk,
            "kind": "correction",
            "date": "2019-01-01",
            "dwz": "1234",
            "index": "7",
            "reason": "x",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    a.refresh_from_db()
    assert (a.dwz, a.index) == (1234, 7)
