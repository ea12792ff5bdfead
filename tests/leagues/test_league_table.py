"""The table of the worked example (tests/leagues/league_example.py) and the tie-breaks, computed by hand."""

from __future__ import annotations

import datetime

from leagues.core.table import (
    Outcome,
    TableRow,
    Tiebreak,
    WithdrawalRule,
    board_halves,
    match_score,
    table,
    tiebreaks_from_codes,
)
from leagues.core.types import Board, Match, MatchPoints, MatchStatus, Team, halves_text
from tests.leagues.league_example import BOARDS, MATCHES, TEAMS

DAY = datetime.date(2025, 9, 14)


def test_worked_example_table():
    assert table(TEAMS, MATCHES, boards=BOARDS) == (
        TableRow(1, "C", 4, 3, 0, 1, 5, 21, 52),
        TableRow(2, "A", 4, 2, 1, 1, 5, 17, 48),
        TableRow(3, "B", 4, 0, 1, 3, 1, 8, 20),
        TableRow(4, "D", 0, 0, 0, 0, 0, 0, 0, withdrawn=True),
    )


def test_match_points_alone_share_the_first_rank():
    rows = table(TEAMS, MATCHES, boards=BOARDS, tiebreaks=[Tiebreak.MATCH_POINTS])
    assert [(r.rank, r.team) for r in rows] == [(1, "A"), (1, "C"), (3, "B"), (4, "D")]


def test_direct_encounter_is_even_then_wins_decide():
    # A–C 1½:2½ (C 2 MP), C–A 1½:2½ (A 2 MP): 2:2; then wins: C 3, A 2.
    direct = table(TEAMS, MATCHES, boards=BOARDS, tiebreaks=[Tiebreak.MATCH_POINTS, Tiebreak.DIRECT])
    assert [(r.rank, r.team) for r in direct][:2] == [(1, "A"), (1, "C")]
    wins = table(
        TEAMS, MATCHES, boards=BOARDS, tiebreaks=[Tiebreak.MATCH_POINTS, Tiebreak.DIRECT, Tiebreak.WINS]
    )
    assert [(r.rank, r.team) for r in wins][:2] == [(1, "C"), (2, "A")]


def test_berliner_wertung():
    rows = table(TEAMS, MATCHES, boards=BOARDS, tiebreaks=[Tiebreak.MATCH_POINTS, Tiebreak.BERLIN])
    assert [(r.team, r.berlin) for r in rows] == [("C", 52), ("A", 48), ("B", 20), ("D", 0)]


def test_withdrawn_team_kept():
    # C–D 4:0, B–D 3:1 (B Berlin 8+6+4+0 = 18, D 2), A–D 4:0 count too; D's unplayed matches never do.
    rows = table(TEAMS, MATCHES, boards=BOARDS, withdrawals=WithdrawalRule.KEEP)
    assert rows == (
        TableRow(1, "C", 5, 4, 0, 1, 7, 29, 72),
        TableRow(2, "A", 5, 3, 1, 1, 7, 25, 68),
        TableRow(3, "B", 5, 1, 1, 3, 3, 14, 38),
        TableRow(4, "D", 3, 0, 0, 3, 0, 2, 2, withdrawn=True),
    )


def test_direct_encounter_among_three():
    # A cycle: P beat Q, Q beat R, R beat P: 2 MP each, and the direct encounter (all three among
    # themselves) is 2:2:2 again; the board points decide.
    teams = [Team("P"), Team("Q"), Team("R")]

    def m(home: str, away: str, *results: str) -> Match:
        bs = tuple(Board(n, f"{home}{n}", f"{away}{n}", r) for n, r in enumerate(results, 1))
        return Match(1, home, away, DAY, MatchStatus.PLAYED, bs)

    matches = [
        m("P", "Q", "1-0", "1-0"),  # P 4 halves : Q 0
        m("Q", "R", "1-0", "1/2-1/2"),  # Q 3 : R 1
        m("R", "P", "1-0", "1/2-1/2"),  # R 3 : P 1
    ]
    rows = table(
        teams, matches, boards=2, tiebreaks=[Tiebreak.MATCH_POINTS, Tiebreak.DIRECT, Tiebreak.BOARD_POINTS]
    )
    # MP 2 each, direct 2 each; board points P 4+1 = 5, R 1+3 = 4, Q 0+3 = 3.
    assert [(r.rank, r.team, r.board_points) for r in rows] == [(1, "P", 5), (2, "R", 4), (3, "Q", 3)]
    rows = table(teams, matches, boards=2, tiebreaks=[Tiebreak.MATCH_POINTS, Tiebreak.DIRECT])
    assert [r.rank for r in rows] == [1, 1, 1]


def test_direct_encounter_splits_two_of_three():
    # P and Q tied on 2 MP after the first criterion; Q beat P directly.
    teams = [Team("P"), Team("Q"), Team("R")]
    bs = (Board(1, "x", "y", "0-1"),)
    matches = [
        Match(1, "P", "Q", DAY, MatchStatus.PLAYED, bs),  # Q wins
        Match(2, "P", "R", DAY, MatchStatus.AWAY_FORFEIT),  # P wins
        Match(3, "R", "Q", DAY, MatchStatus.PLAYED, (Board(1, "r", "q", "1-0"),)),  # R wins
    ]
    rows = table(teams, matches, boards=1, tiebreaks=[Tiebreak.MATCH_POINTS, Tiebreak.DIRECT])
    assert [(r.rank, r.team) for r in rows] == [(1, "P"), (1, "Q"), (1, "R")]  # a cycle: 2:2:2 again
    rows = table(teams[:2], matches[:1], boards=1, tiebreaks=[Tiebreak.DIRECT])
    assert [(r.rank, r.team) for r in rows] == [(1, "Q"), (2, "P")]


def test_forfeits_and_points():
    bye = Match(1, "A", None, DAY, MatchStatus.BYE)
    assert match_score(bye, 8) is None
    assert match_score(Match(1, "A", "B", DAY), 8) is None  # scheduled
    home_forfeit = match_score(Match(1, "A", "B", DAY, MatchStatus.HOME_FORFEIT), 8, MatchPoints(3, 1, 0))
    assert home_forfeit is not None
    assert (home_forfeit.home_halves, home_forfeit.away_halves) == (0, 16)
    assert (home_forfeit.home_match_points, home_forfeit.away_match_points) == (0, 3)
    assert home_forfeit.away_berlin == 2 * 36
    double = match_score(Match(1, "A", "B", DAY, MatchStatus.DOUBLE_FORFEIT), 8)
    assert double is not None
    assert (double.home_outcome, double.away_outcome, double.home_halves) == (Outcome.LOSS, Outcome.LOSS, 0)


def test_empty_side_is_a_forfeit_whatever_the_result():
    assert board_halves(Board(1, None, "x", "1-0")) == (0, 2)
    assert board_halves(Board(1, "x", None, None)) == (2, 0)
    assert board_halves(Board(1, None, None, None)) == (0, 0)
    assert board_halves(Board(1, "x", "y", None)) is None  # not reported yet
    assert board_halves(Board(1, "x", "y", "--")) == (0, 0)


def test_unreported_boards_count_nothing_yet():
    match = Match(1, "A", "B", DAY, MatchStatus.PLAYED, (Board(1, "a", "b", "1-0"), Board(2, "c", "d")))
    score = match_score(match, 2)
    assert score is not None and (score.home_halves, score.away_halves, score.home_outcome) == (
        2,
        0,
        Outcome.WIN,
    )


def test_tiebreak_codes_and_halves_text():
    assert tiebreaks_from_codes("mp, bp,xx,direct") == (
        Tiebreak.MATCH_POINTS,
        Tiebreak.BOARD_POINTS,
        Tiebreak.DIRECT,
    )
    assert [halves_text(h) for h in (0, 1, 9, 16, -3)] == ["0", "½", "4½", "8", "-1½"]
