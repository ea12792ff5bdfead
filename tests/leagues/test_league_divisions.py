"""The division selectors against the real database: the hand-computed table of ``small_division``, the
board records, and a fixed number of queries for a small and a larger division."""

from __future__ import annotations

import pytest

from leagues.selectors import divisions
from tests.leagues.league_builders import round_robin_division, small_division

pytestmark = pytest.mark.django_db


def _table(data):
    return [
        (row.rank, data.teams_by_id[row.team].name, row.played, row.match_points, row.board_points)
        for row in data.table
    ]


def test_table_equals_the_hand_computed_table():
    league = small_division()
    data = divisions.division_data(pk=league.division.pk)
    assert _table(data) == [
        (1, "SF Delta 1", 3, 5, 9),
        (2, "SK Alpha 1", 3, 4, 8),
        (3, "SC Gamma 1", 2, 1, 2),
        (4, "SV Beta 1", 2, 0, 1),
    ]
    assert len(data.rated_games) == 7
    assert [r for r, _ in data.rounds()] == [1, 2, 3]
    # Round 3 is not complete: B–C is still scheduled.
    assert [c.missing for c in data.completeness] == [0, 0, 1]
    cross = data.crosstable
    d, a = str(league.teams["D"].pk), str(league.teams["A"].pk)
    assert [(e.own, e.other) for e in cross.cell(d, a)] == [(3, 1)]


def test_unknown_ids():
    assert divisions.division_data(pk=999) is None
    assert divisions.team_data(pk=999) is None
    assert divisions.season_data(pk=999) is None


def test_team_data_lineup():
    league = small_division()
    data = divisions.team_data(pk=league.teams["D"].pk)
    record = {
        data.players_by_id[s.player].surname: (s.boards, s.games, s.played, s.halves) for s in data.scores
    }
    # D1: a board won by forfeit in R1 (C's board 1 empty), 0-1 won in R2, a draw in R3.
    assert record == {"Delta1": ((1,), 3, 2, 5), "Delta2": ((2,), 3, 3, 4)}


def test_board_record_of_a_player():
    league = small_division()
    rows = divisions.board_record(player_id=league.players["A1"].pk)
    assert [(r.division.name, r.team.name, r.score.games, r.score.halves) for r in rows] == [
        ("Kreisklasse Süd", "SK Alpha 1", 2, 3)
    ]
    assert divisions.board_record(player_id=league.players["C2"].pk)[0].score.halves == 2
    assert divisions.seasons()[0].divisions.all()[0] == league.division


@pytest.mark.parametrize("size", ["small", "large"])
def test_fixed_number_of_queries(size, django_assert_num_queries):
    if size == "small":
        division = small_division().division
    else:
        division = round_robin_division(teams=10, boards=8, rounds_played=6)
    with django_assert_num_queries(5):
        data = divisions.division_data(pk=division.pk)
        assert data.table and data.crosstable and data.completeness and data.rated_games
    with django_assert_num_queries(5):
        rows = divisions.division_data(pk=division.pk, players=True)
        assert rows.players_by_id  # from the boards read with their players
        assert rows.table == data.table
    with django_assert_num_queries(1):
        assert divisions.round_boards(division_id=division.pk, round=1)
    team = division.teams.first()
    with django_assert_num_queries(4):
        divisions.team_data(pk=team.pk)
    player = next(iter(rows.board_rows.values()))[0].away_player
    with django_assert_num_queries(1):
        divisions.board_record(player_id=player.pk)
    with django_assert_num_queries(2):
        divisions.season_data(pk=division.season_id).divisions.all()[0]
