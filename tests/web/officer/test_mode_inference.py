"""Entry without a stored entry mode (seeded / imported tournaments): the mode is inferred from the
games, and the round-robin grid never drops stored games it cannot show (byes, repeated pairs)."""

import pytest
from django.urls import reverse

from ratings.models import Game, TournamentEntry
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.services.tournaments import tournament_save_results
from tests.builders import grid_data

pytestmark = pytest.mark.django_db


def _save(tournament, players, games):
    tournament_save_results(
        tournament=tournament,
        entries=[TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)],
        games=[Game(round=r, white=w, black=b, result=res) for r, w, b, res in games],
    )
    TournamentEntryMode.objects.filter(tournament=tournament).delete()


def _unchanged_grid(response) -> dict:
    """What the browser submits for the rendered grid when nothing is typed."""
    entry = response.context["entry"]
    data: dict = {"p": [str(p.pk) for p in entry.players], "save": "1"}
    for bf in entry.grid:
        value = bf.value()
        data[bf.html_name] = "" if value is None else str(value)
    return data


def test_swiss_without_mode_row_keeps_byes_on_unchanged_save(login, users, tournament, players):
    """A seeded Swiss goes to the rounds (never the grid); publishing it unchanged keeps its byes."""
    a, b, c = players
    _save(tournament, players, [(1, a, b, "1-0"), (1, c, None, "+"), (2, c, a, "0-1"), (2, b, None, "H")])
    client = login(users["admin"])
    response = client.get(reverse("ratings:tournament-grid", args=[tournament.pk]))
    assert response["Location"] == reverse("ratings:tournament-rounds", args=[tournament.pk])
    entry = client.get(reverse("ratings:tournament-entry", args=[tournament.pk]))
    assert entry["Location"] == reverse("ratings:tournament-rounds", args=[tournament.pk])
    html = client.get(reverse("ratings:tournament-round", args=[tournament.pk, 2])).content.decode()
    assert "Freilos" in html
    response = client.post(reverse("ratings:tournament-draft-publish", args=[tournament.pk]))
    assert response.status_code == 302
    assert Game.objects.filter(tournament=tournament).count() == 4
    assert Game.objects.filter(tournament=tournament, black__isnull=True).count() == 2
    assert TournamentEntryMode.objects.get(tournament=tournament).mode == TournamentMode.SWISS


def test_incomplete_round_robin_without_mode_row_is_swiss(login, users, tournament, players):
    a, b, _c = players
    _save(tournament, players, [(1, a, b, "1-0")])
    response = login(users["admin"]).get(reverse("ratings:tournament-grid", args=[tournament.pk]))
    assert response["Location"] == reverse("ratings:tournament-rounds", args=[tournament.pk])


@pytest.mark.parametrize("games", [[], "complete"])
def test_complete_or_empty_round_robin_without_mode_row_is_round_robin(
    login, users, tournament, players, games
):
    a, b, c = players
    if games == "complete":
        _save(tournament, players, [(1, a, b, "1-0"), (2, c, a, "0-1"), (3, b, c, "1/2-1/2")])
    else:
        TournamentEntryMode.objects.filter(tournament=tournament).delete()
    client = login(users["admin"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    response = client.get(url)
    assert response.context["entry"].mode == TournamentMode.ROUND_ROBIN
    if games == "complete":  # saved unchanged from the grid: the same three games
        assert client.post(url, _unchanged_grid(response)).status_code == 302
        assert Game.objects.filter(tournament=tournament).count() == 3


def test_round_robin_grid_refuses_to_drop_stored_byes(login, users, tournament, players):
    a, b, c = players
    _save(tournament, players, [(1, a, b, "1-0"), (1, c, None, "+"), (2, c, a, "0-1")])
    TournamentEntryMode.objects.create(tournament=tournament, mode=TournamentMode.ROUND_ROBIN)
    client = login(users["admin"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    response = client.get(url)
    assert (
        "1 gespeicherte Partie (spielfreie Runde, Doppelrunde oder Sonderergebnis) passt nicht"
        in response.content.decode()
    )
    response = client.post(url, grid_data(players, {(0, 1): "1", (0, 2): "1"}, save="1"))
    assert response.status_code == 200
    assert (
        "1 gespeicherte Partie (spielfreie Runde, Doppelrunde oder Sonderergebnis) passt nicht"
        in response.content.decode()
    )
    assert Game.objects.filter(tournament=tournament).count() == 3
    assert Game.objects.filter(tournament=tournament, black__isnull=True).count() == 1
