"""The JSON contract of a league import (issue 29): parsing and validation, pure like the tournament's.

``parse_league`` collects every problem before it gives up (all or nothing), each naming its JSON path
(``matches[3].boards[2].away: unknown player id "P9"``); messages are English like the tournament contract's.
Players are read exactly as there (``players[]``: ``id``, ``name``, ``birth_year``, ``dwz``, ``index``,
``fide_elo``). Decisions: ``division.rounds`` counts every round of both cycles; a board's players must be in
their team's ``line_up``; a player is in at most one line-up; a forfeited match has no boards; a team's number
within its club is the number its name ends with ("SK Musterstadt 2" is team 2), else 1.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ratings.dwz.contract import (
    ContractError,
    _date,
    _describe,
    _is_int,
    _parse_player,
    _surrogate_errors,
    loads,
)
from ratings.dwz.types import PlayerInput

from .types import (
    FORFEIT_STATUSES,
    PLAYED_RESULTS,
    RESULT_CODES,
    Board,
    Match,
    MatchPoints,
    MatchStatus,
    Team,
)

__all__ = ["ContractError", "DivisionInput", "LeagueInput", "SeasonInput", "TeamInput", "parse_league"]

ORGANISATION_CODE_RE = re.compile(r"[0-9A-HKLM][0-9A-Z]{2}")
CLUB_ZPS_RE = re.compile(r"[1-9A-HLM][0-9A-Z]{4}")
_TEAM_NUMBER = re.compile(r"\s(\d{1,2})$")
MAX_BOARDS = 16
CONTRACT_STATUSES = (
    MatchStatus.PLAYED,
    MatchStatus.HOME_FORFEIT,
    MatchStatus.AWAY_FORFEIT,
    MatchStatus.DOUBLE_FORFEIT,
)
# Which results a board with an empty side may have: the other side wins by forfeit, or both lose.
_EMPTY_SIDE_RESULTS = {
    (True, False): {"-+", "--"},
    (False, True): {"+-", "--"},
    (True, True): {"--"},
}


@dataclass(frozen=True, slots=True)
class SeasonInput:
    name: str
    organisation: str | None
    reference_date: datetime.date


@dataclass(frozen=True, slots=True)
class DivisionInput:
    name: str
    boards: int
    rounds: int
    cycles: int
    points: MatchPoints
    time_control: str | None


@dataclass(frozen=True, slots=True)
class TeamInput:
    id: str
    name: str
    club: str | None
    line_up: tuple[str, ...]

    @property
    def number(self) -> int:
        found = _TEAM_NUMBER.search(self.name)
        return int(found.group(1)) if found else 1

    def to_team(self) -> Team:
        return Team(id=self.id, name=self.name, club=self.club, number=self.number)


@dataclass(frozen=True, slots=True)
class LeagueInput:
    season: SeasonInput
    division: DivisionInput
    players: tuple[PlayerInput, ...]
    names: Mapping[str, str]  # player id → name, where given
    teams: tuple[TeamInput, ...]
    matches: tuple[Match, ...]


def _object(value: object, field: str, errors: list[str]) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    errors.append(f"{field}: missing" if value is None else f"{field}: must be an object")
    return {}


def _string(
    obj: dict[str, Any], key: str, field: str, errors: list[str], *, nullable: bool = False
) -> str | None:
    value = obj.get(key)
    if value is None and nullable:
        return None
    if not isinstance(value, str) or not value.strip():
        errors.append(
            f"{field}: missing"
            if value is None
            else f"{field}: must be a non-empty string, got {_describe(value)}"
        )
        return None
    return value


def _integer(obj: dict[str, Any], key: str, field: str, errors: list[str], low: int, high: int) -> int | None:
    value = obj.get(key)
    if value is None:
        errors.append(f"{field}: missing")
        return None
    if not _is_int(value) or not low <= value <= high:
        errors.append(f"{field}: must be an integer in {low}-{high}, got {_describe(value)}")
        return None
    return int(value)


def _code(
    value: str | None, pattern: re.Pattern[str], what: str, field: str, errors: list[str]
) -> str | None:
    if value is not None and not pattern.fullmatch(value):
        errors.append(f"{field}: not {what}: {_describe(value)}")
        return None
    return value


def _season(raw: object, errors: list[str]) -> SeasonInput | None:
    obj = _object(raw, "season", errors)
    name = _string(obj, "name", "season.name", errors)
    organisation = _code(
        _string(obj, "organisation", "season.organisation", errors, nullable=True),
        ORGANISATION_CODE_RE,
        "a federation code such as C05",
        "season.organisation",
        errors,
    )
    reference = _date(obj.get("reference_date"), "season.reference_date", errors)
    if name is None or reference is None:
        return None
    return SeasonInput(name=name, organisation=organisation, reference_date=reference)


def _match_points(raw: object, errors: list[str]) -> MatchPoints | None:
    if raw is None:
        return MatchPoints()
    obj = _object(raw, "division.match_points", errors)
    values = [_integer(obj, k, f"division.match_points.{k}", errors, 0, 100) for k in ("win", "draw", "loss")]
    win, draw, loss = values
    if win is None or draw is None or loss is None:
        return None
    if not win >= draw >= loss:
        errors.append("division.match_points: win >= draw >= loss is required")
        return None
    return MatchPoints(win=win, draw=draw, loss=loss)


def _division(raw: object, errors: list[str]) -> DivisionInput | None:
    obj = _object(raw, "division", errors)
    name = _string(obj, "name", "division.name", errors)
    boards = _integer(obj, "boards", "division.boards", errors, 1, MAX_BOARDS)
    rounds = _integer(obj, "rounds", "division.rounds", errors, 1, 99)
    cycles = _integer(obj, "cycles", "division.cycles", errors, 1, 2)
    points = _match_points(obj.get("match_points"), errors)
    time_control = _string(obj, "time_control", "division.time_control", errors, nullable=True)
    if name is None or boards is None or rounds is None or cycles is None or points is None:
        return None
    return DivisionInput(name, boards, rounds, cycles, points, time_control)


def _list(data: dict[str, Any], key: str, errors: list[str]) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        errors.append(f"{key}: missing" if value is None else f"{key}: must be a list")
        return []
    return value


def _team(raw: object, f: str, ids: set[str], placed: dict[str, str], errors: list[str]) -> TeamInput | None:
    if not isinstance(raw, dict):
        errors.append(f"{f}: must be an object")
        return None
    team_id = _string(raw, "id", f"{f}.id", errors)
    name = _string(raw, "name", f"{f}.name", errors)
    club = _code(
        _string(raw, "club", f"{f}.club", errors, nullable=True),
        CLUB_ZPS_RE,
        "a ZPS such as C0501",
        f"{f}.club",
        errors,
    )
    line_up = raw.get("line_up")
    players: list[str] = []
    if not isinstance(line_up, list):
        errors.append(f"{f}.line_up: missing" if line_up is None else f"{f}.line_up: must be a list")
    else:
        for k, pid in enumerate(line_up):
            if not isinstance(pid, str) or pid not in ids:
                errors.append(f"{f}.line_up[{k}]: unknown player id {_describe(pid)}")
            elif pid in placed:
                errors.append(f"{f}.line_up[{k}]: player {_describe(pid)} is already in {placed[pid]}")
            else:
                placed[pid] = f if team_id is None else f"team {_describe(team_id)}"
                players.append(pid)
    if team_id is None or name is None:
        return None
    return TeamInput(id=team_id, name=name, club=club, line_up=tuple(players))


def _player_side(
    raw: dict[str, Any], side: str, f: str, team: TeamInput | None, ids: set[str], errors: list[str]
) -> tuple[bool, str | None]:
    """(valid, player id or None for an empty side)."""
    pid = raw.get(side)
    if pid is None:
        return True, None
    if not isinstance(pid, str) or pid not in ids:
        errors.append(f"{f}.{side}: unknown player id {_describe(pid)}")
        return False, None
    if team is not None and pid not in team.line_up:
        errors.append(
            f"{f}.{side}: player {_describe(pid)} is not in the line-up of team {_describe(team.id)}"
        )
        return False, None
    return True, pid


def _board(
    raw: object,
    f: str,
    boards: int,
    sides: tuple[TeamInput | None, TeamInput | None],
    ids: set[str],
    errors: list[str],
) -> Board | None:
    if not isinstance(raw, dict):
        errors.append(f"{f}: must be an object")
        return None
    n_before = len(errors)
    number = _integer(raw, "board", f"{f}.board", errors, 1, boards)
    home_ok, home = _player_side(raw, "home", f, sides[0], ids, errors)
    away_ok, away = _player_side(raw, "away", f, sides[1], ids, errors)
    if home is not None and home == away:
        errors.append(f"{f}: player {_describe(home)} plays himself")
    result = raw.get("result")
    if not isinstance(result, str) or result not in RESULT_CODES:
        errors.append(
            f"{f}.result: missing" if result is None else f"{f}.result: unknown result {_describe(result)}"
        )
        result = None
    rated = raw.get("rated_result")
    if rated is not None and (not isinstance(rated, str) or rated not in RESULT_CODES):
        errors.append(f"{f}.rated_result: unknown result {_describe(rated)}")
        rated = None
    empty = (home is None and home_ok, away is None and away_ok)
    if any(empty) and result is not None and result not in _EMPTY_SIDE_RESULTS[empty]:
        allowed = " or ".join(json.dumps(r) for r in sorted(_EMPTY_SIDE_RESULTS[empty]))
        errors.append(f"{f}.result: a board with an empty side is {allowed}, got {_describe(result)}")
    if any(empty) and rated in PLAYED_RESULTS:
        errors.append(f"{f}.rated_result: a board with an empty side is never rated, got {_describe(rated)}")
    if len(errors) > n_before:
        return None
    assert number is not None
    return Board(number=number, home=home, away=away, result=result, rated_result=rated)


def _match(
    raw: object,
    f: str,
    division: DivisionInput | None,
    teams: Mapping[str, TeamInput],
    ids: set[str],
    errors: list[str],
) -> Match | None:
    if not isinstance(raw, dict):
        errors.append(f"{f}: must be an object")
        return None
    n_before = len(errors)
    rounds = division.rounds if division is not None else 99
    boards = division.boards if division is not None else MAX_BOARDS
    number = _integer(raw, "round", f"{f}.round", errors, 1, rounds)
    day = _date(raw.get("date"), f"{f}.date", errors)
    sides: list[TeamInput | None] = []
    for side in ("home", "away"):
        tid = raw.get(side)
        if not isinstance(tid, str) or tid not in teams:
            errors.append(
                f"{f}.{side}: missing" if tid is None else f"{f}.{side}: unknown team id {_describe(tid)}"
            )
            sides.append(None)
        else:
            sides.append(teams[tid])
    home, away = sides
    if home is not None and home is away:
        errors.append(f"{f}: team {_describe(home.id)} plays itself")
    status = raw.get("status")
    if not isinstance(status, str) or status not in CONTRACT_STATUSES:
        expected = ", ".join(json.dumps(s.value) for s in CONTRACT_STATUSES)
        errors.append(f"{f}.status: must be one of {expected}, got {_describe(status)}")
        status = None
    raw_boards = raw.get("boards", [])
    if not isinstance(raw_boards, list):
        errors.append(f"{f}.boards: must be a list")
        raw_boards = []
    if status in FORFEIT_STATUSES and raw_boards:
        errors.append(f"{f}.boards: a match lost by forfeit has no boards")
        raw_boards = []
    parsed = [
        _board(b, f"{f}.boards[{k}]", boards, (home, away), ids, errors) for k, b in enumerate(raw_boards)
    ]
    _board_clashes(parsed, f, errors)
    if len(errors) > n_before:
        return None
    assert number is not None and day is not None and home is not None and away is not None and status
    return Match(
        round=number,
        home=home.id,
        away=away.id,
        date=day,
        status=status,
        boards=tuple(b for b in parsed if b is not None),
        cycle=_cycle(number, division),
    )


def _cycle(number: int, division: DivisionInput | None) -> int:
    """Round 8 of 14 in a double round robin is in the second cycle."""
    if division is None or division.cycles == 1:
        return 1
    return min(division.cycles, 1 + (number - 1) * division.cycles // division.rounds)


def _board_clashes(parsed: list[Board | None], f: str, errors: list[str]) -> None:
    numbers: dict[int, int] = {}
    seats: dict[str, int] = {}
    for k, board in enumerate(parsed):
        if board is None:
            continue
        if board.number in numbers:
            errors.append(
                f"{f}.boards[{k}].board: board {board.number} again (also boards[{numbers[board.number]}])"
            )
        numbers.setdefault(board.number, k)
        for side, pid in (("home", board.home), ("away", board.away)):
            if pid is None:
                continue
            if pid in seats:
                errors.append(
                    f"{f}.boards[{k}].{side}: player {_describe(pid)} plays twice (also boards[{seats[pid]}])"
                )
            seats.setdefault(pid, k)


def _players(
    data: dict[str, Any], ids: set[str], errors: list[str]
) -> tuple[list[PlayerInput], dict[str, str]]:
    players: list[PlayerInput] = []
    names: dict[str, str] = {}
    for i, raw in enumerate(_list(data, "players", errors)):
        player = _parse_player(raw, f"players[{i}]", ids, errors)
        if player is not None:
            players.append(player)
            if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                names[player.id] = raw["name"]
    return players, names


def _teams(data: dict[str, Any], ids: set[str], errors: list[str]) -> dict[str, TeamInput]:
    teams: dict[str, TeamInput] = {}
    placed: dict[str, str] = {}
    for i, raw in enumerate(_list(data, "teams", errors)):
        team = _team(raw, f"teams[{i}]", ids, placed, errors)
        if team is not None and team.id in teams:
            errors.append(f"teams[{i}].id: duplicate id {_describe(team.id)}")
        elif team is not None:
            teams[team.id] = team
    return teams


def _matches(
    data: dict[str, Any],
    division: DivisionInput | None,
    teams: dict[str, TeamInput],
    ids: set[str],
    errors: list[str],
) -> list[Match]:
    matches: list[Match] = []
    playing: dict[tuple[int, str], int] = {}  # (round, team) → the first match index it plays in
    for i, raw in enumerate(_list(data, "matches", errors)):
        match = _match(raw, f"matches[{i}]", division, teams, ids, errors)
        if match is None:
            continue
        matches.append(match)
        for side, tid in (("home", match.home), ("away", match.away or "")):
            if (match.round, tid) in playing:
                errors.append(
                    f"matches[{i}].{side}: team {_describe(tid)} plays twice in round {match.round} "
                    f"(also matches[{playing[match.round, tid]}])"
                )
            playing.setdefault((match.round, tid), i)
    return matches


def parse_league(data: object) -> LeagueInput:
    """Validate decoded JSON and build the league input; raises ContractError with every problem."""
    errors: list[str] = []
    if not isinstance(data, dict):
        raise ContractError(
            ["input: must be a JSON object with season, division, players, teams and matches"]
        )
    _surrogate_errors(data, "", errors)
    if errors:
        raise ContractError(sorted(errors))
    season = _season(data.get("season"), errors)
    division = _division(data.get("division"), errors)
    ids: set[str] = set()
    players, names = _players(data, ids, errors)
    teams = _teams(data, ids, errors)
    matches = _matches(data, division, teams, ids, errors)
    if errors:
        raise ContractError(errors)
    assert season is not None and division is not None
    return LeagueInput(season, division, tuple(players), names, tuple(teams.values()), tuple(matches))


def parse_json_text(text: str) -> LeagueInput:
    """Decode and validate a JSON document; malformed JSON becomes a ContractError too."""
    try:
        data = loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise ContractError([f"input: malformed JSON: {exc}"]) from None
    return parse_league(data)
