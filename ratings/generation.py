"""The generation of the public pages (issue 31): bumped in the same transaction as every write that changes
what a public page or API answer shows; the page cache (``dwzsite.page_cache``) puts it in every key and ETag.

- ``lock_ratings()`` bumps the ``RATINGS`` row right after taking the rating lock: the recalculation, the
  imports (DSB list, TRF, JSON), merges, adjustments, tournament saves and deletes, league match approvals
  and evaluations all hold that lock.
- Any other ``save()`` or ``delete()`` of a model of ``ratings`` or ``leagues`` (an officer's player or club
  edit, the admin, a league match report, a publication flag) bumps the ``OTHER`` row through the model
  signals (``connect_signals``) unless its transaction already bumped.
- A write that changes public pages through ``QuerySet.update()``/``bulk_*`` without the rating lock calls
  ``bump_generation()`` itself.

Each transaction bumps each row once (``_already``: a mark on the connection tied to the transaction).
"""

from __future__ import annotations

import contextlib
import datetime
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils import timezone

from ratings.models import PageGeneration

# Models whose writes never change a public page (the generation itself; the cache's own bookkeeping).
_QUIET_MODELS = {
    "pagegeneration",
    "recalculationjob",
    "auditevent",
    "tournamentdraft",
    "ratingstate",
    "complaint",  # no public page shows complaints: a report must not empty the cache
}
_APPS = {"ratings", "leagues"}


_ROWS = (PageGeneration.RATINGS, PageGeneration.OTHER)
_MARKS = "_page_generation_marks"


def _already(row: int) -> bool:
    """This transaction bumped ``row`` already, in a block still open around us.

    The mark holds the connection's list of on-commit callbacks, which Django replaces at every commit and
    rollback (of a savepoint too), and the savepoints open then: the bump counts while that list is current
    and those savepoints are still open (a subset of today's). A block released since (a test's transaction
    holds several services' blocks) does not count: a reader in the same transaction would otherwise see new
    rows under the old generation. Nothing is registered as a callback (tests count them)."""
    conn = transaction.get_connection()
    mark = getattr(conn, _MARKS, {}).get(row)
    if mark is None:
        return False
    hooks, savepoints = mark
    return hooks is conn.run_on_commit and savepoints <= set(conn.savepoint_ids)


def _mark(row: int) -> None:
    conn = transaction.get_connection()
    marks = getattr(conn, _MARKS, None)
    if marks is None:
        marks = {}
        setattr(conn, _MARKS, marks)
    marks[row] = (conn.run_on_commit, frozenset(conn.savepoint_ids))


def bump_generation(*, row: int = PageGeneration.OTHER) -> None:
    """Count one more generation of the public pages, in the caller's transaction (once per transaction)."""
    atomic = transaction.get_connection().in_atomic_block
    if atomic and (_already(row) or (row == PageGeneration.OTHER and _already(PageGeneration.RATINGS))):
        return
    now = timezone.now()
    if not PageGeneration.objects.filter(pk=row).update(value=F("value") + 1, changed_at=now):
        PageGeneration.objects.get_or_create(pk=row, defaults={"value": 1, "changed_at": now})
    if atomic:
        _mark(row)


def current_generation() -> tuple[str, datetime.datetime | None]:
    """``("12.5", changed_at)``: both counters and the time of the later change (a read, no lock)."""
    values: dict[int, int] = dict.fromkeys(_ROWS, 0)
    times: list[datetime.datetime] = []
    for pk, value, at in PageGeneration.objects.values_list("pk", "value", "changed_at"):
        values[pk] = value
        if at is not None:
            times.append(at)
    return ".".join(str(values[pk]) for pk in sorted(values)), max(times, default=None)


def _on_write(sender: type, **kwargs: Any) -> None:
    meta = sender._meta  # type: ignore[attr-defined]
    if meta.app_label in _APPS and meta.model_name not in _QUIET_MODELS and not kwargs.get("raw"):
        bump_generation()


def _after_migrate(**kwargs: Any) -> None:
    # A deploy runs ``migrate``: pages rendered by the old templates and code are not served again.
    with contextlib.suppress(DatabaseError):  # ``migrate ratings zero``: no table to count in
        bump_generation()


def connect_signals(sender: Any) -> None:
    """Every save or delete of a ``ratings`` or ``leagues`` model bumps, and every ``migrate``
    (``AppConfig.ready``)."""
    post_save.connect(_on_write, dispatch_uid="page-generation-save")
    post_delete.connect(_on_write, dispatch_uid="page-generation-delete")
    post_migrate.connect(_after_migrate, sender=sender, dispatch_uid="page-generation-migrate")
