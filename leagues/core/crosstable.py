"""The crosstable of teams (single or double round robin): each pairing's encounters in round order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .table import WithdrawalRule, match_score
from .types import Match, MatchPoints, Team


@dataclass(frozen=True, slots=True)
class Encounter:
    """A match seen from the row team: its board points, the opponent's (halves; None while scheduled)."""

    round: int
    cycle: int
    home: bool
    own: int | None
    other: int | None
    status: str
    annulled: bool = False  # struck from the table (a withdrawn team's match)


@dataclass(frozen=True, slots=True)
class Crosstable:
    teams: tuple[str, ...]
    # cells[i][j]: team i's encounters with team j in round order (none on the diagonal); one per cycle in a
    # complete round robin.
    cells: tuple[tuple[tuple[Encounter, ...], ...], ...]

    def cell(self, row: str, column: str) -> tuple[Encounter, ...]:
        return self.cells[self.teams.index(row)][self.teams.index(column)]


def crosstable(
    teams: Sequence[Team],
    matches: Iterable[Match],
    *,
    boards: int,
    order: Sequence[str] | None = None,
    withdrawals: WithdrawalRule = WithdrawalRule.ANNUL,
) -> Crosstable:
    """Rows and columns in ``order`` (e.g. the table's), else in the teams' order."""
    ids = tuple(order) if order is not None else tuple(t.id for t in teams)
    position = {team_id: i for i, team_id in enumerate(ids)}
    withdrawn = {t.id for t in teams if t.withdrawn_on is not None}
    grid: list[list[list[Encounter]]] = [[[] for _ in ids] for _ in ids]
    for match in sorted(matches, key=lambda m: (m.round, m.day)):
        if match.away is None or match.home not in position or match.away not in position:
            continue
        score = match_score(match, boards, MatchPoints())
        annulled = withdrawals == WithdrawalRule.ANNUL and bool({match.home, match.away} & withdrawn)
        home_points = None if score is None else score.home_halves
        away_points = None if score is None else score.away_halves
        h, a = position[match.home], position[match.away]
        grid[h][a].append(
            Encounter(match.round, match.cycle, True, home_points, away_points, match.status, annulled)
        )
        grid[a][h].append(
            Encounter(match.round, match.cycle, False, away_points, home_points, match.status, annulled)
        )
    return Crosstable(ids, tuple(tuple(tuple(cell) for cell in row) for row in grid))
