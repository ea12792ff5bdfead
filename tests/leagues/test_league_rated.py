"""The games a division's DWZ tournament holds, its end date, and the parts at breaks of > 8 weeks."""

from __future__ import annotations

import dataclasses
import datetime

from leagues.core.rated import (
    Part,
    RatedGame,
    end_date,
    games_of_part,
    proposed_parts,
    rated_games,
    start_date,
)
from leagues.core.types import Board, Match, MatchStatus
from tests.leagues.league_example import MATCHES, POSTPONED, ROUND_DATES


def test_only_boards_actually_played_are_rated():
    games = rated_games(MATCHES)
    # 8 played matches × 4 boards, less A's empty board in round 2; B–C (forfeit) and D's unplayed matches
    # give none. D's games before it withdrew are rated (they were played).
    assert len(games) == 31
    assert sum(1 for g in games if "D" in (g.home, g.away)) == 12
    assert start_date(games) == ROUND_DATES[1]
    assert end_date(games) == POSTPONED  # the postponed match after the last round moves the end date


def test_colours_and_the_rated_result():
    games = {(g.round, g.home, g.board): g for g in rated_games(MATCHES)}
    # Home has white on odd boards: R1 A–B board 4 "0-1" (B won) is B4 with white winning.
    assert games[1, "A", 4] == RatedGame(1, 4, "B4", "A4", "1-0", ROUND_DATES[1], "A", "B")
    assert games[2, "A", 1] == RatedGame(2, 1, "A1", "C1", "0-1", ROUND_DATES[2], "A", "C")
    # R6 C–B board 1: scored 1-0 for the table, rated with the real result 0-1; played on the postponed day.
    assert games[6, "C", 1] == RatedGame(6, 1, "C1", "B1", "0-1", POSTPONED, "C", "B")
    assert games[6, "C", 2].white == "B2"


def test_forfeits_empty_boards_and_byes_are_never_rated():
    day = datetime.date(2025, 9, 14)
    boards = (
        Board(1, "a", "b", "+-"),
        Board(2, "c", None, "+-"),
        Board(3, None, None, "--"),
        Board(4, "e", "f", None),  # not reported
        Board(5, "g", "h", "+-", "1-0"),  # played 1-0, scored as a forfeit for the table: rated 1-0
        Board(6, "i", "j", "1-0", "-+"),  # rated result a forfeit: not rated
    )
    games = rated_games(
        [Match(1, "A", "B", day, MatchStatus.PLAYED, boards), Match(1, "C", None, day, MatchStatus.BYE)]
    )
    assert [(g.board, g.result) for g in games] == [(5, "1-0")]
    assert rated_games([Match(1, "A", "B", day, MatchStatus.AWAY_FORFEIT, boards)]) == ()
    assert end_date(()) is None


def test_home_white_on_even_boards_and_per_board_dates():
    day, later = datetime.date(2025, 9, 14), datetime.date(2025, 9, 20)
    boards = (Board(1, "a", "b", "1-0"), Board(2, "c", "d", "1-0", played_on=later, home_white=True))
    games = rated_games([Match(1, "A", "B", day, MatchStatus.PLAYED, boards)], home_white_on_odd=False)
    assert [(g.white, g.result, g.played_on) for g in games] == [("b", "0-1", day), ("c", "1-0", later)]


def test_proposed_parts_at_a_break_of_more_than_eight_weeks():
    games = rated_games(MATCHES)
    # Round 4 to round 5 is exactly 8 weeks (56 days): no break. Round 5 (11 Jan) to the postponed match
    # (19 Apr) is 98 days: a second part.
    assert proposed_parts(games) == (
        Part(1, ROUND_DATES[1], ROUND_DATES[5], 27, (1, 2, 3, 4, 5)),
        Part(2, POSTPONED, POSTPONED, 4, (6,)),
    )
    assert len(games_of_part(games, None, POSTPONED)) == 27
    assert len(games_of_part(games, POSTPONED, None)) == 4


def test_no_break_one_part():
    on_time = [dataclasses.replace(m, played_on=None) for m in MATCHES]
    games = rated_games(on_time)
    assert end_date(games) == ROUND_DATES[6]
    assert proposed_parts(games) == (Part(1, ROUND_DATES[1], ROUND_DATES[6], 31, (1, 2, 3, 4, 5, 6)),)
    assert proposed_parts(()) == ()
