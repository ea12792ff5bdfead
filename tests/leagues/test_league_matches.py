"""The match services against the review of issue 29: a report re-saved as the form shows it keeps the
director's rated result (the game stays in the DWZ tournament), an unknown player id is a message and not a
500, approval is refused for an unreported or already approved match, and every league writer takes the
rating lock before its first write (the order ``division_evaluate`` takes them in: no deadlock on
PostgreSQL)."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from leagues.models import Board, DivisionPart
from leagues.selectors.line_ups import report_form
from leagues.services.division_tournament import division_evaluate, division_split
from leagues.services.matches import (
    BoardReport,
    board_result_change,
    match_approve,
    match_played_on_set,
    match_reopen,
    match_report_save,
    match_status_set,
)
from ratings.models import Game
from ratings.recalculation import ratings_verify
from tests.leagues.league_data import small_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return small_league(boards=4)


def _url(match, page="bericht"):
    return f"/ligen/kampf/{match.pk}/{page}/"


def _reported(league, match, results=("1-0", "0-1", "1/2-1/2", "1-0")):
    home, away = league["players"]
    boards = [BoardReport(n, home[n - 1].pk, away[n - 1].pk, r) for n, r in enumerate(results, start=1)]
    match_report_save(match=match, boards=boards, user=league["captain1"])


def _as_the_form_shows_it(match) -> dict[str, str]:
    data = {}
    for row in report_form(match=match).rows:
        n = row["number"]
        data[f"home_{n}"] = "" if row["home"] is None else str(row["home"])
        data[f"away_{n}"] = "" if row["away"] is None else str(row["away"])
        data[f"result_{n}"] = row["result"]
    return data


def _games(tournament) -> list[tuple[int, int, str]]:
    return sorted(Game.objects.filter(tournament=tournament).values_list("white_id", "black_id", "result"))


def test_league_report_resaved_unchanged_keeps_the_rated_game(client, league):
    m = league["match1"]
    _reported(league, m)
    match_approve(match=m, user=league["director"])
    division_evaluate(division=league["division"], user=league["director"])
    tournament = DivisionPart.objects.get(division=league["division"]).tournament
    before = _games(tournament)
    assert len(before) == 4
    # The director scores board 2 (played 0-1) as lost by the home side's absence for the table.
    board = Board.objects.get(match=m, number=2)
    board_result_change(board=board, result="-+", rated_result="0-1", user=league["director"])
    form = report_form(match=m)
    assert form.rows[1]["result"] == "-+" and form.rows[1]["home"] == board.home_player_id  # players shown
    assert form.rows[1]["rated"] == "0-1"
    # The director re-saves the report exactly as the form shows it.
    client.force_login(league["director"])
    assert client.post(_url(m), _as_the_form_shows_it(m)).status_code == 302
    board = Board.objects.get(match=m, number=2)
    assert (board.result, board.rated_result, board.home_player_id) == (
        "-+",
        "0-1",
        league["players"][0][1].pk,
    )
    assert _games(tournament) == before  # still 4 games, board 2 with its real result
    assert ratings_verify() == []
    # A board changed in the report (another result) drops the kept real result, its forfeit clears the side.
    data = _as_the_form_shows_it(m) | {"result_2": "+-"}
    assert client.post(_url(m), data).status_code == 302
    board = Board.objects.get(match=m, number=2)
    assert (board.result, board.rated_result, board.away_player_id) == ("+-", "", None)
    assert len(_games(tournament)) == 3
    assert ratings_verify() == []


@pytest.mark.parametrize("value", ["99999999", "9223372036854775808", "99999999999999999999", "x1", "²"])
def test_league_report_with_an_unknown_player_is_a_message(client, league, value):
    m = league["match1"]
    home, away = league["players"]
    data = {"quick": "1 1\n2 ½\n3 0\n4 ="}
    for n in range(1, 5):
        data[f"home_{n}"], data[f"away_{n}"] = str(home[n - 1].pk), str(away[n - 1].pk)
    data["away_1"] = value
    client.force_login(league["captain1"])
    response = client.post(_url(m), data)
    assert response.status_code == 400  # the form again with its errors (the house's answer to bad input)
    assert "Brett 1: unbekannter Spieler" in response.content.decode()
    assert not Board.objects.exists()
    m.refresh_from_db()
    assert m.reported_at is None and m.status == "scheduled"


def test_league_report_service_names_each_unknown_player_in_one_query(league, django_assert_num_queries):
    from leagues.services.matches import _validate

    m = league["match1"]
    home = league["players"][0]
    boards = [BoardReport(1, home[0].pk, 99999999, "1-0"), BoardReport(2, 2**63, home[1].pk, "0-1")]
    with django_assert_num_queries(1), pytest.raises(ValidationError) as error:  # the players
        _validate(m, boards)
    assert error.value.messages == ["Brett 1: unbekannter Spieler", "Brett 2: unbekannter Spieler"]


def test_league_approval_needs_a_report_and_happens_once(league):
    m = league["match1"]
    with pytest.raises(ValidationError, match="noch keinen Spielbericht"):
        match_approve(match=m, user=league["director"])
    m.refresh_from_db()
    assert m.approved_at is None and not DivisionPart.objects.exists()
    _reported(league, m)
    match_approve(match=m, user=league["director"])
    m.refresh_from_db()
    first = m.approved_at
    with pytest.raises(ValidationError, match="schon bestätigt"):
        match_approve(match=m, user=league["director"])
    m.refresh_from_db()
    assert m.approved_at == first
    # Reopened, it may be approved again; a forfeit decided without a report may be approved.
    match_reopen(match=m, user=league["director"])
    match_approve(match=m, user=league["director"])
    m2 = league["match2"]
    match_status_set(match=m2, status="home_forfeit", user=league["director"])
    match_approve(match=m2, user=league["director"])
    assert ratings_verify() == []


WRITE = re.compile(r'^\s*(INSERT INTO|UPDATE|DELETE FROM)\s+"?leagues_', re.IGNORECASE)


def _lock_before_first_league_write(call, *, writes: bool = True) -> None:
    """``writes``: the call must write (False: a call that may find nothing to change)."""
    statements: list[str] = []

    def record(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    # The test's transaction holds the lock since its fixtures (a second take asks the database nothing):
    # a savepoint rolled back makes the service take it anew, as in a request of its own.
    transaction.savepoint_rollback(transaction.savepoint())
    with connection.execute_wrapper(record):
        call()
    written = [k for k, sql in enumerate(statements) if WRITE.match(sql)]
    locks = [k for k, sql in enumerate(statements) if "ratings_ratingstate" in sql]
    assert written or not writes, "the service wrote nothing"
    assert locks, "the service did not take the lock"
    assert not written or locks[0] < written[0], statements[: written[0] + 1]


def test_league_writers_take_the_rating_lock_before_their_first_write(league):
    m1, m2 = league["match1"], league["match2"]
    director, captain = league["director"], league["captain1"]
    home, away = league["players"]
    boards = [BoardReport(n, home[n - 1].pk, away[n - 1].pk, "1-0") for n in range(1, 5)]
    _lock_before_first_league_write(lambda: match_report_save(match=m1, boards=boards, user=captain))
    _lock_before_first_league_write(lambda: match_approve(match=m1, user=director))
    _lock_before_first_league_write(lambda: match_report_save(match=m1, boards=boards, user=director))
    board = Board.objects.get(match=m1, number=1)
    _lock_before_first_league_write(lambda: board_result_change(board=board, result="0-1", user=director))
    _lock_before_first_league_write(
        lambda: match_played_on_set(match=m1, played_on=m1.scheduled_date.replace(day=12), user=director)
    )
    _lock_before_first_league_write(lambda: match_status_set(match=m2, status="away_forfeit", user=director))
    _lock_before_first_league_write(lambda: match_reopen(match=m1, user=director))
    _lock_before_first_league_write(lambda: match_approve(match=m1, user=director))
    _lock_before_first_league_write(lambda: division_evaluate(division=league["division"], user=director))
    # The parts it has already: the tournament's rows stay as they are (only what differs is written).
    _lock_before_first_league_write(
        lambda: division_split(division=league["division"], from_dates=[], user=director), writes=False
    )
    assert ratings_verify() == []
