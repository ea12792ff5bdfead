"""Each player's board record from the worked example (``league_example``), by hand."""

from __future__ import annotations

from leagues.core.player_scores import player_scores
from tests.leagues.league_example import MATCHES


def test_board_records_by_hand():
    scores = {(s.team, s.player): s for s in player_scores(MATCHES)}
    # A1: R1 1-0 (2), R2 0-1 (0), R3 1-0 vs D (2), R4 ½ (1), R5 1-0 away at C (2) → 7 halves in 5 games.
    a1 = scores[("A", "A1")]
    assert (a1.boards, a1.games, a1.played, a1.halves) == ((1,), 5, 5, 7)
    # A4 is empty in R2: no entry for that board; C4 won it by forfeit (a game, not played).
    c4 = scores[("C", "C4")]
    assert (c4.games, c4.played) == (4, 3)
    # B lost R3 by forfeit: no boards of that match count; B1 played R1, R2, R4 and R6.
    assert scores[("B", "B1")].games == 4
    assert all(s.team == "D" for s in player_scores(MATCHES, team="D"))
