"""Adjustments, player changes and merges leave a long chain to the background as a tournament save does:
the change itself at once, every later tournament it reaches in a ``RecalculationJob`` (issue 16)."""

import datetime
import random

import pytest

from ratings.enums import AdjustmentKind
from ratings.models import Player, RatingAdjustment, RecalculationJob, RecalculationJobStatus, TournamentEntry
from ratings.recalculation import ratings_verify, recalculate
from ratings.services import adjustment_delete, adjustment_save, player_save
from ratings.services.merge import players_merge
from tests.builders import player, random_history, round_robin, save_tournament, snapshot

pytestmark = pytest.mark.django_db


def _history(seed):
    _, plan = random_history(random.Random(seed), n_tournaments=8)
    plan.sort(key=lambda x: x[0])
    return [save_tournament(m, g, end=e, name=c)[0] for e, m, g, c in plan]


def _busiest(tournaments):
    """The player with the most tournaments, and the end date of his first one."""
    counts: dict[int, int] = {}
    for pk in TournamentEntry.objects.filter(tournament__in=tournaments).values_list("player_id", flat=True):
        counts[pk] = counts.get(pk, 0) + 1
    pk = max(counts, key=lambda k: (counts[k], -k))
    first = TournamentEntry.objects.filter(player_id=pk).order_by("tournament__end_date").first()
    return Player.objects.get(pk=pk), first.tournament.end_date


def _finish(callbacks):
    """The job is pending and the ratings stale until the commit enqueues it (the immediate backend runs
    it): then everything equals a full replay."""
    job = RecalculationJob.objects.get(status=RecalculationJobStatus.PENDING)
    assert ratings_verify() != []
    for callback in callbacks:
        callback()
    job.refresh_from_db()
    assert job.status == RecalculationJobStatus.DONE and job.total >= 1
    assert ratings_verify() == []
    done = snapshot()
    recalculate()
    assert snapshot() == done


def test_a_dated_correction_early_in_a_history_leaves_the_chain_to_a_job(
    settings, django_capture_on_commit_callbacks
):
    saved = _history(21)
    p, first = _busiest(saved)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    correction = RatingAdjustment(
        player=p, kind=AdjustmentKind.CORRECTION, date=first + datetime.timedelta(days=1), dwz=2400, index=30
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report = adjustment_save(adjustment=correction)
    assert report.tournaments == []  # nothing after the correction at once
    _finish(callbacks)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        adjustment_delete(adjustment=RatingAdjustment.objects.get(pk=correction.pk))
    _finish(callbacks)


def test_a_short_chain_after_a_correction_stays_in_the_request():
    saved = _history(22)
    p, first = _busiest(saved)
    adjustment_save(
        adjustment=RatingAdjustment(
            player=p,
            kind=AdjustmentKind.CORRECTION,
            date=first + datetime.timedelta(days=1),
            dwz=900,
            index=5,
        )
    )
    assert not RecalculationJob.objects.exists()
    assert ratings_verify() == []


def test_a_new_birth_year_leaves_the_replay_of_his_history_to_a_job(
    settings, django_capture_on_commit_callbacks
):
    saved = _history(23)
    p, _ = _busiest(saved)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    p.birth_year = 2014 if p.birth_year < 2000 else 1950  # another age class (WO 2026: another K)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report = player_save(player=p)
    # His history is replayed from his first tournament on: nothing before it to do at once.
    assert report is not None and report.tournaments == [] and report.unfinished == {p.pk}
    _finish(callbacks)


def test_a_merge_leaves_the_chain_to_a_job_and_its_dry_run_replays_everything(
    settings, django_capture_on_commit_callbacks
):
    saved = _history(24)
    keep, _ = _busiest(saved)
    drop = player(dwz=1650, index=12)
    last = saved[-1]
    late = [drop, *Player.objects.exclude(pk__in=[keep.pk, drop.pk]).exclude(dwz=None)[:3]]
    save_tournament(
        late,
        round_robin(late, random.Random(24)),
        end=last.end_date + datetime.timedelta(days=3),
        name="Nachzügler",
    )
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    preview = players_merge(keep=keep, drop=drop, dry_run=True)
    assert preview.dry_run and not RecalculationJob.objects.exists()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        players_merge(keep=keep, drop=drop)
    _finish(callbacks)


def test_two_changes_of_one_player_while_the_job_waits_both_reach_his_later_rows(
    settings, django_capture_on_commit_callbacks
):
    """Each stop leaves the player dirty at its own point: the second correction sets his DWZ absolutely,
    which would make him clean after it, but his rows after it are stale from the second stop on."""
    saved = _history(25)
    p, first = _busiest(saved)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        for days, dwz in ((1, 2400), (3, 900)):
            adjustment_save(
                adjustment=RatingAdjustment(
                    player=p,
                    kind=AdjustmentKind.CORRECTION,
                    date=first + datetime.timedelta(days=days),
                    dwz=dwz,
                    index=20,
                )
            )
    assert len(RecalculationJob.objects.get().resume) == 2
    _finish(callbacks)
