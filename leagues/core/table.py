"""A match's score and the division's table with its tie-breaks (spec/leagues.md §5).

Rules (decisions where leagues.md is silent are marked):

* A played match's board points are the sum of its boards (1/½/0, counted in halves); the team with more board
  points wins the match, equal board points are a draw; the match points follow (e.g. 2/1/0).
* An empty side on a board is a forfeit for the other side, whatever the result says; both sides empty is lost
  for both. A board without a result (not reported yet) counts for nobody.
* A match lost by forfeit gives the other team every board point and the win's match points; a double forfeit
  gives both the loss's match points and no board points. Scheduled matches and byes count for nobody
  (**decision**: a bye gives no points).
* A withdrawn team (**decision**, the usual Turnierordnung): with ``WithdrawalRule.ANNUL`` all its matches are
  struck from the table, with ``KEEP`` they count as entered; either way it is placed after the active teams.
* Point deductions are subtracted at the end (match points and board points).
* Tie-breaks in the division's order; ``DIRECT`` counts the match points of the matches among the teams still
  tied at that point. Teams tied on everything share a rank ("1, 1, 3").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .types import AWAY_HALVES, HOME_HALVES, Board, Match, MatchPoints, MatchStatus, Team


class Tiebreak(StrEnum):
    MATCH_POINTS = "mp"
    BOARD_POINTS = "bp"
    DIRECT = "direct"  # direct encounter: match points among the tied teams
    BERLIN = "berlin"  # Berliner Wertung: board points weighted by board (board 1 of 8 counts 8)
    WINS = "wins"  # number of matches won


DEFAULT_POINTS = MatchPoints()
DEFAULT_TIEBREAKS: tuple[Tiebreak, ...] = (Tiebreak.MATCH_POINTS, Tiebreak.BOARD_POINTS, Tiebreak.DIRECT)


class WithdrawalRule(StrEnum):
    ANNUL = "annul"
    KEEP = "keep"


class Outcome(StrEnum):
    WIN = "W"
    DRAW = "D"
    LOSS = "L"


@dataclass(frozen=True, slots=True)
class MatchScore:
    home_halves: int
    away_halves: int
    home_outcome: Outcome
    away_outcome: Outcome
    home_match_points: int
    away_match_points: int
    home_berlin: int  # halves × board weight
    away_berlin: int
    forfeit: bool  # the match was lost by forfeit (one or both teams)


def board_halves(board: Board) -> tuple[int, int] | None:
    """The board points (halves) of home and away; None for a board not reported yet."""
    if board.home is None or board.away is None:
        return (0 if board.home is None else 2, 0 if board.away is None else 2)
    if board.result is None:
        return None
    return HOME_HALVES[board.result], AWAY_HALVES[board.result]


def berlin_weight(number: int, boards: int) -> int:
    """Board 1 of 8 counts 8, board 8 counts 1 (boards beyond the division's count nothing)."""
    return max(0, boards + 1 - number)


def _outcomes(home: int, away: int) -> tuple[Outcome, Outcome]:
    if home > away:
        return Outcome.WIN, Outcome.LOSS
    if home < away:
        return Outcome.LOSS, Outcome.WIN
    return Outcome.DRAW, Outcome.DRAW


def match_score(match: Match, boards: int, points: MatchPoints = DEFAULT_POINTS) -> MatchScore | None:
    """The score of a match; None for a scheduled match or a bye (they count for nobody)."""
    mp = {Outcome.WIN: points.win, Outcome.DRAW: points.draw, Outcome.LOSS: points.loss}
    all_halves, all_berlin = 2 * boards, boards * (boards + 1)
    if match.status in (MatchStatus.SCHEDULED, MatchStatus.BYE) or match.away is None:
        return None
    if match.status == MatchStatus.DOUBLE_FORFEIT:
        return MatchScore(0, 0, Outcome.LOSS, Outcome.LOSS, points.loss, points.loss, 0, 0, True)
    if match.status == MatchStatus.HOME_FORFEIT:
        return MatchScore(
            0, all_halves, Outcome.LOSS, Outcome.WIN, points.loss, points.win, 0, all_berlin, True
        )
    if match.status == MatchStatus.AWAY_FORFEIT:
        return MatchScore(
            all_halves, 0, Outcome.WIN, Outcome.LOSS, points.win, points.loss, all_berlin, 0, True
        )
    home = away = home_berlin = away_berlin = 0
    for board in match.boards:
        halves = board_halves(board)
        if halves is None:
            continue
        weight = berlin_weight(board.number, boards)
        home, away = home + halves[0], away + halves[1]
        home_berlin, away_berlin = home_berlin + weight * halves[0], away_berlin + weight * halves[1]
    home_outcome, away_outcome = _outcomes(home, away)
    return MatchScore(
        home,
        away,
        home_outcome,
        away_outcome,
        mp[home_outcome],
        mp[away_outcome],
        home_berlin,
        away_berlin,
        False,
    )


@dataclass(frozen=True, slots=True)
class TableRow:
    rank: int
    team: str
    played: int
    wins: int
    draws: int
    losses: int
    match_points: int  # after the deduction
    board_points: int  # halves, after the deduction
    berlin: int  # halves × board weight
    withdrawn: bool = False


@dataclass
class _Tally:
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    match_points: int = 0
    board_points: int = 0
    berlin: int = 0


def counted_scores(
    teams: Sequence[Team],
    matches: Iterable[Match],
    *,
    boards: int,
    points: MatchPoints = DEFAULT_POINTS,
    withdrawals: WithdrawalRule = WithdrawalRule.ANNUL,
) -> list[tuple[Match, MatchScore]]:
    """The matches that count for the table, with their scores."""
    withdrawn = {t.id for t in teams if t.withdrawn_on is not None}
    result = []
    for match in matches:
        score = match_score(match, boards, points)
        if score is None:
            continue
        if withdrawals == WithdrawalRule.ANNUL and (match.home in withdrawn or match.away in withdrawn):
            continue
        result.append((match, score))
    return result


def _add(tally: _Tally, outcome: Outcome, match_points: int, halves: int, berlin: int) -> None:
    tally.played += 1
    tally.wins += outcome == Outcome.WIN
    tally.draws += outcome == Outcome.DRAW
    tally.losses += outcome == Outcome.LOSS
    tally.match_points += match_points
    tally.board_points += halves
    tally.berlin += berlin


def table(
    teams: Sequence[Team],
    matches: Iterable[Match],
    *,
    boards: int,
    points: MatchPoints = DEFAULT_POINTS,
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
    withdrawals: WithdrawalRule = WithdrawalRule.ANNUL,
) -> tuple[TableRow, ...]:
    """The table: active teams ranked by ``tiebreaks``, then the withdrawn teams ranked the same way."""
    scores = counted_scores(teams, matches, boards=boards, points=points, withdrawals=withdrawals)
    tallies = {t.id: _Tally() for t in teams}
    for match, s in scores:
        assert match.away is not None
        if match.home in tallies:
            _add(tallies[match.home], s.home_outcome, s.home_match_points, s.home_halves, s.home_berlin)
        if match.away in tallies:
            _add(tallies[match.away], s.away_outcome, s.away_match_points, s.away_halves, s.away_berlin)
    for team in teams:
        tallies[team.id].match_points -= team.match_point_deduction
        tallies[team.id].board_points -= team.board_point_deduction
    rows: list[TableRow] = []
    for withdrawn in (False, True):
        group = [t.id for t in teams if (t.withdrawn_on is not None) == withdrawn]
        for tied in _order(group, tallies, scores, tiebreaks):
            rank = len(rows) + 1
            for team_id in tied:
                t = tallies[team_id]
                rows.append(
                    TableRow(
                        rank, team_id, t.played, t.wins, t.draws, t.losses, t.match_points, t.board_points,
                        t.berlin, withdrawn,
                    )
                )  # fmt: skip
    return tuple(rows)


def _direct(group: Sequence[str], scores: Sequence[tuple[Match, MatchScore]]) -> Mapping[str, int]:
    members = set(group)
    result = dict.fromkeys(group, 0)
    for match, s in scores:
        if match.home in members and match.away in members:
            assert match.away is not None
            result[match.home] += s.home_match_points
            result[match.away] += s.away_match_points
    return result


def _order(
    group: list[str],
    tallies: Mapping[str, _Tally],
    scores: Sequence[tuple[Match, MatchScore]],
    tiebreaks: Sequence[Tiebreak],
) -> list[list[str]]:
    """Split ``group`` by each tie-break in turn (best first); what is left together shares a rank."""
    groups = [group] if group else []
    for tiebreak in tiebreaks:
        refined: list[list[str]] = []
        for tied in groups:
            if len(tied) == 1:
                refined.append(tied)
                continue
            value = _criterion(tiebreak, tied, tallies, scores)
            for v in sorted({value(t) for t in tied}, reverse=True):
                refined.append([t for t in tied if value(t) == v])
        groups = refined
    return groups


def _criterion(
    tiebreak: Tiebreak,
    tied: Sequence[str],
    tallies: Mapping[str, _Tally],
    scores: Sequence[tuple[Match, MatchScore]],
) -> Callable[[str], int]:
    if tiebreak == Tiebreak.DIRECT:
        direct = _direct(tied, scores)
        return lambda t: direct[t]
    attribute = {
        Tiebreak.MATCH_POINTS: "match_points",
        Tiebreak.BOARD_POINTS: "board_points",
        Tiebreak.BERLIN: "berlin",
        Tiebreak.WINS: "wins",
    }[tiebreak]
    return lambda t: int(getattr(tallies[t], attribute))


def tiebreaks_from_codes(codes: str) -> tuple[Tiebreak, ...]:
    """``"mp,bp,direct"`` → the tie-breaks; unknown codes are left out."""
    known = {t.value for t in Tiebreak}
    return tuple(Tiebreak(c.strip()) for c in codes.split(",") if c.strip() in known)
