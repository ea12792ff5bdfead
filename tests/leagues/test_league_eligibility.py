"""Eligibility warnings, never refusals: ranking list, board order, regulars in lower teams, 400 points."""

from __future__ import annotations

import datetime

from leagues.core.eligibility import (
    EntryStatus,
    RankingEntry,
    RankingList,
    Rules,
    WarningKind,
    eligibility,
    rule_400,
)
from leagues.core.types import Board, Match, MatchStatus, Team

DAYS = [datetime.date(2025, 9, 14) + datetime.timedelta(weeks=3 * k) for k in range(6)]
FIRST, SECOND = Team("T1", "SK Alpha 1", "C0501", 1), Team("T2", "SK Alpha 2", "C0501", 2)
OTHER = Team("O", "SV Omega 1", "C0502", 1)
NAMES = {"p1": "Eins, Anna", "p2": "Zwei, Bert", "p3": "Drei, Carl", "p4": "Vier, Dora"}
ALPHA = RankingList(
    "C0501",
    (
        RankingEntry("p1", 1, 1, dwz=2000),
        RankingEntry("p2", 2, 1, dwz=1900),
        RankingEntry("p3", 3, 2, dwz=1500),
        RankingEntry("p4", 4, 2, dwz=1950),  # 450 above p3, ranked behind him
        RankingEntry("p5", 5, None, EntryStatus.SUBSTITUTE, dwz=1400),
        RankingEntry("p6", 6, None, EntryStatus.BLOCKED, dwz=1300),
    ),
)
LISTS = {"C0501": ALPHA, "C0502": RankingList("C0502", ())}


def lineup(day: int, team: Team, *players: str | None) -> Match:
    boards = tuple(Board(n, p, None, "+-") for n, p in enumerate(players, 1))
    return Match(day + 1, team.id, "O", DAYS[day], MatchStatus.PLAYED, boards)


def kinds(warnings):
    return [(w.kind, w.players, w.round, w.board) for w in warnings]


def test_ranking_list_and_board_order():
    match = lineup(0, FIRST, "p2", "p1", "x9", "p6")
    warnings = eligibility([FIRST, OTHER], [match], LISTS, names=NAMES)
    assert kinds(warnings) == [
        (WarningKind.NOT_ON_LIST, ("x9",), 1, 3),
        (WarningKind.NOT_ON_LIST, ("p6",), 1, 4),
        (WarningKind.BOARD_ORDER, ("p2", "p1"), 1, 1),  # p6 (rank 6) behind p1 is in order
    ]
    assert warnings[0].message.text == "Runde 1, Brett 3: x9 steht nicht auf der Rangliste von SK Alpha 1."
    assert warnings[1].message.text == "Runde 1, Brett 4: p6 ist auf der Rangliste von SK Alpha 1 gesperrt."
    assert warnings[2].message.text == (
        "Runde 1, SK Alpha 1: Zwei, Bert (Rang 2) spielt an Brett 1 vor Eins, Anna (Rang 1)."
    )
    off = Rules(check_ranking_list=False, check_board_order=False)
    assert eligibility([FIRST, OTHER], [match], LISTS, off) == ()


def test_a_team_without_a_list():
    team = Team("X", "Ohne Liste", None, 1)
    warnings = eligibility(
        [team], [Match(1, "X", "O", DAYS[0], MatchStatus.PLAYED, (Board(1, "q", None, "+-"),))], {}
    )
    assert kinds(warnings) == [(WarningKind.NOT_ON_LIST, ("q",), 1, 1)]


def test_regular_of_a_higher_team_in_a_lower_team():
    matches = [lineup(0, SECOND, "p3", "p1"), lineup(1, SECOND, "p1"), lineup(2, SECOND, "p1")]
    rules = Rules(lower_team_limit=1, check_board_order=False)
    warnings = eligibility([FIRST, SECOND, OTHER], matches, LISTS, rules, names=NAMES)
    # p1 may play once in a lower team; the second and third time are warned.
    assert kinds(warnings) == [
        (WarningKind.LOWER_TEAM, ("p1",), 2, 1),
        (WarningKind.LOWER_TEAM, ("p1",), 3, 1),
    ]
    assert warnings[0].message.text == (
        "Runde 2: Eins, Anna, Stammspieler der 1. Mannschaft, spielt zum 2. Mal in einer unteren Mannschaft "
        "(SK Alpha 2)."
    )
    assert (
        eligibility(
            [FIRST, SECOND, OTHER], matches, LISTS, Rules(lower_team_limit=None, check_board_order=False)
        )
        == ()
    )


def test_substitute_played_fixed_in_a_higher_team():
    # p5 (a substitute) plays twice for the first team, then for the second: with fixed_after=2 he is a
    # regular of the first team by then.
    matches = [lineup(0, FIRST, "p1", "p5"), lineup(1, FIRST, "p1", "p5"), lineup(2, SECOND, "p3", "p5")]
    teams = [FIRST, SECOND, OTHER]
    warnings = eligibility(teams, matches, LISTS, Rules(fixed_after=2, check_board_order=False))
    assert kinds(warnings) == [(WarningKind.LOWER_TEAM, ("p5",), 3, 2)]
    assert eligibility(teams, matches, LISTS, Rules(fixed_after=3, check_board_order=False)) == ()
    assert eligibility(teams, matches, LISTS, Rules(fixed_after=2, substitutes_count=False)) == ()


def test_rule_400():
    (warning,) = rule_400(ALPHA, 400, NAMES)
    assert warning.kind == WarningKind.RULE_400 and warning.players == ("p4", "p3")
    assert warning.message.text == (
        "Vier, Dora (Rang 4, DWZ 1950) steht hinter Drei, Carl (Rang 3, DWZ 1500): "
        "mehr als 400 Punkte Unterschied."
    )
    assert rule_400(ALPHA, 450) == []  # 450 is not more than 450
    assert len(rule_400(ALPHA, 399)) == 1
    # At 300, p4 is still only named once, with the weakest player ahead of him (p3, not p2).
    (narrow,) = rule_400(ALPHA, 300)
    assert narrow.players == ("p4", "p3")


def test_rule_400_exception_and_switch():
    entries = tuple(
        RankingEntry(e.player, e.rank, e.team_number, e.status, e.dwz, exception=e.player == "p4")
        for e in ALPHA.entries
    )
    excused = RankingList("C0501", entries)
    assert rule_400(excused) == []
    assert [w.kind for w in eligibility([], [], LISTS, Rules(rule_400=True))] == [WarningKind.RULE_400]
    assert eligibility([], [], LISTS, Rules(rule_400=False)) == ()


def test_rule_400_weakest_ahead_and_unrated():
    ranking = RankingList(
        "C0501",
        (
            RankingEntry("a", 1, dwz=1200),
            RankingEntry("b", 2, dwz=None),
            RankingEntry("c", 3, dwz=1100),
            RankingEntry("d", 4, dwz=1700),
        ),
    )
    assert [w.players for w in rule_400(ranking)] == [("d", "c")]
