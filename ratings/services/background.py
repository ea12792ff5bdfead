"""Recalculations too long for a request: the officer's own tournament at once, the chain after it in the
background (django-tasks, ``ratings.tasks.recalculation_task``).

* ``recalculate_or_schedule``: the save services' choice. A save whose chain would take longer than
  ``settings.RECALCULATION_BACKGROUND_SECONDS`` (``recalculation_estimate``) is replayed only up to the
  saved tournament (``recalculate_changes(..., until=...)``); a ``RecalculationJob`` replays afterwards
  what the players still dirty there reach (``resume``), on the same incremental path.
* At most one job is unfinished: a save while one waits moves its ``since`` earlier (never later) and adds
  its own stopping point; the job reads the inputs when it runs. Everything before the job's ``since`` is
  consistent at any time; the rows from there on may be stale until it is done (pages say "Neuberechnung
  läuft").
* ``job_run``: the task body. It holds the rating lock for the whole replay (two jobs, or a job and a
  save, never overlap) and marks the job done in the replay's own transaction.
* ``jobs_resume``: after a worker died (status ``running``, the replay rolled back) enqueue the unfinished
  jobs again, and mark the dead worker's task rows failed; a duplicate run finds the job done under the lock
  and stops.
"""

from __future__ import annotations

import datetime
import time
import traceback
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from ratings.dwz.replay import OrderKey, day_start, tournament_order
from ratings.generation import bump_generation
from ratings.models import RecalculationJob, RecalculationJobStatus, Tournament
from ratings.models.recalculation import UNFINISHED
from ratings.recalculation import (
    Changes,
    RecalculationReport,
    background_estimate,
    is_lock_timeout,
    lock_ratings,
    recalculate_changes,
)

from . import audit
from .announce import announce_rating_changes

if TYPE_CHECKING:
    from ratings.services.audit import Actor


def recalculate_or_schedule(
    *, changes: Changes, until: OrderKey, tournament_id: int | None = None, user: Actor = None
) -> RecalculationReport:
    """Recalculate ``changes`` (the lock must be held) at once, or up to ``until`` and schedule the rest."""
    seconds = background_estimate(changes)
    if changes.since is None or seconds is None:
        return recalculate_changes(changes)
    since = changes.since[0]
    report = recalculate_changes(changes, until=until)
    later = _changed_after(until, changes.tournaments)
    if report.unfinished == set() and not report.lost_after and not later and not _unfinished_job():
        return report  # the replay up to ``until`` left nothing after it: a job would replay nothing
    resume = None if report.unfinished is None else [_resume_point(until, report.unfinished, later)]
    if resume is not None:  # each a point of its own: dirty there, not from ``until`` on
        resume += [_resume_point(place, pks) for place, pks in sorted(report.lost_after.items())]
    job_schedule(since=since, estimate=seconds, tournament_id=tournament_id, user=user, resume=resume)
    return report


def _unfinished_job() -> bool:
    return RecalculationJob.objects.filter(status__in=UNFINISHED).exists()


def _changed_after(until: OrderKey, tournaments: Collection[int]) -> list[int]:
    """The changed tournaments the stopped replay did not reach (a merge changes every tournament of the
    kept player; a save only its own, which lies at ``until``)."""
    rows = Tournament.objects.filter(pk__in=tournaments).values_list("pk", "end_date", "code")
    return sorted(pk for pk, end, code in rows if tournament_order(end, code or None, pk) > until)


def _resume_point(until: OrderKey, players: set[int], tournaments: Collection[int] = ()) -> dict[str, Any]:
    """A stopped replay as ``RecalculationJob.resume`` stores it (JSON): its dirty players and the changed
    tournaments after it."""
    point = {"after": [until[0].isoformat(), *until[1:]], "players": sorted(players)}
    if tournaments:
        point["tournaments"] = sorted(tournaments)
    return point


def _changed(resume: list[dict[str, Any]]) -> list[int]:
    """The changed tournaments of ``RecalculationJob.resume`` that still exist (one may be deleted since)."""
    ids = {pk for point in resume for pk in point.get("tournaments", ())}
    return list(Tournament.objects.filter(pk__in=ids).values_list("pk", flat=True)) if ids else []


def _unfinished(resume: list[dict[str, Any]]) -> list[tuple[OrderKey, list[int]]]:
    """``RecalculationJob.resume`` as ``Changes.unfinished``."""
    points = []
    for point in resume:
        day, *rest = point["after"]
        points.append((cast(OrderKey, (datetime.date.fromisoformat(day), *rest)), point["players"]))
    return points


def job_schedule(
    *,
    since: datetime.date,
    estimate: float = 0.0,
    tournament_id: int | None = None,
    user: Actor = None,
    resume: list[dict[str, Any]] | None = None,
) -> RecalculationJob:
    """The unfinished job, moved back to ``since`` if that is earlier and given the save's ``resume``
    points, or a new one enqueued on commit. ``resume`` None: the job replays every event from its
    ``since`` on. The lock must be held (every writer of the job holds it, so a job reads it once, under
    the lock)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("job_schedule() must run inside transaction.atomic() with the rating lock")
    job = RecalculationJob.objects.filter(status__in=UNFINISHED).order_by("pk").first()
    if job is not None:
        # Each save's stopping point stays a point of its own: its players are dirty from there on.
        merged = None if job.resume is None or resume is None else job.resume + resume
        if since < job.since or merged != job.resume:
            job.since = min(since, job.since)
            job.estimate = max(job.estimate, estimate)
            job.resume = merged
            job.save(update_fields=["since", "estimate", "resume"])
        if job.status == RecalculationJobStatus.RUNNING:
            # We hold the lock, so its worker is waiting for it or dead: enqueue it again (a duplicate
            # finds it done); a job a dead worker left behind heals with the next long save.
            running = job.pk
            transaction.on_commit(lambda: _job_enqueue(running))
        return job
    failures = _unrepaired_failures()
    if failures:  # what a failed job had still to do is not known: replay everything from there
        since, resume = min(since, *failures), None
    job = RecalculationJob.objects.create(
        since=since,
        resume=resume,
        estimate=estimate,
        tournament_id=tournament_id,
        created_by=audit.stored_user(user=user),
    )
    transaction.on_commit(lambda: _job_enqueue(job.pk))
    return job


def _unrepaired_failures() -> list[datetime.date]:
    """The start dates of failed jobs that no later finished job covered: a new job starts there too."""
    done = RecalculationJob.objects.filter(
        status=RecalculationJobStatus.DONE, pk__gt=OuterRef("pk"), since__lte=OuterRef("since")
    )
    failed = RecalculationJob.objects.filter(status=RecalculationJobStatus.FAILED).exclude(Exists(done))
    return list(failed.values_list("since", flat=True))


def _job_enqueue(job_id: int) -> None:
    from ratings.tasks import recalculation_task

    recalculation_task.enqueue(job_id)


class _Progress:
    """Writes ``done`` / ``total`` through a second connection, so the progress page sees them while the
    replay's transaction is open. PostgreSQL only: SQLite has one writer at a time (the page then shows
    the status and the estimate)."""

    def __init__(self, job_id: int) -> None:
        self.job_id, self.last, self.alias = job_id, 0.0, ""
        if connection.vendor == "postgresql":
            self.alias = f"recalculation-progress-{job_id}"
            connections[self.alias] = connections.create_connection(DEFAULT_DB_ALIAS)

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.alias or (done < total and now - self.last < 0.5):
            return
        self.last = now
        RecalculationJob.objects.using(self.alias).filter(pk=self.job_id).update(done=done, total=total)

    def close(self) -> None:
        if self.alias:
            connections[self.alias].close()
            del connections[self.alias]


def _locked(work: Callable[[], RecalculationJob | None]) -> RecalculationJob | None:
    """Run ``work`` in a transaction with the rating lock; a background job waits its turn (each wait is
    ``RATING_LOCK_TIMEOUT`` long, up to ``RECALCULATION_LOCK_ATTEMPTS`` of them)."""
    attempts = max(1, settings.RECALCULATION_LOCK_ATTEMPTS)
    for attempt in range(1, attempts + 1):
        locked = False
        try:
            with transaction.atomic():
                lock_ratings()
                locked = True
                return work()
        except Exception as exc:
            if locked or attempt == attempts or not is_lock_timeout(exc):
                raise
    raise AssertionError("unreachable")


def job_run(*, job_id: int) -> RecalculationJob | None:
    """Finish the chain (the task body): what the job's ``resume`` players reach, or every event from its
    ``since`` on. None if the job is unknown or no longer unfinished; re-raises after marking it failed."""
    if not RecalculationJob.objects.filter(pk=job_id, status__in=UNFINISHED).update(
        status=RecalculationJobStatus.RUNNING, attempts=F("attempts") + 1
    ):
        return None
    progress = _Progress(job_id)

    def work() -> RecalculationJob | None:
        job = RecalculationJob.objects.filter(pk=job_id).first()
        if job is None or job.status not in UNFINISHED:
            return job  # a duplicate run (see ``jobs_resume``): the other one finished it
        job.started_at = timezone.now()
        if job.resume is None:
            changes = Changes(since=day_start(job.since), everything=True, stale_after=True)
        else:  # only what the players left dirty reach
            since, resume = day_start(job.since), job.resume
            changes = Changes(since=since, unfinished=_unfinished(resume), tournaments=_changed(resume))
        report = recalculate_changes(changes, progress=progress)
        job.status = RecalculationJobStatus.DONE
        job.done = job.total = len(report.tournaments)
        job.finished_at = timezone.now()
        job.error = ""
        job.save(update_fields=["status", "done", "total", "started_at", "finished_at", "error"])
        cause = job.tournament
        announce_rating_changes(
            report=report,
            tournament_id=None if cause is None else cause.pk,
            tournament_name="" if cause is None else cause.name,
            tournament_code=None if cause is None else cause.code,
            chain=True,
        )
        return job

    try:
        return _locked(work)
    except Exception:
        RecalculationJob.objects.filter(pk=job_id).update(
            status=RecalculationJobStatus.FAILED,
            error=traceback.format_exc(limit=20)[-4000:],
            finished_at=timezone.now(),
        )
        bump_generation()  # the cards' "Neuberechnung läuft" notice goes (``ratings.generation``)
        raise
    finally:
        progress.close()


ABANDONED = "ratings.services.background.WorkerGone"  # exception_class_path of a dead worker's task row


def jobs_resume() -> list[int]:
    """Enqueue every unfinished job again (after a worker died; harmless if its worker still lives: the
    runs queue on the rating lock and the later one finds the job done). Returns their ids."""
    ids = list(
        RecalculationJob.objects.filter(status__in=UNFINISHED).order_by("pk").values_list("pk", flat=True)
    )
    _abandoned_tasks_fail(ids)
    for pk in ids:
        _job_enqueue(pk)
    return ids


def _abandoned_tasks_fail(job_ids: Collection[int]) -> int:
    """Mark the task rows of these jobs that still say ``RUNNING`` failed: django-tasks-db never notices a
    worker that was killed, so its row would say running for ever (the admin's task list, monitoring). A
    worker that does still run one writes its own outcome over this when it finishes."""
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from ratings.tasks import recalculation_task

    wanted = set(job_ids)
    running = DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, task_path=recalculation_task.module_path
    )
    stale = [row.pk for row in running.only("id", "args_kwargs") if _job_of(row.args_kwargs) in wanted]
    return DBTaskResult.objects.filter(pk__in=stale, status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.FAILED,
        finished_at=timezone.now(),
        exception_class_path=ABANDONED,
        traceback="The worker stopped while running this task; resume_recalculations enqueued the job again.",
    )


def _job_of(args_kwargs: dict[str, Any]) -> int | None:
    args = args_kwargs.get("args") or [args_kwargs.get("kwargs", {}).get("job_id")]
    return args[0] if isinstance(args[0], int) else None
