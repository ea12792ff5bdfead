"""Completeness per round (spec/leagues.md §4): which match reports the rating officer still lacks.

Expected boards = ⌊active teams ÷ 2⌋ × boards − boards of forfeited matches. A team is active in a round
unless it withdrew on or before the round's day (the earliest scheduled date of the round's matches). A board
is reported when it has a result or an empty side (a forfeit). A match is missing when it is still scheduled
or has fewer reported boards than the division has; a pairing the schedule lacks altogether is missing too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .types import FORFEIT_STATUSES, Board, Match, MatchStatus, Message, Team, gettext_noop


@dataclass(frozen=True, slots=True)
class RoundCompleteness:
    round: int
    active_teams: int
    expected_boards: int
    reported_boards: int
    missing_matches: tuple[Match, ...]  # in the schedule, not (fully) reported
    unscheduled: int  # pairings of active teams the schedule lacks

    @property
    def missing(self) -> int:
        return len(self.missing_matches) + self.unscheduled

    @property
    def complete(self) -> bool:
        return self.missing == 0

    @property
    def message(self) -> Message | None:
        """ "Runde 5: 2 Mannschaftskämpfe fehlen"; None when the round is complete."""
        if self.complete:
            return None
        if self.missing == 1:
            return Message(gettext_noop("Runde %(round)d: 1 Mannschaftskampf fehlt"), {"round": self.round})
        return Message(
            gettext_noop("Runde %(round)d: %(count)d Mannschaftskämpfe fehlen"),
            {"round": self.round, "count": self.missing},
        )

    def details(self, names: dict[str, str] | None = None) -> tuple[Message, ...]:
        """One message per missing match, with the teams named."""
        names = names or {}
        return tuple(
            Message(
                gettext_noop("Runde %(round)d: %(home)s – %(away)s ist nicht (vollständig) gemeldet"),
                {
                    "round": m.round,
                    "home": names.get(m.home, m.home),
                    "away": names.get(m.away or "", m.away or ""),
                },
            )
            for m in self.missing_matches
        )


def is_reported(board: Board) -> bool:
    return board.result is not None or board.home is None or board.away is None


def completeness(
    teams: Sequence[Team], matches: Iterable[Match], *, boards: int, rounds: int | None = None
) -> tuple[RoundCompleteness, ...]:
    """Each round from 1 to ``rounds`` (default: the last round in the schedule)."""
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round, []).append(match)
    last = rounds if rounds is not None else max(by_round, default=0)
    return tuple(_round(r, teams, by_round.get(r, []), boards) for r in range(1, last + 1))


def _round(number: int, teams: Sequence[Team], matches: list[Match], boards: int) -> RoundCompleteness:
    day = min((m.date for m in matches), default=None)
    active = {t.id for t in teams if t.withdrawn_on is None or (day is not None and day < t.withdrawn_on)}
    pairings = [m for m in matches if m.away is not None and m.home in active and m.away in active]
    forfeited = [m for m in pairings if m.status in FORFEIT_STATUSES]
    expected_matches = len(active) // 2
    reported = 0
    missing = []
    for match in pairings:
        if match.status in FORFEIT_STATUSES:
            continue
        count = sum(1 for b in match.boards if 1 <= b.number <= boards and is_reported(b))
        if match.status == MatchStatus.PLAYED:
            reported += count
        if match.status != MatchStatus.PLAYED or count < boards:
            missing.append(match)
    return RoundCompleteness(
        round=number,
        active_teams=len(active),
        expected_boards=max(0, expected_matches - len(forfeited)) * boards,
        reported_boards=reported,
        missing_matches=tuple(missing),
        unscheduled=max(0, expected_matches - len(pairings)),
    )
