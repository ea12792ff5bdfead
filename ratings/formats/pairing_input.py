"""Boards typed by start number on the round screen: ``3 7 1`` or ``3-7 1`` (White no., Black no., result),
``3 7`` (pairing, result later), ``5 +`` or ``5 spielfrei`` (a bye), and whole rounds pasted one board a line.

Pure Python. The round's boards are plain dicts ``{"round", "board", "white", "black", "result"}`` holding
player pks (``black`` None for a bye, ``result`` "" while open), as the draft stores them. Problems raise
``PairingInputError`` with a code and its parameters; the page words them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_PAIRING = re.compile(r"^(\d{1,4})\s*(?:[-–:]|\s)\s*(\d{1,4})(?:\s+(\S.*))?$")
_BYE = re.compile(r"^(\d{1,4})\s+([^\d\s].*)$")
_BOARD_PREFIX = re.compile(r"^\s*(?:brett\s*)?\d{1,3}\s*[.:)]\s+", re.IGNORECASE)
# Words an officer types for "spielfrei" (the pairing program's bye, 1 point); H/F/U/Z stay as they are.
BYE_WORDS = {"spielfrei": "+", "frei": "+", "bye": "+", "sf": "+"}
BYE = "+"

Board = dict[str, Any]


class PairingInputError(ValueError):
    """``code``: "syntax" (line), "number" (no, n), "self" (no), "paired" (no, round, board)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class BoardLine:
    white: int  # start number
    black: int | None  # None: a bye
    result: str  # as typed ("" = not yet played)


def parse_board_line(text: str) -> BoardLine:
    line = " ".join(text.split())
    if m := _PAIRING.match(line):
        return BoardLine(int(m[1]), int(m[2]), (m[3] or "").strip())
    if m := _BYE.match(line):
        word = m[2].strip()
        return BoardLine(int(m[1]), None, BYE_WORDS.get(word.lower(), word))
    raise PairingInputError("syntax", line=text.strip())


def parse_round_block(text: str) -> tuple[list[tuple[int, BoardLine]], list[tuple[int, PairingInputError]]]:
    """A pasted round, one board a line, as (line number, board); leading board numbers ("1. 3 7 1",
    "Brett 1: 3-7 1") are skipped. The lines not understood come back with their error."""
    boards: list[tuple[int, BoardLine]] = []
    errors: list[tuple[int, PairingInputError]] = []
    for k, raw in enumerate(text.splitlines(), start=1):
        line = _BOARD_PREFIX.sub("", raw).strip()
        if not line:
            continue
        try:
            boards.append((k, parse_board_line(line)))
        except PairingInputError as exc:
            errors.append((k, exc))
    return boards, errors


def apply_board(
    games: Sequence[Board],
    *,
    round_no: int,
    white_no: int,
    black_no: int | None,
    result: str,
    participants: Sequence[int],
) -> list[Board]:
    """``games`` with a board added to round ``round_no`` (start numbers; ``result`` a stored code or "");
    for a pairing already there, only its result is set. A bye without a result is "spielfrei"."""
    n = len(participants)
    for no in [white_no] + ([black_no] if black_no is not None else []):
        if not 1 <= no <= n:
            raise PairingInputError("number", no=no, n=n)
    if black_no == white_no:
        raise PairingInputError("self", no=white_no)
    white = participants[white_no - 1]
    black = participants[black_no - 1] if black_no is not None else None
    if black is None and not result:
        result = BYE
    out = [dict(g) for g in games]
    in_round = [g for g in out if g["round"] == round_no]
    for g in in_round:
        if g["white"] == white and g["black"] == black:
            g["result"] = result
            return out
    start_no = {pk: i for i, pk in enumerate(participants, start=1)}
    for g in in_round:
        for pk in (white, black):
            if pk is not None and pk in (g["white"], g["black"]):
                raise PairingInputError("paired", no=start_no[pk], round=round_no, board=g["board"])
    board = max((int(g["board"]) for g in in_round), default=0) + 1
    out.append({"round": round_no, "board": board, "white": white, "black": black, "result": result})
    return out


def remove_board(games: Sequence[Board], *, round_no: int, board: int) -> list[Board]:
    """``games`` without that board; the round's later boards move up."""
    out = []
    for g in games:
        if g["round"] == round_no and g["board"] == board:
            continue
        g = dict(g)
        if g["round"] == round_no and g["board"] > board:
            g["board"] -= 1
        out.append(g)
    return out


def unpaired(games: Sequence[Board], *, round_no: int, participants: Sequence[int]) -> list[int]:
    """Start numbers of the participants without a board (or bye) in round ``round_no``."""
    seated = {pk for g in games if g["round"] == round_no for pk in (g["white"], g["black"]) if pk}
    return [i for i, pk in enumerate(participants, start=1) if pk not in seated]
