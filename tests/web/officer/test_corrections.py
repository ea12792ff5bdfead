"""Corrections that show what they change (issue 32): the delete confirmation counts games as the
tournament page does, the report after a save shows the tournament's own changes (cells old → new), and an
earlier version can be restored through the services."""

import pytest
from django.urls import reverse

from ratings.models import Game, TournamentEntry
from ratings.services import tournament_save_results

pytestmark = pytest.mark.django_db


def _with_byes(tournament, players, user):
    """Three rounds of the round robin of three, each with one player's bye: 3 games and 3 byes."""
    a, b, c = players
    tournament_save_results(
        tournament=tournament,
        entries=[TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, 1)],
        games=[
            Game(round=1, board=1, white=a, black=b, result="1-0"),
            Game(round=1, white=c, black=None, result="+"),
            Game(round=2, board=1, white=b, black=c, result="1/2-1/2"),
            Game(round=2, white=a, black=None, result="+"),
            Game(round=3, board=1, white=c, black=a, result="0-1"),
            Game(round=3, white=b, black=None, result="+"),
        ],
        user=user,
    )


def test_delete_counts_the_games_the_tournament_page_counts(login, users, tournament, players):
    """Issue 32: "1001 Partien" on the delete page against "980 Partien" on the tournament page."""
    _with_byes(tournament, players, users["officer_a"])
    client = login(users["officer_a"])
    public = client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    assert "3 Partien" in public
    page = client.get(reverse("ratings:tournament-delete", args=[tournament.pk])).content.decode()
    assert "3 Partien werden gelöscht." in page
    assert "Dazu 3 spielfreie Runden (Freilose)." in page
    assert "6 Partien" not in page
