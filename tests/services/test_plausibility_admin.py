"""The admin's tournament form lists the plausibility warnings and saves only with "Auffälligkeiten geprüft"
ticked (issue 26 §2–3)."""

import pytest
from django.urls import reverse

from ratings.models import Evaluation, Tournament
from tests.builders import player
from tests.services.admin_posts import tournament_post_data as _post_data

pytestmark = [pytest.mark.django_db, pytest.mark.plausibility]


def test_the_admin_lists_the_warnings_and_saves_after_the_tick(admin_client):
    a, b = player(dwz=1000, index=5), player(dwz=1200, index=5)
    url = reverse("admin:ratings_tournament_add")
    data = _post_data(a, b) | {"time_control": "15 min + 5 s"}  # ended 2018-11-15
    response = admin_client.post(url, data)
    page = response.content.decode()
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "Das Turnierende 15.11.2018 liegt mehr als ein Jahr zurück" in page
    assert "20 Minuten je Spieler" in page and "trotzdem speichern" in page
    response = admin_client.post(url, data | {"confirm_warnings": "on"})
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.time_control == "15 min + 5 s" and Evaluation.objects.count() == 2


def test_the_admin_names_a_likely_duplicate(admin_client):
    a, b = player(dwz=1000, index=5), player(dwz=1200, index=5)
    url = reverse("admin:ratings_tournament_add")
    data = _post_data(a, b) | {"time_control": "90 min + 30 s", "confirm_warnings": "on"}
    assert admin_client.post(url, data).status_code == 302
    first = Tournament.objects.get()
    page = admin_client.post(url, data | {"confirm_warnings": ""}).content.decode()
    assert "Wahrscheinlich dasselbe Turnier" in page and first.get_absolute_url() in page
    assert Tournament.objects.count() == 1
