"""Evaluation of tournaments (spec §8): ``evaluate`` for one, ``evaluate_many`` for independent ones at once.

``evaluate`` runs the lean pure-Python path of ``single.py`` (numpy's per-call overhead dominates a single
small or medium tournament); ``evaluate_many`` runs the vectorised fast path of ``fast.py``, which is also
where ``evaluate`` sends very large tournaments and anything the lean path does not take.
``reference_impl.evaluate_reference`` is the straightforward per-player implementation both are tested
against (tests/dwz/test_fast_path.py, tests/dwz/test_single_path.py) and fall back to.
"""

from __future__ import annotations

from .fast import evaluate_many
from .reference_impl import evaluate_reference
from .single import _Unsupported, evaluate_single
from .types import TournamentInput, TournamentResult

__all__ = ["evaluate", "evaluate_many", "evaluate_reference"]

# Above this many games the vectorised path is faster than the lean one (measured, bench/engine.py).
SINGLE_MAX_GAMES = 2400


def evaluate(tournament: TournamentInput) -> TournamentResult:
    """Evaluate one tournament under the edition of its end date (spec §8). Pure: no I/O, no Django."""
    if len(tournament.games) <= SINGLE_MAX_GAMES:
        try:
            return evaluate_single(tournament)
        except (_Unsupported, KeyError, TypeError, ValueError, AttributeError, OverflowError):
            pass
    return evaluate_many((tournament,))[0]
