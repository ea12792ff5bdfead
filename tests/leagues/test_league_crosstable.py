"""The crosstable of teams: one encounter per cycle in each cell, seen from the row team."""

from __future__ import annotations

import datetime

from leagues.core.crosstable import Encounter, crosstable
from leagues.core.types import Board, Match, MatchStatus, Team
from tests.leagues.league_example import BOARDS, MATCHES, TEAMS


def test_double_round_robin():
    cross = crosstable(TEAMS, MATCHES, boards=BOARDS, order=["C", "A", "B", "D"])
    assert cross.teams == ("C", "A", "B", "D")
    assert cross.cell("A", "B") == (
        Encounter(1, 1, True, 5, 3, "played"),
        Encounter(4, 2, False, 4, 4, "played"),
    )
    assert cross.cell("B", "C") == (
        Encounter(3, 1, True, 0, 8, "home_forfeit"),
        Encounter(6, 2, False, 3, 5, "played"),
    )
    assert cross.cell("A", "D") == (
        Encounter(3, 1, True, 8, 0, "played", annulled=True),
        Encounter(6, 2, False, None, None, "scheduled", annulled=True),
    )
    assert cross.cell("C", "C") == ()


def test_single_round_robin():
    day = datetime.date(2025, 9, 14)
    teams = [Team("P"), Team("Q"), Team("R")]
    b = (Board(1, "p", "q", "1/2-1/2"),)
    matches = [
        Match(1, "P", "Q", day, MatchStatus.PLAYED, b),
        Match(1, "R", None, day, MatchStatus.BYE),
        Match(2, "Q", "R", day, MatchStatus.AWAY_FORFEIT),
    ]
    cross = crosstable(teams, matches, boards=1)
    assert [[len(cell) for cell in row] for row in cross.cells] == [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    assert cross.cell("R", "Q") == (Encounter(2, 1, False, 0, 2, "away_forfeit"),)
