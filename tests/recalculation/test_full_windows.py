"""The full recalculation and ``ratings_verify`` stream the history in date windows: the outcome is the same
however the history is cut, and a window never splits a day."""

import datetime
import itertools
import random
import threading

import pytest
from django.db import connection

from ratings.models import Evaluation, Player, Restpartie, Tournament
from ratings.recalculation import _full as full
from ratings.recalculation import ratings_verify, recalculate
from tests.builders import random_history, save_tournament, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def history():
    rng = random.Random(23)
    _, plan = random_history(rng, n_tournaments=14)
    for end, members, games, code in sorted(plan, key=lambda x: x[0]):
        save_tournament(members, games, end=end, name=code)
    return snapshot()


@pytest.mark.parametrize("size", [1, 9, 40])
def test_a_fresh_full_recalculation_in_small_windows_equals_one_window(history, monkeypatch, size):
    monkeypatch.setattr(full, "WINDOW", size)
    assert len(full.windows(datetime.date.min)) > 2
    Restpartie.objects.all().delete()
    Evaluation.objects.all().delete()
    Player.objects.update(dwz=None, index=None, last_evaluated=None)
    report = recalculate()
    assert snapshot() == history
    assert report.evaluations == Evaluation.objects.count()
    assert ratings_verify() == []
    again = recalculate()  # nothing to write: the stored rows stay as they are
    assert again.rating_changes == {}
    assert snapshot() == history


def test_verify_in_windows_reports_differences_in_every_window(history, monkeypatch):
    monkeypatch.setattr(full, "WINDOW", 9)
    first = Tournament.objects.order_by("end_date", "pk")[0]
    last = Tournament.objects.order_by("-end_date", "-pk")[0]
    Evaluation.objects.filter(tournament=first).update(level=9999)
    Evaluation.objects.filter(tournament=last).update(performance=1)
    problems = ratings_verify()
    assert any(f"tournament {first.pk}" in p and "level stored 9999" in p for p in problems)
    assert any(f"tournament {last.pk}" in p and "performance stored 1" in p for p in problems)


def test_windows_cover_every_day_once_and_never_split_a_day(history):
    days = sorted(set(Tournament.objects.values_list("end_date", flat=True)))
    bounds = full.windows(datetime.date.min, size=9)
    assert bounds[0][0] == datetime.date.min and bounds[-1][1] is None
    assert all(until == nxt for (_, until), (nxt, _) in itertools.pairwise(bounds))  # contiguous
    for day in days:
        assert sum(1 for first, until in bounds if first <= day and (until is None or day < until)) == 1
    assert full.windows(datetime.date.min, size=10**9) == [(datetime.date.min, None)]


@pytest.mark.django_db(transaction=True)
def test_a_committed_history_is_read_ahead_on_postgresql_with_the_same_outcome(
    history, monkeypatch, read_ahead_snapshots
):
    """With nothing written in its transaction yet, the full recalculation (and verify) read the next window
    on a second connection (PostgreSQL); the rows are the same as read one after the other."""
    monkeypatch.setattr(full, "WINDOW", 9)
    Restpartie.objects.all().delete()
    Evaluation.objects.all().delete()
    Player.objects.update(dwz=None, index=None, last_evaluated=None)
    recalculate()
    assert snapshot() == history
    assert ratings_verify() == []
    assert recalculate().rating_changes == {}
    assert snapshot() == history
    assert len(read_ahead_snapshots) == 3
    assert all((s is not None) == (connection.vendor == "postgresql") for s in read_ahead_snapshots)


@pytest.mark.django_db(transaction=True)
def test_a_failing_read_ahead_rolls_the_recalculation_back(history, monkeypatch):
    monkeypatch.setattr(full, "WINDOW", 9)
    load_stored = full.load_stored
    calls = itertools.count()

    def failing(*args, **kwargs):
        if next(calls) == 2:
            raise RuntimeError("reader failed")
        return load_stored(*args, **kwargs)

    monkeypatch.setattr(full, "load_stored", failing)
    Evaluation.objects.filter(tournament=Tournament.objects.order_by("end_date", "pk")[0]).update(level=1)
    changed = snapshot()
    with pytest.raises(RuntimeError, match="reader failed"):
        recalculate()
    assert snapshot() == changed
    assert not any(t.name == "read-ahead" for t in threading.enumerate())
