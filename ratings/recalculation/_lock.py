"""The rating lock: every rating write takes it first, inside its transaction."""

from __future__ import annotations

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from ratings.generation import bump_generation
from ratings.models import PageGeneration, RatingState

ADVISORY_LOCK_KEY = 0x44575A  # "DWZ"


class RatingLockTimeout(Exception):
    """The rating lock was not free within ``settings.RATING_LOCK_TIMEOUT`` (a long import or recalculation
    holds it); nothing was written. Pages answer "Bitte gleich noch einmal" (``RatingLockBusyMiddleware``)."""


def is_lock_timeout(exc: BaseException) -> bool:
    """A lock wait that ran out: ours, PostgreSQL's ``lock_timeout`` (55P03) or SQLite's busy timeout."""
    if isinstance(exc, RatingLockTimeout):
        return True
    if not isinstance(exc, OperationalError):
        return False
    if getattr(exc.__cause__, "sqlstate", None) == "55P03":
        return True
    return "database is locked" in str(exc)


def lock_ratings() -> None:
    """Serialise all rating writes: one lock, taken first, inside the caller's transaction.

    Waits at most ``settings.RATING_LOCK_TIMEOUT`` seconds (on SQLite the IMMEDIATE transaction's busy
    timeout waits already when the caller's transaction begins), then raises ``RatingLockTimeout``.
    """
    held = transaction.get_connection()
    if not held.in_atomic_block:
        raise RuntimeError("lock_ratings() must run inside transaction.atomic()")
    if _still_held(held):
        return
    try:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # Every later lock of this transaction (row locks included) waits as long at most.
                cursor.execute(f"SET LOCAL lock_timeout = '{int(settings.RATING_LOCK_TIMEOUT)}s'")
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ADVISORY_LOCK_KEY])
        state = RatingState.objects.select_for_update().filter(pk=1).first()
        if state is None:
            RatingState.objects.get_or_create(pk=1)
        # What public pages show may change with this write: the page cache's generation, same transaction.
        bump_generation(row=PageGeneration.RATINGS)
    except OperationalError as exc:
        if is_lock_timeout(exc):
            raise RatingLockTimeout from exc
        raise
    # Remember the transaction (see ``_still_held``): a second take in it asks the database nothing.
    held.rating_lock_hooks = held.run_on_commit


def _still_held(held: BaseDatabaseWrapper) -> bool:
    """This transaction took the lock already and still holds it: the block that took it is neither rolled
    back nor ended. Django gives ``run_on_commit`` (the list of on-commit hooks) a new list object at every
    end of the outermost transaction (commit, rollback, close) and at every rollback to a savepoint, and
    nowhere else; the lock taken keeps a reference to the list it saw, so the same object means the same
    transaction, with nothing rolled back since (a savepoint released keeps its locks in the parent). A
    rollback to an unrelated savepoint only makes the next take ask the database again (safe, not wrong).
    Not inside a transaction begun by hand (autocommit off before the outermost block: its commit by hand
    keeps the list), where every take asks the database."""
    hooks = getattr(held, "rating_lock_hooks", None)
    return hooks is not None and hooks is held.run_on_commit and held.commit_on_exit
