"""The progress page of a background recalculation and the "Neuberechnung läuft" notice (issue 16)."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from ratings.models import RecalculationJob, RecalculationJobStatus

D = datetime.date


def url(job):
    return reverse("ratings:recalculation-progress", args=[job.pk])


@pytest.mark.django_db
def test_unknown_job_is_a_friendly_404(client):
    response = client.get("/neuberechnung/999999/")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.content.decode()


@pytest.mark.django_db
def test_a_running_job_shows_its_progress_and_polls(client):
    job = RecalculationJob.objects.create(
        since=D(2024, 3, 10), status=RecalculationJobStatus.RUNNING, done=30, total=120, estimate=42
    )
    html = client.get(url(job)).content.decode()
    assert "Neuberechnung im Hintergrund" in html and "läuft" in html
    assert "30 von 120 Turnieren ausgewertet (25 %)." in html
    assert 'max="120" value="30"' in html
    assert "Geschätzte Dauer: etwa 42 s." in html
    assert 'hx-trigger="every 2s"' in html and 'hx-select="#recalculation-progress"' in html
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in html
    assert " style=" not in html and "<script>" not in html  # CSP: no inline style or script


@pytest.mark.django_db
def test_a_failed_job_shows_the_error_to_staff_only(client):
    job = RecalculationJob.objects.create(
        since=D(2024, 3, 10), status=RecalculationJobStatus.FAILED, error="RuntimeError: disk full"
    )
    html = client.get(url(job)).content.decode()
    assert "Die Neuberechnung ist fehlgeschlagen." in html and "disk full" not in html
    assert "hx-trigger" not in html
    admin = get_user_model().objects.create_superuser(username="root", password="x", email="")
    client.force_login(admin)
    assert "disk full" in client.get(url(job)).content.decode()


def test_notice_on_the_cards_and_pages_the_job_can_still_change(client, e2):
    a, t = e2["player"], e2["tournament"]  # evaluated on 2019-05-12
    player_url = reverse("ratings:player-detail", args=[a.key])
    tournament_url = reverse("ratings:tournament-detail", args=[t.pk])
    assert "Neuberechnung läuft" not in client.get(player_url).content.decode()

    job = RecalculationJob.objects.create(since=D(2019, 6, 1))  # after the tournament: nothing to change
    assert "Neuberechnung läuft" not in client.get(player_url).content.decode()
    assert "Neuberechnung läuft" not in client.get(tournament_url).content.decode()

    job.since = D(2019, 5, 12)
    job.save()
    card = client.get(player_url).content.decode()
    assert "Neuberechnung läuft" in card and url(job) in card
    assert "Die Auswertungen ab 12.05.2019 werden im Hintergrund neu berechnet" in card
    assert "Neuberechnung läuft" in client.get(tournament_url).content.decode()

    job.status = RecalculationJobStatus.DONE
    job.save()
    assert "Neuberechnung läuft" not in client.get(player_url).content.decode()
