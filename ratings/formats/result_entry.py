"""Result entry without the web: the result codes an officer types, the round-robin grid's cells and their
rounds, the Swiss boards' numbering, the paste boxes, and the entry mode inferred from stored games.

Pure Python. Players are plain ids (start-rank order); games are ``(white, black, result)`` with stored result
codes (``black`` None for a bye). Problems raise or return ``ResultEntryError`` with a code and its
parameters; the forms word them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Stored result codes (the values of ``ratings.enums.ResultCode``): pairings from White's point of view,
# then the byes, which have no black player.
WHITE_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"
WHITE_WINS_FORFEIT, BLACK_WINS_FORFEIT, DOUBLE_FORFEIT = "+-", "-+", "--"
BYE, HALF_POINT_BYE, FULL_POINT_BYE, UNPAIRED, ZERO_POINT_BYE = "+", "H", "F", "U", "Z"
PAIRING_CODES = frozenset(
    {WHITE_WINS, BLACK_WINS, DRAW, WHITE_WINS_FORFEIT, BLACK_WINS_FORFEIT, DOUBLE_FORFEIT}
)
BYE_CODES = frozenset({BYE, HALF_POINT_BYE, FULL_POINT_BYE, UNPAIRED, ZERO_POINT_BYE})

# Round robin cell, from the row player's point of view.
CELL_WIN, CELL_DRAW, CELL_LOSS = "1", "½", "0"
CELL_FORFEIT_WIN, CELL_FORFEIT_LOSS, CELL_DOUBLE_FORFEIT = "+", "-", "--"
CELL_ALIASES = {
    "1": CELL_WIN,
    "0": CELL_LOSS,
    "½": CELL_DRAW,
    "5": CELL_DRAW,
    "r": CELL_DRAW,
    "=": CELL_DRAW,
    "0.5": CELL_DRAW,
    "0,5": CELL_DRAW,
    ",5": CELL_DRAW,
    ".5": CELL_DRAW,
    "1/2": CELL_DRAW,
    "+": CELL_FORFEIT_WIN,
    "-": CELL_FORFEIT_LOSS,
    "--": CELL_DOUBLE_FORFEIT,
}
CELL_MIRROR = {
    CELL_WIN: CELL_LOSS,
    CELL_LOSS: CELL_WIN,
    CELL_DRAW: CELL_DRAW,
    CELL_FORFEIT_WIN: CELL_FORFEIT_LOSS,
    CELL_FORFEIT_LOSS: CELL_FORFEIT_WIN,
    CELL_DOUBLE_FORFEIT: CELL_DOUBLE_FORFEIT,
}
# The stored result when the row player has white.
CELL_TO_RESULT = {
    CELL_WIN: WHITE_WINS,
    CELL_LOSS: BLACK_WINS,
    CELL_DRAW: DRAW,
    CELL_FORFEIT_WIN: WHITE_WINS_FORFEIT,
    CELL_FORFEIT_LOSS: BLACK_WINS_FORFEIT,
    CELL_DOUBLE_FORFEIT: DOUBLE_FORFEIT,
}
RESULT_TO_CELL = {v: k for k, v in CELL_TO_RESULT.items()}

# Swiss board: the result from White's point of view; byes only without a black player ("+" depends on it).
BOARD_ALIASES = {
    "1": WHITE_WINS,
    "1-0": WHITE_WINS,
    "0": BLACK_WINS,
    "0-1": BLACK_WINS,
    "½": DRAW,
    "5": DRAW,
    "r": DRAW,
    "=": DRAW,
    "1/2": DRAW,
    "½-½": DRAW,
    "1/2-1/2": DRAW,
    "0.5": DRAW,
    "0,5": DRAW,
    "+-": WHITE_WINS_FORFEIT,
    "-+": BLACK_WINS_FORFEIT,
    "-": BLACK_WINS_FORFEIT,
    "--": DOUBLE_FORFEIT,
    "h": HALF_POINT_BYE,
    "f": FULL_POINT_BYE,
    "u": UNPAIRED,
    "z": ZERO_POINT_BYE,
}
BOARD_DISPLAY = {
    WHITE_WINS: "1-0",
    BLACK_WINS: "0-1",
    DRAW: "½-½",
    WHITE_WINS_FORFEIT: "+-",
    BLACK_WINS_FORFEIT: "-+",
    DOUBLE_FORFEIT: "--",
    BYE: "+",
    HALF_POINT_BYE: "H",
    FULL_POINT_BYE: "F",
    UNPAIRED: "U",
    ZERO_POINT_BYE: "Z",
}

Cell = tuple[int, int]  # (row player id, column player id)
StoredGame = tuple[int, int | None, str]  # (white id, black id or None, result code)


class ResultEntryError(ValueError):
    """``code``: "unknown_cell" (value), "unknown_board" (value), "bye_with_black", "game_without_black";
    in pasted blocks also "too_many_lines" (lines, n), "row_length" (row, got, n), "board_syntax" (row),
    "board_numbers" (row), "start_number" (row, n)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class GameSpec:
    """One unsaved game (or bye) as the officer entered it."""

    round: int
    white_id: int
    black_id: int | None
    result: str  # a stored result code
    board: int | None = None


def _normalise(raw: str) -> str:
    return raw.strip().replace(" ", "").replace("–", "-").replace("−", "-").lower()


def parse_cell(raw: str) -> str:
    """A round-robin cell as one of the CELL_ values ('' = not played)."""
    value = _normalise(raw)
    if not value:
        return ""
    if value not in CELL_ALIASES:
        raise ResultEntryError("unknown_cell", value=raw.strip())
    return CELL_ALIASES[value]


def parse_board_result(raw: str, *, has_black: bool) -> str:
    """A Swiss board result as a stored result code ('' = empty)."""
    value = _normalise(raw)
    if not value:
        return ""
    if value == "+":
        return WHITE_WINS_FORFEIT if has_black else BYE
    code = BOARD_ALIASES.get(value)
    if code is None:
        raise ResultEntryError("unknown_board", value=raw.strip())
    if has_black and code in BYE_CODES:
        raise ResultEntryError("bye_with_black")
    if not has_black and code in PAIRING_CODES:
        raise ResultEntryError("game_without_black")
    return code


# ---------------------------------------------------------------------------------------------------------
# Round robin grid


def mirror_clashes(players: Sequence[int], cells: Mapping[Cell, str]) -> list[tuple[int, int]]:
    """The pairs (a before b) whose two cells are both filled and disagree."""
    out = []
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            va, vb = cells.get((a, b)), cells.get((b, a))
            if va and vb and CELL_MIRROR[va] != vb:
                out.append((a, b))
    return out


def grid_games(
    players: Sequence[int],
    cells: Mapping[Cell, str],
    *,
    schedule: Mapping[tuple[int, int], tuple[int, bool]],
    existing: Mapping[tuple[int, int], int],
) -> list[GameSpec]:
    """The games of the grid: rounds and colours from the stored games (``existing``: (white, black) ->
    round) where possible, else from ``schedule`` (seat pair -> (round, first has white), the Berger table);
    a game that would clash with another in its round moves to the first free round."""
    pending: list[tuple[int, int, str, int, bool]] = []
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            va, vb = cells.get((a, b), ""), cells.get((b, a), "")
            cell = va or (CELL_MIRROR[vb] if vb else "")
            if not cell:
                continue
            rnd, a_white = schedule[(i, j)]
            stored = existing.get((a, b)) or existing.get((b, a))
            if stored is not None:
                rnd, a_white = stored, (a, b) in existing
            pending.append((a, b, cell, rnd, a_white))
    busy: dict[int, set[int]] = {}
    out: list[GameSpec] = []
    for a, b, cell, rnd, a_white in pending:
        while a in busy.get(rnd, set()) or b in busy.get(rnd, set()):
            rnd += 1
        busy.setdefault(rnd, set()).update({a, b})
        if a_white:
            out.append(GameSpec(rnd, a, b, CELL_TO_RESULT[cell]))
        else:
            out.append(GameSpec(rnd, b, a, CELL_TO_RESULT[CELL_MIRROR[cell]]))
    return sorted(out, key=lambda g: (g.round, g.white_id))


def grid_cells(games: Iterable[StoredGame]) -> dict[Cell, str]:
    """Both cells of every stored game the grid can show."""
    out: dict[Cell, str] = {}
    for white, black, result in games:
        cell = RESULT_TO_CELL.get(result)
        if cell is None or black is None:
            continue
        out[(white, black)] = cell
        out[(black, white)] = CELL_MIRROR[cell]
    return out


# ---------------------------------------------------------------------------------------------------------
# Swiss boards


def number_boards(games: Iterable[GameSpec]) -> list[GameSpec]:
    """``games`` by round with board numbers 1, 2, ... in each round, byes last."""
    boards: dict[int, int] = {}
    out = []
    for g in sorted(games, key=lambda g: (g.round, g.black_id is None)):
        boards[g.round] = boards.get(g.round, 0) + 1
        out.append(GameSpec(g.round, g.white_id, g.black_id, g.result, boards[g.round]))
    return out


# ---------------------------------------------------------------------------------------------------------
# Mode inference over stored games


def unrepresentable_count(games: Iterable[StoredGame]) -> int:
    """How many games the round-robin grid cannot show: byes, results without a cell and every repeat of a
    pair."""
    seen: set[frozenset[int | None]] = set()
    count = 0
    for white, black, result in games:
        pair = frozenset((white, black))
        if black is None or result not in RESULT_TO_CELL or pair in seen:
            count += 1
        seen.add(pair)
    return count


def is_round_robin(games: Sequence[StoredGame], *, seated: Iterable[int]) -> bool:
    """True for no games or a single complete round robin among the ``seated`` players and everybody in the
    games (each pair exactly once, no byes, only results the grid can show)."""
    if not games:
        return True
    if unrepresentable_count(games):
        return False
    pairs = {frozenset((w, b)) for w, b, _r in games}
    n = len(set(seated) | {w for w, _b, _r in games} | {b for _w, b, _r in games if b is not None})
    return len(pairs) == n * (n - 1) // 2


# ---------------------------------------------------------------------------------------------------------
# Paste boxes

_SPLIT = re.compile(r"[\t;| ]+")
_EMPTY_CELLS = {".", "_"}


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def parse_grid_block(text: str, players: Sequence[int]) -> tuple[dict[Cell, str], list[ResultEntryError]]:
    """A pasted crosstable: line k holds player k's row, the own cell as any placeholder (x, *) or left out;
    "." or "_" leaves a cell empty. Cells come back as typed (``parse_cell`` checks them later)."""
    values: dict[Cell, str] = {}
    errors: list[ResultEntryError] = []
    lines = _lines(text)
    n = len(players)
    if len(lines) > n:
        errors.append(ResultEntryError("too_many_lines", lines=len(lines), n=n))
    for r, line in enumerate(lines[:n]):
        cells = [c for c in _SPLIT.split(line.strip()) if c]
        if len(cells) == n - 1:
            cells.insert(r, "x")
        if len(cells) != n:
            errors.append(ResultEntryError("row_length", row=r + 1, got=len(cells), n=n))
            continue
        for c, value in enumerate(cells):
            if c != r:
                values[(players[r], players[c])] = "" if value in _EMPTY_CELLS else value
    return values, errors


@dataclass(frozen=True)
class PastedBoard:
    round: int
    white_id: int
    black_id: int | None
    result: str  # as typed


def parse_board_block(text: str, players: Sequence[int]) -> tuple[list[PastedBoard], list[ResultEntryError]]:
    """Pasted boards, one a line: ``round white-no black-no result`` with start numbers (1-based); a bye as
    ``round white-no result``."""
    rows: list[PastedBoard] = []
    errors: list[ResultEntryError] = []
    for k, line in enumerate(_lines(text), start=1):
        parts = [p for p in _SPLIT.split(line.strip()) if p]
        if len(parts) not in (3, 4):
            errors.append(ResultEntryError("board_syntax", row=k))
            continue
        try:
            numbers = [int(p) for p in parts[:-1]]
        except ValueError:
            errors.append(ResultEntryError("board_numbers", row=k))
            continue
        if any(not 1 <= no <= len(players) for no in numbers[1:]):
            errors.append(ResultEntryError("start_number", row=k, n=len(players)))
            continue
        black = players[numbers[2] - 1] if len(numbers) == 3 else None
        rows.append(PastedBoard(numbers[0], players[numbers[1] - 1], black, parts[-1]))
    return rows, errors
