"""Chronological recalculation (spec §9): the only code that writes evaluations, Restpartien and the derived
``Player.dwz`` / ``index`` / ``last_evaluated``.

Shape: take the lock, load everything from the changed point onward in a few queries, replay in memory
(``ratings.dwz.replay``), delete and bulk-insert the rows of the tournaments whose results changed, update
the players. Callers run inside ``transaction.atomic()`` (``recalculate`` opens one itself as well).

Modules: ``lock`` (the rating lock), ``load`` (events, stored results, states before the changed point),
``changes`` (the replay of one ``Changes`` value), ``reach`` (what a save or delete will re-evaluate: the
replay's reach alone, no lock, nothing written; for the previews), ``estimate`` (whether a save leaves its
chain to the background), ``full`` (the replay from scratch, streamed in date windows), ``write`` (rows and
players), ``verify`` (compare with a replay from scratch), ``base`` (the report and shared helpers).
"""

from .base import END_OF_TIME, RecalculationReport, earliest
from .changes import Changes, recalculate, recalculate_changes
from .load import first_event_of, player_first_event, tournaments_of
from .lock import RatingLockTimeout, is_lock_timeout, lock_ratings
from .reach import reach_of_delete, reach_of_save
from .verify import ratings_verify
from .write import EVALUATION_FIELDS

__all__ = [
    "END_OF_TIME",
    "EVALUATION_FIELDS",
    "Changes",
    "RatingLockTimeout",
    "RecalculationReport",
    "earliest",
    "first_event_of",
    "is_lock_timeout",
    "lock_ratings",
    "player_first_event",
    "ratings_verify",
    "reach_of_delete",
    "reach_of_save",
    "recalculate",
    "recalculate_changes",
    "tournaments_of",
]
