"""Digests that certify a tournament's stored results: ``InputDigest(code, input).of(edition, rows)``.

The engine is a function: the same ``TournamentInput`` gives the same ``TournamentResult`` under the same
code. A full recalculation that has just evaluated a tournament (or found its stored rows equal to the
result) can therefore store a digest of the code, the input and the result rows; a later recalculation
that builds the same input, reads the same rows and computes the same digest knows the rows are what the
engine would give, without evaluating again. A digest certifies itself: whoever wrote it, it matches only
if the rows now stored are exactly the rows once computed from exactly this input by exactly this code, so
a stale, copied or missing digest costs an evaluation, never a wrong number.

The canonical form is ``marshal`` format 2 (no object references: equal values give equal bytes whatever
their identity) of plain ints, strings, booleans and None; dates become ordinals and a coefficient its
tenths, so that a value read back from the database (``Decimal("12")``) and the engine's
(``Decimal("12.0")``) agree whenever they are equal. Anything else (an unexpected type) raises
``ValueError``: no digest.
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Iterable
from decimal import Decimal
from operator import attrgetter
from typing import Any

from .types import RestpartieValue, TournamentInput

DIGEST_SIZE = 16  # bytes; 32 hex characters
_FORMAT = 2  # marshal's last format without references
_game = attrgetter("white", "black", "result")


class InputDigest:
    """The code and one tournament's input, hashed once; ``of(rows)`` completes it with result rows."""

    __slots__ = ("_hash",)

    def __init__(
        self,
        code: bytes,
        tournament: TournamentInput,
        context: list[bool] | None = None,
        games: list[tuple[Any, ...]] | None = None,
    ) -> None:
        """``context``: whatever else the caller's rows depend on, in the canonical form (the replay's
        membership test for each player, which decides whose Restpartien are kept). ``games``: the
        tournament's games in a canonical form of the caller's (rows of ints and strings, in order),
        hashed instead of ``tournament.games``; a caller must hash the games of every input it certifies
        the same way."""
        self._hash = hashlib.blake2b(code, digest_size=DIGEST_SIZE)
        self._hash.update(marshal.dumps((_input(tournament, games), context), _FORMAT))

    def of(self, edition: str | None, rows: Iterable[tuple[Any, ...]]) -> str:
        """The digest with the result: its edition and its rows in ``PlayerResult`` field order (the
        stored rows as ``recalculation.load`` reads them, or a result's players as tuples)."""
        complete = self._hash.copy()
        columns = _columns(rows, _ROW_RESTPARTIEN)
        if columns:
            columns[_ROW_COEFFICIENT] = tuple(map(_TENTHS.__getitem__, columns[_ROW_COEFFICIENT]))
        complete.update(marshal.dumps((edition, columns), _FORMAT))
        return complete.hexdigest()


# Values are hashed column by column: ``zip`` transposes the rows in C, and only the columns without a
# canonical form of their own (dates, Decimals, Restpartien) are converted, without a Python call per row
# for the usual empty Restpartien. A million rows of a full recalculation cost about a second less so.
_player = attrgetter("id", "birth_year", "dwz", "index", "fide_elo", "restpartien", "member")
_PLAYER_RESTPARTIEN = 5
_ROW_COEFFICIENT, _ROW_RESTPARTIEN = 7, 12


def _input(t: TournamentInput, games: list[tuple[Any, ...]] | None) -> tuple[Any, ...]:
    # The name is left out: it changes no number (a header-only edit evaluates nothing again).
    players = _columns(map(_player, t.players), _PLAYER_RESTPARTIEN)
    return (t.end_date.toordinal(), t.code, players, list(map(_game, t.games)) if games is None else games)


def _columns(rows: Iterable[tuple[Any, ...]], restpartien: int) -> list[tuple[Any, ...]]:
    """The rows' columns, the Restpartien column (at ``restpartien``) in canonical form: as it is while
    every entry is empty, else each entry None or a list of (rating, score, date ordinal)."""
    columns = list(zip(*rows, strict=True))
    if columns and any(columns[restpartien]):
        columns[restpartien] = tuple(map(_restpartien, columns[restpartien]))
    return columns


def _restpartien(values: tuple[RestpartieValue, ...]) -> list[tuple[int, int, int]] | None:
    if not values:
        return None
    return [(rp.opponent_rating, rp.score, rp.end_date.toordinal()) for rp in values]


class _Tenths(dict[Decimal | None, int | None]):
    """A coefficient's tenths; equal Decimals hash equal, so Decimal("12") and Decimal("12.0") share one
    entry. Looked up in C (``map(_TENTHS.__getitem__, ...)``); computed once per value."""

    def __missing__(self, value: Decimal) -> int:
        scaled = value.scaleb(1)
        if scaled != scaled.to_integral_value():
            raise ValueError(f"coefficient with more than one decimal: {value}")
        tenths = self[value] = int(scaled)
        return tenths


_TENTHS = _Tenths({None: None})  # no coefficient
