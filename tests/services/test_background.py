"""Long recalculations in the background (issue 16): the officer's own tournament at once, the chain after it
as a ``RecalculationJob`` run by the task worker (the immediate backend here; one real worker below)."""

import datetime
import random
import threading

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ratings.models import (
    Evaluation,
    Game,
    RecalculationJob,
    RecalculationJobStatus,
    Tournament,
    TournamentEntry,
)
from ratings.recalculation import (
    Changes,
    background_estimate,
    ratings_verify,
    recalculate,
    recalculation_estimate,
)
from ratings.services import tournament_delete
from ratings.services.background import ABANDONED, job_run, jobs_resume
from tests.builders import player, random_history, save_tournament, snapshot
from tests.conftest import examples

pytestmark = pytest.mark.django_db

FLIP = {"1-0": "0-1", "0-1": "1/2-1/2", "1/2-1/2": "1-0"}
DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def _history(seed, n_tournaments=10):
    rng = random.Random(seed)
    _, plan = random_history(rng, n_tournaments=n_tournaments)
    plan.sort(key=lambda x: x[0])
    return [(save_tournament(m, g, end=e, name=c)[0], m, g) for e, m, g, c in plan]


def _correct(saved, position):
    """Flip every result of the tournament at ``position``: a late correction reaching the later ones."""
    t, members, games = saved[position]
    flipped = [(w, b, FLIP[r]) for w, b, r in games]
    return save_tournament(members, flipped, end=t.end_date, tournament=t)


def _names_after(tournament):
    return set(Tournament.objects.filter(end_date__gt=tournament.end_date).values_list("name", flat=True))


def _rows(snap, names):
    return [row for row in snap["evaluations"] if row[0] in names]


def test_estimate_counts_entries_from_the_change_date(settings):
    saved = _history(3, n_tournaments=4)
    settings.RECALCULATION_SECONDS_PER_EVALUATION = 0.5
    settings.RECALCULATION_BACKGROUND_SECONDS = 1e9  # below the threshold: counted exactly
    first = saved[0][0].end_date
    entries, seconds = recalculation_estimate(since=first)
    assert entries == sum(len(m) for _, m, _ in saved)
    assert seconds == entries * 0.5
    assert recalculation_estimate(since=first.replace(year=first.year + 10)) == (0, 0.0)


def _four_of_four(start):
    """Four rated tournaments of four players each (six games), a week apart from ``start``."""
    players = [player(dwz=1500 + 10 * i, index=5) for i in range(16)]
    for week in range(4):
        group = players[4 * week : 4 * week + 4]
        games = [(a, b, "1-0") for i, a in enumerate(group) for b in group[i + 1 :]]
        save_tournament(group, games, end=start + datetime.timedelta(weeks=week))


def test_estimate_counts_only_up_to_the_background_threshold_and_extrapolates_beyond(
    settings, django_assert_max_num_queries
):
    """Issue 29: the count stops just past the threshold (all the save's choice needs; a full count of a
    million entries cost half a league report's save at 2 M); beyond, the entries per tournament of the
    ones counted times the tournaments."""
    start = datetime.date(2024, 1, 7)
    _four_of_four(start)
    settings.RECALCULATION_SECONDS_PER_EVALUATION = 1.0
    settings.RECALCULATION_BACKGROUND_SECONDS = 16  # 16 entries and less: at once
    with django_assert_max_num_queries(1):
        assert recalculation_estimate(since=start) == (16, 16.0)
    settings.RECALCULATION_BACKGROUND_SECONDS = 7  # 8 entries counted: two tournaments, two more like them
    with django_assert_max_num_queries(2):
        assert recalculation_estimate(since=start) == (16, 16.0)
    settings.RECALCULATION_BACKGROUND_SECONDS = 6  # 7 entries counted: two tournaments begun
    entries, seconds = recalculation_estimate(since=start)
    assert seconds > settings.RECALCULATION_BACKGROUND_SECONDS
    assert entries == 14  # 7 entries in 2 of 4 tournaments, rough (the second was counted in part)
    # ``instead``: the first tournament counted with 9 entries instead of its 4.
    first = Tournament.objects.get(end_date=start)
    settings.RECALCULATION_BACKGROUND_SECONDS = 100
    assert recalculation_estimate(since=start, instead=(first.pk, 9)) == (21, 21.0)
    settings.RECALCULATION_BACKGROUND_SECONDS = 7  # the other three extrapolated from two, then + 9
    assert recalculation_estimate(since=start, instead=(first.pk, 9)) == (21, 21.0)


def test_an_infinite_threshold_keeps_every_chain_in_the_request(settings, django_assert_max_num_queries):
    """``DWZ_BACKGROUND_SECONDS=inf`` (never to the background; the federation bench's whole chain in the
    request) is no OverflowError: the save counts nothing and runs the chain at once; an estimate asked
    for a preview counts every entry."""
    start = datetime.date(2024, 1, 7)
    _four_of_four(start)
    settings.RECALCULATION_SECONDS_PER_EVALUATION = 1e-4
    settings.RECALCULATION_BACKGROUND_SECONDS = float("inf")
    assert recalculation_estimate(since=start) == (16, pytest.approx(16e-4))
    with django_assert_max_num_queries(0):
        assert background_estimate(Changes(since=(start, "", 0), everything=True)) is None
    saved = _history(4)
    _correct(saved, 1)
    assert not RecalculationJob.objects.exists()
    assert ratings_verify() == []


def test_a_short_recalculation_runs_at_once_without_a_job():
    saved = _history(4)
    _correct(saved, 1)
    assert not RecalculationJob.objects.exists()
    assert ratings_verify() == []


def test_a_long_one_evaluates_the_own_tournament_and_leaves_the_chain_to_a_job(
    settings, django_capture_on_commit_callbacks
):
    saved = _history(11)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    before = snapshot()
    target = saved[1][0]
    later = _names_after(target)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _, report = _correct(saved, 1)
    assert report.tournaments == [target.pk]  # only the officer's own tournament at once
    job = RecalculationJob.objects.get()
    assert (job.status, job.since, job.tournament_id) == (
        RecalculationJobStatus.PENDING,
        target.end_date,
        target.pk,
    )
    assert job.estimate > 0
    assert _rows(snapshot(), later) == _rows(before, later)
    assert ratings_verify() != []  # the chain after it is not done yet

    for callback in callbacks:  # the commit enqueues the task; the immediate backend runs it now
        callback()
    job.refresh_from_db()
    assert job.status == RecalculationJobStatus.DONE
    assert 1 <= job.total == job.done <= len(later)  # what the correction reaches after it
    assert job.started_at is not None and job.finished_at >= job.started_at
    assert ratings_verify() == []
    done = snapshot()
    recalculate()
    assert snapshot() == done


def _late_insertion(saved, position):
    """A round robin of four players of the tournament at ``position``, ending ten days before it."""
    t, members, _ = saved[position]
    group = members[:4]
    games = [
        (w, b, ("1-0", "1/2-1/2")[(w.pk + b.pk) % 2]) for i, w in enumerate(group) for b in group[i + 1 :]
    ]
    return save_tournament(group, games, end=t.end_date - datetime.timedelta(days=10), name="Nachtrag")


def _delete(saved, position):
    return tournament_delete(tournament=Tournament.objects.get(name=saved[position][0].name))


CHANGES = {
    "correction": lambda saved, position: _correct(saved, position)[1],
    "late": lambda saved, position: _late_insertion(saved, position)[1],
    "delete": _delete,
}


@pytest.mark.parametrize("seed", range(examples(4)))
def test_the_job_replays_what_the_change_reaches_after_the_own_tournament(
    settings, django_capture_on_commit_callbacks, seed
):
    """Each kind of change at position ``seed % 4`` of the same history (building it is most of the cost),
    each rolled back before the next: every kind at every position in the default run."""
    saved = _history(100 + seed, n_tournaments=9)
    position = seed % 4
    for kind in sorted(CHANGES):
        outer = transaction.savepoint()
        settings.RECALCULATION_BACKGROUND_SECONDS = 1e9
        savepoint = transaction.savepoint()
        whole = CHANGES[kind](saved, position)  # the whole chain in the request
        at_once = snapshot()
        transaction.savepoint_rollback(savepoint)
        settings.RECALCULATION_BACKGROUND_SECONDS = 0
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            request = CHANGES[kind](saved, position)
        job = RecalculationJob.objects.get()
        assert job.resume is not None, kind
        for callback in callbacks:
            callback()
        job.refresh_from_db()
        assert job.status == RecalculationJobStatus.DONE, kind
        assert ratings_verify() == [], kind
        assert snapshot() == at_once, kind
        # The request and the job together re-evaluate exactly the whole chain's tournaments.
        assert len(request.tournaments) + job.done == len(whole.tournaments), kind
        transaction.savepoint_rollback(outer)


def test_a_tournament_never_evaluated_after_the_own_one_is_left_to_the_job(
    settings, django_capture_on_commit_callbacks
):
    saved = _history(61)
    _, members, games = saved[-1]
    end = max(t.end_date for t, _, _ in saved) + datetime.timedelta(days=30)
    # Stored without its evaluation (an import that stopped half-way): rows written directly.
    never = Tournament.objects.create(name="Nie ausgewertet", start_date=end, end_date=end)
    TournamentEntry.objects.bulk_create(
        TournamentEntry(tournament=never, player=p, start_rank=i) for i, p in enumerate(members, 1)
    )
    Game.objects.bulk_create(
        Game(tournament=never, round=i, white=w, black=b, result=r) for i, (w, b, r) in enumerate(games, 1)
    )
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _, report = _correct(saved, 1)
    assert never.pk not in report.tournaments
    for callback in callbacks:
        callback()
    assert Evaluation.objects.filter(tournament=never).exists()
    assert ratings_verify() == []


def _job_callbacks(callbacks):
    return [c for c in callbacks if c.__qualname__.startswith("job_schedule")]


def test_a_save_while_a_job_waits_moves_it_back_instead_of_adding_one(
    settings, django_capture_on_commit_callbacks
):
    saved = _history(23)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=False) as first:
        _correct(saved, 5)
    with django_capture_on_commit_callbacks(execute=False) as second:
        _correct(saved, 2)
        _correct(saved, 7)  # later than the job's start: the job replays it anyway
    # one task for the one job (beside each save's announcement of its rating changes, ratings.signals)
    first, second = _job_callbacks(first), _job_callbacks(second)
    assert len(first) == 1 and second == []
    job = RecalculationJob.objects.get()
    assert job.since == saved[2][0].end_date
    first[0]()
    job.refresh_from_db()
    assert job.status == RecalculationJobStatus.DONE
    assert ratings_verify() == []


def test_a_long_save_enqueues_a_job_left_running_again(settings, django_capture_on_commit_callbacks):
    saved = _history(13)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    left = RecalculationJob.objects.create(since=saved[4][0].end_date, status=RecalculationJobStatus.RUNNING)
    with django_capture_on_commit_callbacks(execute=True):
        _correct(saved, 2)  # its worker died: nobody else would pick it up
    left.refresh_from_db()
    assert (left.status, left.since) == (RecalculationJobStatus.DONE, saved[2][0].end_date)
    assert RecalculationJob.objects.count() == 1
    assert ratings_verify() == []


def test_deleting_a_tournament_goes_to_the_background_too(settings, django_capture_on_commit_callbacks):
    saved = _history(31)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    target = saved[0][0]
    with django_capture_on_commit_callbacks(execute=True):
        tournament_delete(tournament=target)
    job = RecalculationJob.objects.get()
    assert (job.status, job.since, job.tournament_id) == (RecalculationJobStatus.DONE, target.end_date, None)
    assert not Evaluation.objects.filter(tournament_id=target.pk).exists()
    assert ratings_verify() == []


def test_a_failing_job_is_marked_failed_and_a_new_save_starts_a_new_one(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    saved = _history(5)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=False):
        _correct(saved, 0)
    job = RecalculationJob.objects.get()

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr("ratings.services.background.recalculate_changes", broken)
    with pytest.raises(RuntimeError):
        job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == RecalculationJobStatus.FAILED
    assert "disk full" in job.error
    assert job_run(job_id=job.pk) is None  # a finished job is never run again
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        _correct(saved, 3)
    repair = RecalculationJob.objects.get(status=RecalculationJobStatus.DONE)
    assert repair.since == job.since  # the new job covers the failed one's range too
    assert ratings_verify() == []


# --- real workers, real transactions ---------------------------------------------------------------------


def _recalculation_tasks():
    """The recalculation's task rows (a save also queues ``following``'s notices task)."""
    return DBTaskResult.objects.filter(task_path="ratings.tasks.recalculation_task")


def _pending_job(settings, seed, position=1):
    """A save gone to the background whose task sits in the database queue (no worker yet)."""
    saved = _history(seed, n_tournaments=8)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    settings.TASKS = DB_TASKS
    _correct(saved, position)
    return RecalculationJob.objects.get()


@pytest.mark.django_db(transaction=True)
def test_the_database_worker_runs_the_job(settings):
    job = _pending_job(settings, 41)
    assert _recalculation_tasks().filter(status="READY").count() == 1
    assert ratings_verify() != []
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
    job.refresh_from_db()
    assert job.status == RecalculationJobStatus.DONE
    assert _recalculation_tasks().get().status == "SUCCESSFUL"
    assert ratings_verify() == []


@pytest.mark.django_db(transaction=True)
def test_a_job_whose_worker_died_is_resumed_and_finishes_clean(settings):
    job = _pending_job(settings, 43)
    # The worker claimed the task, marked the job running and died: its transaction rolled back.
    task = _recalculation_tasks().get()
    task.claim("dead-worker")
    RecalculationJob.objects.filter(pk=job.pk).update(status=RecalculationJobStatus.RUNNING, attempts=1)
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
    assert RecalculationJob.objects.get().status == RecalculationJobStatus.RUNNING  # nobody picks it up

    call_command("resume_recalculations", verbosity=0)  # on worker start (``make run``)
    task.refresh_from_db()
    assert (task.status, task.exception_class_path) == ("FAILED", ABANDONED)  # no longer "running" for ever
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
    job.refresh_from_db()
    assert (job.status, job.attempts) == (RecalculationJobStatus.DONE, 2)
    assert _recalculation_tasks().exclude(pk=task.pk).get().status == "SUCCESSFUL"
    assert ratings_verify() == []
    call_command("recalculate", verify=True, verbosity=0)  # exit 0: stored state = replay
    assert jobs_resume() == []


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="the test database is SQLite's shared-cache memory database: it refuses at once, never waits",
)
@pytest.mark.django_db(transaction=True)
def test_two_background_recalculations_are_serialised_by_the_rating_lock(settings):
    job = _pending_job(settings, 47)
    # A second job as a second worker would run it (the services keep one unfinished job; force two).
    other = RecalculationJob.objects.create(since=job.since - datetime.timedelta(days=30))
    errors = []

    def run(pk):
        try:
            job_run(job_id=pk)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(pk,)) for pk in (job.pk, other.pk)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    first, second = sorted(RecalculationJob.objects.all(), key=lambda j: j.started_at)
    assert first.status == second.status == RecalculationJobStatus.DONE
    assert first.finished_at <= second.started_at  # the lock: one after the other, never overlapping
    assert ratings_verify() == []


def test_resuming_fails_only_the_running_task_rows_of_the_resumed_jobs():
    job = RecalculationJob.objects.create(
        since=datetime.date(2024, 1, 1), status=RecalculationJobStatus.RUNNING
    )
    done = RecalculationJob.objects.create(
        since=datetime.date(2024, 1, 1), status=RecalculationJobStatus.DONE
    )

    def row(job_id, status, task_path="ratings.tasks.recalculation_task"):
        return DBTaskResult.objects.create(
            status=status,
            args_kwargs={"args": [job_id], "kwargs": {}},
            task_path=task_path,
            backend_name="default",
            run_after=timezone.now(),
        )

    dead, waiting = row(job.pk, "RUNNING"), row(job.pk, "READY")
    other_job, other_task = row(done.pk, "RUNNING"), row(job.pk, "RUNNING", "ratings.tasks.list_import_task")
    assert jobs_resume() == [job.pk]  # the immediate backend of the tests runs it at once
    statuses = {r.pk: (r.status, r.exception_class_path) for r in DBTaskResult.objects.all()}
    assert statuses[dead.pk] == ("FAILED", ABANDONED) and statuses[waiting.pk] == ("READY", "")
    assert statuses[other_job.pk][0] == statuses[other_task.pk][0] == "RUNNING"
    assert DBTaskResult.objects.get(pk=dead.pk).finished_at is not None
    job.refresh_from_db()
    assert job.status == RecalculationJobStatus.DONE


def test_a_long_save_that_leaves_nothing_after_it_schedules_no_job(
    settings, django_capture_on_commit_callbacks
):
    """Issue 29: the replay up to the saved tournament left no player with a later event still dirty, so
    there is no chain: no job (it would replay nothing), and the ratings are final at once."""
    saved = _history(31, n_tournaments=6)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0  # every save goes the background way
    last = max(saved, key=lambda s: (s[0].end_date, s[0].pk))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _correct(saved, saved.index(last))
    assert not RecalculationJob.objects.exists() and _job_callbacks(callbacks) == []
    assert ratings_verify() == []
    # A correction that reaches a later tournament still leaves the chain to a job.
    first = min(saved, key=lambda s: (s[0].end_date, s[0].pk))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _correct(saved, saved.index(first))
    assert RecalculationJob.objects.filter(status=RecalculationJobStatus.PENDING).count() == 1
    for callback in callbacks:
        callback()
    assert ratings_verify() == []
