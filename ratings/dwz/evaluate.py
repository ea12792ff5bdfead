"""Evaluation of tournaments (spec §8): ``evaluate`` for one, ``evaluate_many`` for independent ones at once.

Both run the vectorised fast path (``fast.py``); ``reference_impl.evaluate_reference`` is the straightforward
per-player implementation it is tested against (tests/dwz/test_fast_path.py) and falls back to.
"""

from __future__ import annotations

from .fast import evaluate_many
from .reference_impl import evaluate_reference
from .types import TournamentInput, TournamentResult

__all__ = ["evaluate", "evaluate_many", "evaluate_reference"]


def evaluate(tournament: TournamentInput) -> TournamentResult:
    """Evaluate one tournament under the edition of its end date (spec §8). Pure: no I/O, no Django."""
    return evaluate_many((tournament,))[0]
