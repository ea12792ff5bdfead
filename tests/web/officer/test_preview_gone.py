"""Issue 26 §4: the pages that preview a save or delete (results page and its preview panel, rounds page,
delete confirmation) answer the "deleted meanwhile" page (410) for a tournament another officer deleted,
before the page was read or while its preview ran; never a 500."""

import pytest
from django.urls import reverse

from ratings import permissions
from ratings.models import Game, Tournament, TournamentEntry
from ratings.selectors import previews as preview
from ratings.services import tournament_delete, tournament_save_results
from tests.builders import grid_data

pytestmark = pytest.mark.django_db

RESULTS = {(0, 1): "1", (0, 2): "1", (1, 2): "5"}


@pytest.fixture
def played(tournament, players):
    """The fixture's round robin, saved with results (so every page has something to preview)."""
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    games = [
        Game(round=1, white=players[0], black=players[1], result="1-0"),
        Game(round=2, white=players[0], black=players[2], result="1-0"),
        Game(round=3, white=players[1], black=players[2], result="1/2-1/2"),
    ]
    tournament_save_results(tournament=tournament, entries=entries, games=games)
    return tournament


def _pages(tournament, players):
    """(method, url, data) of every page that previews."""
    pk = tournament.pk
    results = reverse("ratings:tournament-grid", args=[pk])
    panel = reverse("ratings:tournament-preview", args=[pk])
    return {
        "results": ("get", results, None),
        "results-post": ("post", results, grid_data(players, RESULTS, version="2")),
        "preview-panel": ("post", panel, grid_data(players, RESULTS)),
        "rounds": ("get", reverse("ratings:tournament-rounds", args=[pk]), None),
        "round": ("get", reverse("ratings:tournament-round", args=[pk, 1]), None),
        "delete": ("get", reverse("ratings:tournament-delete", args=[pk]), None),
    }


def _request(client, method, url, data):
    return client.get(url) if method == "get" else client.post(url, data)


def _delete(pk, user):
    tournament_delete(tournament=Tournament.objects.get(pk=pk), user=user)


@pytest.mark.parametrize("page", ["results", "results-post", "preview-panel", "rounds", "round", "delete"])
def test_a_deleted_tournament_answers_410_on_every_preview_page(login, users, played, players, page):
    client = login(users["officer_a"])
    method, url, data = _pages(played, players)[page]
    assert _request(client, method, url, data).status_code in (200, 302)
    _delete(played.pk, users["officer_lv"])
    response = _request(client, method, url, data)
    assert response.status_code == 410
    assert "Turnier wurde inzwischen gelöscht" in response.content.decode()


@pytest.mark.parametrize("page", ["results-post", "preview-panel", "round"])
def test_deleted_while_the_save_preview_runs(login, users, played, players, page, monkeypatch):
    """Another officer's delete commits after the page read the tournament, just before the preview
    computes what the save would re-evaluate."""
    client = login(users["officer_a"])
    method, url, data = _pages(played, players)[page]
    states_before = preview.rating_states_before

    def then_deleted(**kwargs):
        if Tournament.objects.filter(pk=played.pk).exists():
            _delete(played.pk, users["officer_lv"])
        return states_before(**kwargs)

    monkeypatch.setattr(preview, "rating_states_before", then_deleted)
    response = _request(client, method, url, data)
    assert response.status_code == 410
    assert not Tournament.objects.filter(pk=played.pk).exists()


def test_deleted_while_the_delete_confirmation_is_read(login, users, played, players, monkeypatch):
    client = login(users["officer_a"])
    method, url, data = _pages(played, players)["delete"]
    get_tournament = permissions.get_tournament_for_user

    def then_deleted(request, pk):
        found = get_tournament(request, pk)
        _delete(pk, users["officer_lv"])
        return found

    monkeypatch.setattr(permissions, "get_tournament_for_user", then_deleted)
    assert _request(client, method, url, data).status_code == 410
