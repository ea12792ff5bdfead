"""Eligibility warnings (spec/leagues.md §4): the federation's rules, checked as warnings, never refusals.

* ``NOT_ON_LIST``: a player on a board is not on his team's ranking list (the club's, or the playing
  community's under its leading club), or is blocked there.
* ``BOARD_ORDER``: a team's players do not sit in the order of the ranking list.
* ``LOWER_TEAM``: a regular player of a higher team plays for a lower team of his club more often than the
  season allows. With ``substitutes_count`` a player who played ``fixed_after`` times for higher teams than
  his own becomes a regular of the lowest of them (**decision**: from his next match on, "festgespielt").
* ``RULE_400``: a player is ranked behind one whose DWZ at the reference date is more than ``width`` lower,
  unless either entry notes an approved exception. One warning per player ranked too low, naming the lowest
  rated player ahead of him.

Matches are taken in the order they were played (day, then round); for ``LOWER_TEAM`` pass every match of the
club's teams in the season, across divisions.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .types import Match, Message, Team, gettext_noop


class EntryStatus(StrEnum):
    REGULAR = "regular"
    SUBSTITUTE = "substitute"
    BLOCKED = "blocked"


class WarningKind(StrEnum):
    NOT_ON_LIST = "not_on_list"
    BOARD_ORDER = "board_order"
    LOWER_TEAM = "lower_team"
    RULE_400 = "rule_400"


@dataclass(frozen=True, slots=True)
class RankingEntry:
    player: str
    rank: int
    team_number: int | None = None  # regular player of this team; None: substitute only
    status: EntryStatus = EntryStatus.REGULAR
    dwz: int | None = None  # at the season's reference date
    exception: bool = False  # an approved exception is noted


@dataclass(frozen=True, slots=True)
class RankingList:
    club: str
    entries: tuple[RankingEntry, ...]

    def entry(self, player: str) -> RankingEntry | None:
        return next((e for e in self.entries if e.player == player), None)


@dataclass(frozen=True, slots=True)
class Rules:
    check_ranking_list: bool = True
    check_board_order: bool = True
    lower_team_limit: int | None = 0  # None: not checked
    substitutes_count: bool = True
    fixed_after: int = 4
    rule_400: bool = False
    width: int = 400


@dataclass(frozen=True, slots=True)
class EligibilityWarning:
    kind: WarningKind
    message: Message
    players: tuple[str, ...]
    team: str | None = None
    round: int | None = None
    board: int | None = None


def _name(names: Mapping[str, str], player: str) -> str:
    return names.get(player, player)


def eligibility(
    teams: Sequence[Team],
    matches: Iterable[Match],
    lists: Mapping[str, RankingList],
    rules: Rules = Rules(),
    names: Mapping[str, str] | None = None,
) -> tuple[EligibilityWarning, ...]:
    """Every warning, in the order the matches were played; ``lists`` by club (the teams' ``club``)."""
    names = names or {}
    by_id = {t.id: t for t in teams}
    warnings: list[EligibilityWarning] = []
    if rules.rule_400:
        for each in lists.values():
            warnings += rule_400(each, rules.width, names)
    tally = _Appearances()
    for match in sorted(matches, key=lambda m: (m.day, m.round)):
        for team_id, side in ((match.home, "home"), (match.away, "away")):
            team = by_id.get(team_id or "")
            if team is None:
                continue
            ranking = lists.get(team.club or "")
            players = [
                (b.number, p) for b in sorted(match.boards, key=lambda b: b.number) if (p := getattr(b, side))
            ]
            if rules.check_ranking_list:
                warnings += _not_on_list(team, ranking, match, players, names)
            if ranking is None:
                continue
            if rules.check_board_order:
                warnings += _board_order(team, ranking, match, players, names)
            if rules.lower_team_limit is not None:
                for board, player in players:
                    w = _appearance(team, ranking, match, board, player, rules, tally, names)
                    warnings += w
    return tuple(warnings)


def _not_on_list(
    team: Team,
    ranking: RankingList | None,
    match: Match,
    players: list[tuple[int, str]],
    names: Mapping[str, str],
) -> list[EligibilityWarning]:
    result = []
    for board, player in players:
        entry = None if ranking is None else ranking.entry(player)
        if entry is not None and entry.status != EntryStatus.BLOCKED:
            continue
        template = (
            gettext_noop(
                "Runde %(round)d, Brett %(board)d: %(player)s steht nicht auf der Rangliste von %(team)s."
            )
            if entry is None
            else gettext_noop(
                "Runde %(round)d, Brett %(board)d: %(player)s ist auf der Rangliste von %(team)s gesperrt."
            )
        )
        params: dict[str, str | int] = {
            "round": match.round,
            "board": board,
            "player": _name(names, player),
            "team": team.label,
        }
        result.append(
            EligibilityWarning(
                WarningKind.NOT_ON_LIST, Message(template, params), (player,), team.id, match.round, board
            )
        )
    return result


def _board_order(
    team: Team,
    ranking: RankingList,
    match: Match,
    players: list[tuple[int, str]],
    names: Mapping[str, str],
) -> list[EligibilityWarning]:
    ranked = [
        (board, player, e.rank) for board, player in players if (e := ranking.entry(player)) is not None
    ]
    result = []
    for (board, player, rank), (_next_board, other, other_rank) in itertools.pairwise(ranked):
        if rank < other_rank:
            continue
        params: dict[str, str | int] = {
            "round": match.round,
            "board": board,
            "player": _name(names, player),
            "rank": rank,
            "other": _name(names, other),
            "other_rank": other_rank,
            "team": team.label,
        }
        template = gettext_noop(
            "Runde %(round)d, %(team)s: %(player)s (Rang %(rank)d) spielt an Brett %(board)d vor "
            "%(other)s (Rang %(other_rank)d)."
        )
        result.append(
            EligibilityWarning(
                WarningKind.BOARD_ORDER,
                Message(template, params),
                (player, other),
                team.id,
                match.round,
                board,
            )
        )
    return result


@dataclass(slots=True)
class _Appearances:
    """What the season so far says about each (club, player): counted in match order."""

    own: dict[tuple[str, str], int] = field(default_factory=dict)  # his team after "festgespielt"
    lower: dict[tuple[str, str], int] = field(default_factory=dict)  # appearances below his own team
    higher: dict[tuple[str, str], list[int]] = field(
        default_factory=dict
    )  # teams above his own he played for


def _appearance(
    team: Team,
    ranking: RankingList,
    match: Match,
    board: int,
    player: str,
    rules: Rules,
    tally: _Appearances,
    names: Mapping[str, str],
) -> list[EligibilityWarning]:
    own, lower, higher = tally.own, tally.lower, tally.higher
    entry = ranking.entry(player)
    if entry is None:
        return []
    key = (ranking.club, player)
    home_team = own.get(key, entry.team_number)
    if home_team is not None and team.number > home_team:
        lower[key] = lower.get(key, 0) + 1
        assert rules.lower_team_limit is not None
        if lower[key] > rules.lower_team_limit:
            params: dict[str, str | int] = {
                "round": match.round,
                "player": _name(names, player),
                "own": home_team,
                "count": lower[key],
                "team": team.label,
            }
            template = gettext_noop(
                "Runde %(round)d: %(player)s, Stammspieler der %(own)d. Mannschaft, spielt zum "
                "%(count)d. Mal in einer unteren Mannschaft (%(team)s)."
            )
            return [
                EligibilityWarning(
                    WarningKind.LOWER_TEAM, Message(template, params), (player,), team.id, match.round, board
                )
            ]
    elif rules.substitutes_count and (home_team is None or team.number < home_team):
        played = higher.setdefault(key, [])
        played.append(team.number)
        if len(played) >= rules.fixed_after:
            own[key] = max(played)
            higher[key] = []
    return []


def rule_400(
    ranking: RankingList, width: int = 400, names: Mapping[str, str] | None = None
) -> list[EligibilityWarning]:
    """Players ranked behind one whose DWZ is more than ``width`` lower, without an approved exception."""
    names = names or {}
    entries = sorted(ranking.entries, key=lambda e: e.rank)
    result = []
    for k, entry in enumerate(entries):
        if entry.dwz is None or entry.exception:
            continue
        ahead = [
            e for e in entries[:k] if e.dwz is not None and not e.exception and entry.dwz - e.dwz > width
        ]
        if not ahead:
            continue
        weakest = min(ahead, key=lambda e: (e.dwz or 0, e.rank))
        assert weakest.dwz is not None
        params: dict[str, str | int] = {
            "player": _name(names, entry.player),
            "rank": entry.rank,
            "dwz": entry.dwz,
            "other": _name(names, weakest.player),
            "other_rank": weakest.rank,
            "other_dwz": weakest.dwz,
            "width": width,
        }
        template = gettext_noop(
            "%(player)s (Rang %(rank)d, DWZ %(dwz)d) steht hinter %(other)s (Rang %(other_rank)d, DWZ "
            "%(other_dwz)d): mehr als %(width)d Punkte Unterschied."
        )
        result.append(
            EligibilityWarning(
                WarningKind.RULE_400, Message(template, params), (entry.player, weakest.player)
            )
        )
    return result
