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

Each transaction bumps each row once: a sentinel in the connection's on-commit callbacks says it did (Django
drops the callbacks of a rolled-back transaction or savepoint together with the bump; ``_already``).
"""

from __future__ import annotations

import contextlib
import datetime
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils import timezone

from ratings.models import PageGeneration

# Models whose writes never change a public page (the generation itself; the cache's own bookkeeping).
_QUIET_MODELS = {"pagegeneration", "recalculationjob", "auditevent", "tournamentdraft", "ratingstate"}
_APPS = {"ratings", "leagues"}


def _bumped_ratings() -> None:
    """Sentinel: this transaction bumped the ``RATINGS`` row (runs after commit, does nothing)."""


def _bumped_other() -> None:
    """Sentinel: this transaction bumped the ``OTHER`` row."""


_SENTINELS = {PageGeneration.RATINGS: _bumped_ratings, PageGeneration.OTHER: _bumped_other}


def _already(sentinel: Any) -> bool:
    """The sentinel was registered in a block that is still open around us (its savepoints a subset of the
    current ones): that bump commits or rolls back together with this write. A block released since (a test's
    transaction holds several services' blocks) does not count: a reader in the same transaction would
    otherwise see new rows under the old generation."""
    current = set(connection.savepoint_ids)
    return any(func is sentinel and sids <= current for sids, func, *_ in connection.run_on_commit)


def bump_generation(*, row: int = PageGeneration.OTHER) -> None:
    """Count one more generation of the public pages, in the caller's transaction (once per transaction)."""
    sentinel = _SENTINELS[row]
    atomic = connection.in_atomic_block
    if atomic and (_already(sentinel) or (row == PageGeneration.OTHER and _already(_bumped_ratings))):
        return
    now = timezone.now()
    if not PageGeneration.objects.filter(pk=row).update(value=F("value") + 1, changed_at=now):
        PageGeneration.objects.get_or_create(pk=row, defaults={"value": 1, "changed_at": now})
    if atomic:
        transaction.on_commit(sentinel)


def current_generation() -> tuple[str, datetime.datetime | None]:
    """``("12.5", changed_at)``: both counters and the time of the later change (a read, no lock)."""
    values: dict[int, int] = dict.fromkeys(_SENTINELS, 0)
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
