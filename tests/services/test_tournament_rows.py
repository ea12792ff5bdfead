"""A tournament save writes only the entries and games that differ from the stored ones (issue 29: a league
match report re-saves the division's tournament for one board); what is stored is what was given."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import Game, TournamentEntry
from ratings.recalculation import ratings_verify
from ratings.services import tournament_replace
from tests.builders import player, save_tournament

pytestmark = pytest.mark.django_db


def _stored(tournament):
    games = Game.objects.filter(tournament=tournament).order_by("round", "white_id")
    entries = TournamentEntry.objects.filter(tournament=tournament).order_by("start_rank")
    return (
        {g.pk: (g.round, g.board, g.white_id, g.black_id, g.result) for g in games},
        {e.pk: (e.player_id, e.start_rank, e.member) for e in entries},
    )


def _given(tournament):
    games, entries = _stored(tournament)
    return (
        [TournamentEntry(player_id=p, start_rank=r, member=m) for p, r, m in entries.values()],
        [Game(round=r, board=b, white_id=w, black_id=k, result=res) for r, b, w, k, res in games.values()],
    )


def test_a_corrected_result_is_one_game_out_and_one_in():
    players = [player(dwz=1600 + 20 * i, index=8) for i in range(6)]
    games = [(a, b, "1-0") for i, a in enumerate(players) for b in players[i + 1 :]]
    tournament, _ = save_tournament(players, games, end=datetime.date(2025, 3, 2))
    old_games, old_entries = _stored(tournament)
    entries, given = _given(tournament)
    given[0].result = "0-1"
    with CaptureQueriesContext(connection) as queries:
        tournament_replace(tournament=tournament, entries=entries, games=given)
    new_games, new_entries = _stored(tournament)
    assert new_entries == old_entries  # the same rows, primary keys kept
    assert len(set(old_games) - set(new_games)) == len(set(new_games) - set(old_games)) == 1
    assert sorted(new_games.values()) == sorted(
        (g.round, g.board, g.white_id, g.black_id, g.result) for g in given
    )
    inserts = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "ratings_game"')
    ]
    assert len(inserts) == 1
    assert not any(
        q["sql"].startswith('INSERT INTO "ratings_tournamententry"') for q in queries.captured_queries
    )
    assert ratings_verify() == []


def test_a_new_order_of_entries_rewrites_them_and_rows_not_given_are_deleted():
    players = [player(dwz=1700, index=5) for _ in range(4)]
    tournament, _ = save_tournament(players, [(players[0], players[1], "1-0")], end=datetime.date(2025, 4, 6))
    entries, games = _given(tournament)
    for entry, rank in zip(entries, (4, 3, 2, 1), strict=True):
        entry.start_rank = rank
    tournament_replace(tournament=tournament, entries=entries, games=games)
    _games, stored = _stored(tournament)
    assert sorted(stored.values()) == sorted((e.player_id, e.start_rank, e.member) for e in entries)
    # Fewer given rows than stored: the others are deleted.
    tournament_replace(tournament=tournament, entries=entries[:2], games=games)
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 2
    assert ratings_verify() == []
