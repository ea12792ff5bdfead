"""Chronological recalculation (spec §9): the only code that writes evaluations, Restpartien, the derived
``Player.dwz`` / ``index`` / ``last_evaluated`` and the rating spans (``RatingSpan``).

Shape: take the lock, load everything from the changed point onward in a few queries, replay in memory
(``ratings.dwz.replay``), delete and bulk-insert the rows of the tournaments whose results changed, update
the players. Callers run inside ``transaction.atomic()`` (``recalculate`` opens one itself as well).

The names below are the whole API; the modules are private (tests of the internals excepted):
``_lock`` (the rating lock), ``_load`` (events, stored results, states before the changed point),
``_changes`` (the replay of one ``Changes`` value), ``_incremental`` (its frontier), ``_reach`` (what a
save or delete will re-evaluate: the replay's reach alone, no lock, nothing written; for the previews),
``_estimate`` (whether a save leaves its chain to the background), ``_full`` (the replay from scratch,
streamed in date windows), ``_write`` (rows and players), ``_players`` (per-player reads),
``_spans`` (each player's rating spans, the lists' values at a day), ``_verify`` (compare with a replay
from scratch), ``_base`` (the report and shared helpers).
"""

from ._base import END_OF_TIME, RecalculationReport, earliest
from ._changes import Changes, recalculate, recalculate_changes, recalculate_start_values
from ._estimate import background_estimate, recalculation_estimate
from ._load import first_event_of, player_first_event, tournaments_of
from ._lock import RatingLockTimeout, is_lock_timeout, lock_ratings
from ._reach import Reach, reach_of_delete, reach_of_save, span_of, stored_since
from ._spans import add_new as add_new_spans
from ._spans import connect_signals as connect_span_signals
from ._spans import differences as span_differences
from ._spans import rebuild as rebuild_spans
from ._verify import ratings_verify

__all__ = [
    "END_OF_TIME",
    "Changes",
    "RatingLockTimeout",
    "Reach",
    "RecalculationReport",
    "add_new_spans",
    "background_estimate",
    "connect_span_signals",
    "earliest",
    "first_event_of",
    "is_lock_timeout",
    "lock_ratings",
    "player_first_event",
    "ratings_verify",
    "reach_of_delete",
    "reach_of_save",
    "rebuild_spans",
    "recalculate",
    "recalculate_changes",
    "recalculate_start_values",
    "recalculation_estimate",
    "span_differences",
    "span_of",
    "stored_since",
    "tournaments_of",
]
