"""The JSON contract of ``manage.py dwz_evaluate`` (spec §13): parsing, validation, serialisation.

Pure: no Django, no I/O. ``parse_tournament`` collects every problem before it gives up, so a user fixes
a file in one go; each message names the field (``games[3].result: unknown result "2-0"``).
"""

from __future__ import annotations

import datetime
import json
import re
from typing import Any, TypeGuard

from .types import (
    RESULT_CODES,
    GameInput,
    PlayerInput,
    PlayerResult,
    RestpartieValue,
    Status,
    TournamentInput,
    TournamentResult,
)

RATING_MIN, RATING_MAX = 0, 3000
# Byes ({"white": id, "black": null, "result": code}): "+" spielfrei (1 point), "H" half-point bye,
# "F" full-point bye, "U" not paired (0), "Z" zero-point bye. Points and standings only, never the rating.
BYE_CODES = frozenset({"+", "H", "F", "U", "Z"})
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_SCORES = {0: 0, 0.5: 500, 1: 1000}


class ContractError(ValueError):
    """Bad input; ``messages`` holds one line per problem."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


class LongInteger:
    """A JSON integer longer than Python converts (4,300 digits): kept as a value that fails every check,
    so the message names its field."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def parse_int(text: str) -> int | LongInteger:
    """``parse_int`` hook for ``json.loads``."""
    try:
        return int(text)
    except ValueError:
        return LongInteger(len(text.lstrip("-")))


def loads(text: str) -> object:
    """``json.loads`` that keeps over-long integers as ``LongInteger``."""
    return json.loads(text, parse_int=parse_int)


def _is_int(value: object) -> TypeGuard[int | float]:
    # JSON true/false arrive as bool, a subclass of int; they are not numbers here. An integral float
    # such as 1500.0 is accepted, because JSON numbers are compared by value (spec §13).
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _describe(value: object) -> str:
    if isinstance(value, LongInteger):
        return f"an integer of {value.digits} digits"
    return (
        json.dumps(value)
        if isinstance(value, (str, int, float, bool)) or value is None
        else type(value).__name__
    )


def _date(value: object, field: str, errors: list[str]) -> datetime.date | None:
    if value is None:
        errors.append(f"{field}: missing")
        return None
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        errors.append(f"{field}: not a date in the form YYYY-MM-DD: {_describe(value)}")
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        errors.append(f"{field}: invalid date {_describe(value)}")
        return None


def _rating(
    obj: dict[str, Any], key: str, field: str, errors: list[str], required: bool = False
) -> int | None:
    value = obj.get(key)
    if value is None:
        if required:
            errors.append(f"{field}: missing")
        return None
    if not _is_int(value) or not RATING_MIN <= value <= RATING_MAX:
        errors.append(f"{field}: must be an integer in {RATING_MIN}-{RATING_MAX}, got {_describe(value)}")
        return None
    return int(value)


def _restpartien(value: object, field: str, errors: list[str]) -> tuple[RestpartieValue, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        errors.append(f"{field}: must be a list")
        return ()
    result = []
    for k, item in enumerate(value):
        f = f"{field}[{k}]"
        if not isinstance(item, dict):
            errors.append(f"{f}: must be an object")
            continue
        n_before = len(errors)
        rating = _rating(item, "opponent_rating", f"{f}.opponent_rating", errors, required=True)
        score = item.get("score")
        if isinstance(score, bool) or not isinstance(score, (int, float)) or score not in _SCORES:
            errors.append(f"{f}.score: must be 0, 0.5 or 1, got {_describe(score)}")
        end = _date(item.get("end_date"), f"{f}.end_date", errors)
        if len(errors) == n_before and rating is not None and end is not None and score is not None:
            result.append(RestpartieValue(opponent_rating=rating, score=_SCORES[score], end_date=end))
    return tuple(result)


def _text(value: object) -> str | None:
    # Names and the code are informational (spec §13); anything that is not a string is ignored.
    return value if isinstance(value, str) else None


def _not_unicode(text: str) -> bool:
    # JSON can spell a lone surrogate ("\ud800"); it is no character, so it cannot be printed or stored.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _surrogate_errors(value: object, field: str, errors: list[str]) -> None:
    """Name every string (key or value) in decoded JSON that is not valid Unicode text."""
    stack = [(value, field)]
    while stack:
        value, field = stack.pop()
        if isinstance(value, str):
            if _not_unicode(value):
                errors.append(f"{field}: not valid Unicode (a lone surrogate such as \\ud800)")
        elif isinstance(value, dict):
            for key, item in value.items():
                if _not_unicode(key):
                    errors.append(f"{field}: a key is not valid Unicode (a lone surrogate such as \\ud800)")
                else:
                    stack.append((item, f"{field}.{key}" if field else key))
        elif isinstance(value, list):
            stack.extend((item, f"{field}[{i}]") for i, item in enumerate(value))


def parse_tournament(data: object) -> TournamentInput:
    """Validate decoded JSON and build the engine input; raises ContractError with all problems."""
    errors: list[str] = []
    if not isinstance(data, dict):
        raise ContractError(["input: must be a JSON object with tournament, players and games"])
    _surrogate_errors(data, "", errors)
    if errors:
        raise ContractError(sorted(errors))
    end_date, code, name = _parse_head(data.get("tournament"), errors)
    ids: set[str] = set()  # every valid, unique player id (also of players rejected for other fields)
    players = [
        player
        for i, raw in enumerate(_list(data, "players", errors))
        if (player := _parse_player(raw, f"players[{i}]", ids, errors)) is not None
    ]
    games = [
        game
        for i, raw in enumerate(_list(data, "games", errors))
        if (game := _parse_game(raw, f"games[{i}]", ids, errors)) is not None
    ]
    if errors:
        raise ContractError(errors)
    assert end_date is not None
    return TournamentInput(
        end_date=end_date, players=tuple(players), games=tuple(games), code=code, name=name
    )


def _list(data: dict[str, Any], key: str, errors: list[str]) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        errors.append(f"{key}: missing" if value is None else f"{key}: must be a list")
        return []
    return value


def _parse_head(tournament: object, errors: list[str]) -> tuple[datetime.date | None, str | None, str | None]:
    if not isinstance(tournament, dict):
        errors.append(
            "tournament: missing or not an object" if tournament is None else "tournament: must be an object"
        )
        errors.append("tournament.end_date: missing")
        return None, None, None
    end_date = _date(tournament.get("end_date"), "tournament.end_date", errors)
    return end_date, _text(tournament.get("code")), _text(tournament.get("name"))


def _parse_player(raw: object, f: str, ids: set[str], errors: list[str]) -> PlayerInput | None:
    if not isinstance(raw, dict):
        errors.append(f"{f}: must be an object")
        return None
    pid = raw.get("id")
    if not isinstance(pid, str):
        errors.append(
            f"{f}.id: missing or not a string" if pid is None else f"{f}.id: not a string: {_describe(pid)}"
        )
        pid = None
    elif pid in ids:
        errors.append(f"{f}.id: duplicate id {_describe(pid)}")
        pid = None
    else:
        ids.add(pid)
    dwz = _rating(raw, "dwz", f"{f}.dwz", errors)
    fide = _rating(raw, "fide_elo", f"{f}.fide_elo", errors)
    index = raw.get("index")
    if index is not None and (not _is_int(index) or index < 0):
        errors.append(f"{f}.index: must be a non-negative integer, got {_describe(index)}")
        index = None
    birth_year = raw.get("birth_year")
    if birth_year is not None and not _is_int(birth_year):
        errors.append(f"{f}.birth_year: must be an integer, got {_describe(birth_year)}")
        birth_year = None
    rps = _restpartien(raw.get("restpartien"), f"{f}.restpartien", errors)
    member = raw.get("member")
    if member is not None and not isinstance(member, bool):
        errors.append(f"{f}.member: must be true or false, got {_describe(member)}")
    if pid is None:
        return None
    return PlayerInput(
        id=pid,
        birth_year=None if birth_year is None else int(birth_year),
        dwz=dwz,
        # The index belongs to a DWZ; without one it means nothing (spec §13).
        index=None if index is None or dwz is None else int(index),
        fide_elo=fide,
        # Restpartien only matter for players without any rating (spec §13).
        restpartien=rps if dwz is None and fide is None else (),
        member=member is not False,
    )


def _parse_game(raw: object, f: str, ids: set[str], errors: list[str]) -> GameInput | None:
    if not isinstance(raw, dict):
        errors.append(f"{f}: must be an object")
        return None
    n_before = len(errors)
    result = raw.get("result")
    is_bye = isinstance(result, str) and result in BYE_CODES  # a list or object is no code (nor hashable)
    if raw.get("black") is None and is_bye:
        # A bye: points for the standings, never for the rating (spec §3); the engine never sees it.
        white = raw.get("white")
        if not isinstance(white, str):
            errors.append(f"{f}.white: missing or not a string")
        elif white not in ids:
            errors.append(f"{f}.white: unknown player id {_describe(white)}")
        return None
    sides = []
    for side in ("white", "black"):
        pid = raw.get(side)
        if not isinstance(pid, str):
            errors.append(
                f"{f}.{side}: missing or not a string"
                if pid is None
                else f"{f}.{side}: not a string: {_describe(pid)}"
            )
        elif pid not in ids:
            errors.append(f"{f}.{side}: unknown player id {_describe(pid)}")
        sides.append(pid)
    white, black = sides
    if isinstance(white, str) and white == black:
        errors.append(f"{f}: player {_describe(white)} plays himself")
    if not isinstance(result, str) or result not in RESULT_CODES:
        errors.append(
            f"{f}.result: missing"
            if result is None
            else f"{f}.result: a bye ({_describe(result)}) has no black player (null)"
            if is_bye
            else f"{f}.result: unknown result {_describe(result)}"
        )
    if len(errors) == n_before:
        return GameInput(white=white, black=black, result=result)  # type: ignore[arg-type]
    return None


def parse_json_text(text: str) -> TournamentInput:
    """Decode and validate a JSON document; malformed JSON becomes a ContractError too."""
    try:
        data = loads(text)
    except json.JSONDecodeError as exc:
        raise ContractError([f"input: malformed JSON: {exc}"]) from None
    except RecursionError:
        raise ContractError(["input: malformed JSON: nested too deeply"]) from None
    except ValueError as exc:  # an integer of more than 4,300 digits (sys.get_int_max_str_digits)
        raise ContractError([f"input: malformed JSON: {exc}"]) from None
    return parse_tournament(data)


def _thousandths(value: int) -> int | float:
    # 4500 -> 4.5, 3663 -> 3.663: the shortest repr of the nearest double is the 3-decimal value.
    return value / 1000


def _score(value: int) -> int | float:
    return {0: 0, 500: 0.5, 1000: 1}[value]


def player_to_json(p: PlayerResult) -> dict[str, Any]:
    coefficient: int | float | None
    if p.coefficient is None:
        coefficient = None
    elif p.coefficient == p.coefficient.to_integral_value() and p.coefficient.as_tuple().exponent == 0:
        coefficient = int(p.coefficient)  # classic E
    else:
        coefficient = float(p.coefficient)  # WO2026 K, e.g. 25.7 or 80.0
    row = {
        "id": p.id,
        "status": p.status,
        "dwz_old": p.dwz_old,
        "index_old": p.index_old,
        "n": p.n,
        "points": _thousandths(p.points),
        "expected": None if p.expected is None else _thousandths(p.expected),
        "coefficient": coefficient,
        "level": p.level,
        "performance": p.performance,
        "dwz_new": p.dwz_new,
        "index_new": p.index_new,
        "restpartien": [
            {
                "opponent_rating": rp.opponent_rating,
                "score": _score(rp.score),
                "end_date": rp.end_date.isoformat(),
            }
            for rp in p.restpartien
        ],
    }
    if p.status == Status.NON_MEMBER:
        # The one rating shown for a non-member: the one his opponents met (WO 3.4.3), e.g. "(1554)".
        row["entry_rating"] = p.entry_rating
    return row


def result_to_json(result: TournamentResult) -> dict[str, Any]:
    """The output contract: players in input order, all keys always present."""
    return {"edition": result.edition, "players": [player_to_json(p) for p in result.players]}
