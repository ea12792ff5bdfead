"""Issue 16: a save whose chain is too long for the request. The officer's tournament is evaluated at once,
the rest runs in the background; the report, the player cards and the tournament pages say
"Neuberechnung läuft" and link to the progress page until the job is done."""

import datetime

import pytest
from django.urls import reverse

from ratings.models import Evaluation, RecalculationJob, RecalculationJobStatus
from ratings.recalculation import ratings_verify
from tests.builders import grid_data, save_tournament

RESULTS = {(0, 1): "1", (0, 2): "1", (1, 2): "½"}


@pytest.fixture
def later(players):
    """A later tournament of the same players: the results of the fixture's tournament reach it."""
    t, _ = save_tournament(
        players,
        [(players[0], players[1], "0-1"), (players[1], players[2], "1-0")],
        end=datetime.date(2024, 6, 1),
        name="Stadtmeisterschaft",
    )
    return t


def test_a_long_save_reports_its_tournament_and_the_background_job(
    login, users, tournament, players, later, settings, django_capture_on_commit_callbacks
):
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    client = login(users["officer_a"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("ratings:tournament-grid", args=[tournament.pk]),
            grid_data(players, RESULTS, save="1"),
            follow=True,
        )
    assert response.status_code == 200
    job = RecalculationJob.objects.get()
    assert (job.status, job.since, job.created_by) == (
        RecalculationJobStatus.PENDING,
        tournament.end_date,
        users["officer_a"],
    )
    report = response.content.decode()
    assert 'id="recalculation-notice"' in report and "Neuberechnung läuft" in report
    assert reverse("ratings:recalculation-progress", args=[job.pk]) in report
    assert Evaluation.objects.filter(tournament=tournament).count() == 3  # evaluated at once
    stale = set(Evaluation.objects.filter(tournament=later).values_list("dwz_old", flat=True))
    assert stale == {1600, 1500, 1400}  # the later tournament still holds the old chain

    card = client.get(reverse("ratings:player-detail", args=[players[0].key])).content.decode()
    assert "Neuberechnung läuft" in card
    page = client.get(reverse("ratings:tournament-detail", args=[later.pk])).content.decode()
    assert "Neuberechnung läuft" in page
    progress = client.get(reverse("ratings:recalculation-progress", args=[job.pk])).content.decode()
    assert "wartet" in progress and 'hx-trigger="every 2s"' in progress

    for callback in callbacks:
        callback()  # the commit enqueued the job; the immediate backend runs it
    job.refresh_from_db()
    assert job.status == RecalculationJobStatus.DONE
    assert ratings_verify() == []
    assert set(Evaluation.objects.filter(tournament=later).values_list("dwz_old", flat=True)) != stale
    card = client.get(reverse("ratings:player-detail", args=[players[0].key])).content.decode()
    assert "Neuberechnung läuft" not in card
    progress = client.get(reverse("ratings:recalculation-progress", args=[job.pk])).content.decode()
    # The job continues after the officer's own tournament: the later one is all it re-evaluates.
    assert "Fertig: 1 Turnier neu ausgewertet." in progress and "hx-trigger" not in progress


def test_the_preview_of_a_long_save_says_the_rest_runs_in_the_background(
    login, users, tournament, players, later, settings
):
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-preview", args=[tournament.pk])
    html = client.post(url, grid_data(players, RESULTS)).content.decode()
    assert "1 späteres Turnier mit gemeinsamen Spielern" in html and "im Hintergrund" not in html

    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    html = client.post(url, grid_data(players, RESULTS)).content.decode()
    # The rolled-back save stops after this tournament: a count of 0 later tournaments would be wrong.
    assert (
        "im Hintergrund neu berechnet" in html
        and "spätere Turniere mit gemeinsamen Spielern neu aus" not in html
    )
    assert not RecalculationJob.objects.exists()  # the preview saved nothing, scheduled nothing


def test_the_delete_page_of_a_long_chain_says_the_rest_runs_in_the_background(
    login, users, tournament, players, later, settings
):
    client = login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]), grid_data(players, RESULTS, save="1")
    )
    url = reverse("ratings:tournament-delete", args=[tournament.pk])
    html = client.get(url).content.decode()
    assert "1 späteres Turnier mit gemeinsamen Spielern wird neu ausgewertet" in html
    assert "im Hintergrund" not in html

    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    html = client.get(url).content.decode()
    assert "im Hintergrund neu ausgewertet" in html and "späteres Turnier mit gemeinsamen" not in html
    assert not RecalculationJob.objects.exists()  # the rolled-back delete scheduled nothing


def test_a_short_save_shows_no_notice(login, users, tournament, players, later):
    client = login(users["officer_a"])
    response = client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]),
        grid_data(players, RESULTS, save="1"),
        follow=True,
    )
    assert "Neuberechnung läuft" not in response.content.decode()
    assert not RecalculationJob.objects.exists()
    assert ratings_verify() == []
