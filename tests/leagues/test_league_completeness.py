"""Completeness per round: expected boards = ⌊active teams ÷ 2⌋ × boards − boards of forfeited matches."""

from __future__ import annotations

import dataclasses

from leagues.core.completeness import completeness
from leagues.core.types import MatchStatus
from tests.leagues.league_example import BOARDS, MATCHES, TEAMS


def test_worked_example_is_complete():
    rounds = completeness(TEAMS, MATCHES, boards=BOARDS)
    # R1, R2: 4 active teams, 2 matches × 4 boards; R3: B–C lost by forfeit, 4 boards fewer; from R4 on D has
    # withdrawn (on the day of round 4): 3 active teams, 1 match × 4 boards.
    assert [(r.round, r.active_teams, r.expected_boards, r.reported_boards) for r in rounds] == [
        (1, 4, 8, 8),
        (2, 4, 8, 8),  # A's empty board 4 is reported (a forfeit)
        (3, 4, 4, 4),
        (4, 3, 4, 4),
        (5, 3, 4, 4),
        (6, 3, 4, 4),
    ]
    assert all(r.complete and r.message is None for r in rounds)


def test_missing_reports_are_named():
    matches = list(MATCHES)
    matches[0] = dataclasses.replace(matches[0], status=MatchStatus.SCHEDULED, boards=())  # R1 A–B
    matches[1] = dataclasses.replace(matches[1], boards=matches[1].boards[:3])  # R1 C–D: 3 of 4 boards
    matches[-1] = dataclasses.replace(matches[-1], status=MatchStatus.SCHEDULED)  # R6 C–B
    rounds = completeness(TEAMS, matches, boards=BOARDS, rounds=7)
    first = rounds[0]
    assert (first.expected_boards, first.reported_boards, first.missing) == (8, 3, 2)
    assert first.message is not None and first.message.text == "Runde 1: 2 Mannschaftskämpfe fehlen"
    assert [m.text for m in first.details({"A": "SK Alpha 1", "B": "SV Beta 1"})] == [
        "Runde 1: SK Alpha 1 – SV Beta 1 ist nicht (vollständig) gemeldet",
        "Runde 1: C – D ist nicht (vollständig) gemeldet",
    ]
    assert rounds[5].message is not None and rounds[5].message.text == "Runde 6: 1 Mannschaftskampf fehlt"
    # A round the schedule lacks altogether: one pairing of the three active teams is missing.
    assert (rounds[6].round, rounds[6].unscheduled, rounds[6].expected_boards) == (7, 1, 4)
    assert (
        rounds[6].message is not None
        and rounds[6].message.template == "Runde %(round)d: 1 Mannschaftskampf fehlt"
    )


def test_double_forfeit_needs_no_boards():
    matches = [dataclasses.replace(MATCHES[0], status=MatchStatus.DOUBLE_FORFEIT, boards=()), MATCHES[1]]
    (first,) = completeness(TEAMS, matches, boards=BOARDS)
    assert (first.expected_boards, first.reported_boards, first.complete) == (4, 4, True)
