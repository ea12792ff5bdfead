"""Shared pieces of the recalculation: the report, constants, chunking, engine ids, order keys."""

from __future__ import annotations

import datetime
import functools
import gc
import hashlib
import os
import platform
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import ParamSpec, TypeVar, overload

from django.conf import settings

from ratings.dwz.replay import (
    OrderKey,
    PlayerState,
)

IN_CHUNK = 900  # stay below SQLite's bound-parameter limit
END_OF_TIME = datetime.date.max
THOUSAND = Decimal(1000)
EMPTY_STATE = PlayerState()


@dataclass(slots=True)
class RecalculationReport:
    tournaments: list[int] = field(default_factory=list)  # re-evaluated tournament ids, in evaluation order
    rating_changes: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)  # pk: (old, new)
    evaluations: int = 0  # player evaluations replayed: computed by the engine, or ``reused``
    reused: int = 0  # of those, taken from stored rows their digest certifies (a full replay)
    elapsed: float = 0.0
    # A replay stopped by ``until``: the players still dirty there (their later stored rows may be stale);
    # None if the replay cannot tell (it replayed every event, or was not stopped).
    unfinished: set[int] | None = None
    # Players who lost an event after ``until`` (``Changes.lost``), by its place: the replay that finishes the
    # chain must turn them dirty there, not earlier (an earlier event may give them their stored result).
    lost_after: dict[OrderKey, set[int]] = field(default_factory=dict)

    def merge(self, other: RecalculationReport) -> None:
        self.tournaments += [t for t in other.tournaments if t not in self.tournaments]
        for pk, (old, new) in other.rating_changes.items():
            first = self.rating_changes.get(pk, (old, new))[0]
            self.rating_changes[pk] = (first, new)
        self.evaluations += other.evaluations
        self.reused += other.reused
        self.elapsed += other.elapsed


_P = ParamSpec("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")


def without_cyclic_gc(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``function`` with Python's cyclic garbage collector paused.

    A full replay allocates millions of small acyclic objects (rows, pairings, states) that reference
    counting frees anyway; the cyclic collector would traverse the growing heap again and again, about 20 %
    of a full recalculation at 200k evaluations. Only ever re-enabled by the call that disabled it.
    """

    @functools.wraps(function)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return wrapper


_RATINGS = Path(__file__).resolve().parent.parent
# The code a stored digest certifies: the engine, the recalculation that reads and writes the rows, the
# bulk writer and the row model. Any change there (or another Python) evaluates everything once more.
_CERTIFIED_CODE = ("dwz/*.py", "recalculation/*.py", "bulk.py", "models/evaluation.py")


def _read_code_digest() -> bytes:
    # Keyed with the site's secret: whoever can write the database but does not know the secret cannot
    # store a digest that certifies rows he changed (the source is public).
    key = hashlib.blake2b(settings.SECRET_KEY.encode(), digest_size=32).digest()
    # The machine and the C library as well: the engine's tables come from libm's erf and exp.
    runs_on = f"{sys.version} {platform.machine()} {platform.libc_ver()}"
    h = hashlib.blake2b(runs_on.encode(), digest_size=16, key=key)
    try:
        for path in sorted(p for pattern in _CERTIFIED_CODE for p in _RATINGS.glob(pattern)):
            h.update(str(path.relative_to(_RATINGS)).encode())
            h.update(path.read_bytes())
    except OSError:
        return os.urandom(16)
    return h.digest()


# Read when the recalculation is imported, with the engine: the code this process runs. Read later, a
# process still running the old code after a deploy would certify its rows under the new code's digest.
_CODE_DIGEST = _read_code_digest()


def code_digest() -> bytes:
    """The Python version, machine, C library and the source of ``_CERTIFIED_CODE`` as this process
    imported it, hashed with ``SECRET_KEY`` as the key (``ratings.dwz.digest``); random where the source
    could not be read, so that no stored digest matches."""
    return _CODE_DIGEST


def chunks(values: Iterable[_T], size: int = IN_CHUNK) -> Iterator[list[_T]]:
    values = list(values)
    for i in range(0, len(values), size):
        yield values[i : i + size]


def engine_id(pk: int) -> str:
    return str(pk)


class EngineIds(dict[int, str]):
    """Player pk -> engine id (``str(pk)``), one shared string per player."""

    def __missing__(self, pk: int) -> str:
        self[pk] = name = str(pk)
        return name


def stored_order(end: datetime.date, suffix: str | None, tid: int) -> OrderKey:
    return (end, 1, 0, suffix, tid) if suffix else (end, 1, 1, "", tid)


@overload
def thousandths(value: Decimal) -> int: ...
@overload
def thousandths(value: None) -> None: ...
@overload
def thousandths(value: Decimal | None) -> int | None: ...
def thousandths(value: Decimal | None) -> int | None:
    return None if value is None else int(value * THOUSAND)


def earliest(*orders: OrderKey | None) -> OrderKey | None:
    present = [o for o in orders if o is not None]
    return min(present) if present else None
