"""The worked example: four teams, four boards, a double round robin (6 rounds), 2/1/0.

D withdraws on the day of round 4 (its later matches were never played); B loses round 3 by forfeit
(did not appear at C); A leaves board 4 empty in round 2; C is docked 1 match point, B 1 board point; C–B of
round 6 is postponed to 19 April 2026, and its board 1 was played 0-1 but scored 1-0 for the table (B's
player was not eligible).

Boards, home first (weights of the Berliner Wertung 4, 3, 2, 1):

    R1 A–B  1-0, 1-0, ½-½, 0-1      2½:1½  A wins   Berlin A 8+6+2+0=16, B 0+0+2+2=4  (halves × weight)
    R1 C–D  1-0 ×4                  4:0    C wins   (only counts with WithdrawalRule.KEEP)
    R2 A–C  0-1, ½-½, 1-0, (empty)  1½:2½  C wins   Berlin A 0+3+4+0=7, C 8+3+0+2=13
    R2 B–D  1-0, 1-0, 1-0, 0-1      3:1             (KEEP only)
    R3 A–D  1-0 ×4                  4:0             (KEEP only)
    R3 B–C  B lost by forfeit       0:4    C wins   Berlin C 2×(4+3+2+1)=20
    R4 B–A  ½-½ ×4                  2:2    draw     Berlin 10 each
    R5 C–A  0-1, 0-1, 1-0, ½-½      1½:2½  A wins   Berlin C 0+0+4+1=5, A 8+6+0+1=15
    R6 C–B  1-0 (rated 0-1), ½-½ ×3 2½:1½  C wins   Berlin C 8+3+2+1=14, B 0+3+2+1=6
    R4 D–C, R5 D–B, R6 D–A          never played (D withdrew)

Table with D's matches annulled (board points in halves):

    A: W R1, L R2, D R4, W R5 → 4 played, 2-1-1, MP 2+0+1+2 = 5, BP 5+3+4+5 = 17 (8½), Berlin 16+7+10+15 = 48
    B: L R1, L R3, D R4, L R6   → 4 played, 0-1-3, MP 1,  BP 3+0+4+3 = 10 − 2 = 8 (4), Berlin 4+0+10+6 = 20
    C: W R2, W R3, L R5, W R6   → 4 played, 3-0-1, MP 6 − 1 = 5, BP 5+8+3+5 = 21 (10½), Berlin 13+20+5+14 = 52
    D: withdrawn, nothing counts

    1. C 5 MP 10½   2. A 5 MP 8½   3. B 1 MP 4   4. D (withdrawn)
"""

from __future__ import annotations

import datetime

from leagues.core.types import Board, Match, MatchStatus, Team

D = datetime.date
ROUND_DATES = {
    1: D(2025, 9, 14),
    2: D(2025, 10, 5),
    3: D(2025, 10, 26),
    4: D(2025, 11, 16),
    5: D(2026, 1, 11),  # exactly 8 weeks after round 4: no break "of more than 8 weeks"
    6: D(2026, 2, 1),
}
POSTPONED = D(2026, 4, 19)
BOARDS = 4

TEAMS = (
    Team("A", "SK Alpha 1", club="C0501", number=1),
    Team("B", "SV Beta 1", club="C0502", number=1, board_point_deduction=2),
    Team("C", "SC Gamma 1", club="C0503", number=1, match_point_deduction=1),
    Team("D", "SF Delta 1", club="C0504", number=1, withdrawn_on=ROUND_DATES[4]),
)


def boards(
    home_team: str, away_team: str, *results: str, rated: dict[int, str] | None = None
) -> tuple[Board, ...]:
    rated = rated or {}
    return tuple(
        Board(n, f"{home_team}{n}", f"{away_team}{n}", result, rated.get(n))
        for n, result in enumerate(results, 1)
    )


def played(r: int, home: str, away: str, bs: tuple[Board, ...], played_on: D | None = None) -> Match:
    return Match(
        r, home, away, ROUND_DATES[r], MatchStatus.PLAYED, bs, played_on=played_on, cycle=1 + (r > 3)
    )


def scheduled(r: int, home: str, away: str) -> Match:
    return Match(r, home, away, ROUND_DATES[r], MatchStatus.SCHEDULED, cycle=1 + (r > 3))


R2_A_C = (
    Board(1, "A1", "C1", "0-1"),
    Board(2, "A2", "C2", "1/2-1/2"),
    Board(3, "A3", "C3", "1-0"),
    Board(4, None, "C4", "-+"),
)

MATCHES = (
    played(1, "A", "B", boards("A", "B", "1-0", "1-0", "1/2-1/2", "0-1")),
    played(1, "C", "D", boards("C", "D", "1-0", "1-0", "1-0", "1-0")),
    played(2, "A", "C", R2_A_C),
    played(2, "B", "D", boards("B", "D", "1-0", "1-0", "1-0", "0-1")),
    played(3, "A", "D", boards("A", "D", "1-0", "1-0", "1-0", "1-0")),
    Match(3, "B", "C", ROUND_DATES[3], MatchStatus.HOME_FORFEIT, cycle=1),
    played(4, "B", "A", boards("B", "A", *["1/2-1/2"] * 4)),
    scheduled(4, "D", "C"),
    played(5, "C", "A", boards("C", "A", "0-1", "0-1", "1-0", "1/2-1/2")),
    scheduled(5, "D", "B"),
    scheduled(6, "D", "A"),
    played(
        6,
        "C",
        "B",
        boards("C", "B", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", rated={1: "0-1"}),
        played_on=POSTPONED,
    ),
)
