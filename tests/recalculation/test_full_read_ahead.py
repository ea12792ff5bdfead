"""The certified rows read ahead: outside a transaction a full recalculation reads the next window, its
stored digests included, on a second connection (PostgreSQL; ``bulk.read_ahead``). After changes behind the
services' back it writes what evaluating everything writes. Its own module: a committed history cannot
share the rolled-back module history of ``test_full_differential``."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db import connection, transaction

from ratings.models import Evaluation, EvaluationDigest, Game, Tournament
from ratings.recalculation import _full as full
from ratings.recalculation import ratings_verify, recalculate
from tests.builders import random_history, save_tournament
from tests.recalculation.stored_rows import derived, played_game


@pytest.mark.django_db(transaction=True)
def test_a_committed_history_read_ahead_reuses_what_a_full_evaluation_writes(
    monkeypatch, read_ahead_snapshots
):
    monkeypatch.setattr(full, "WINDOW", 20)
    _, plan = random_history(random.Random(5), n_tournaments=8)
    for end, members, games, name in sorted(plan, key=lambda x: x[0]):
        save_tournament(members, games, end=end, name=name)
    recalculate()  # every digest stored
    tids = list(Tournament.objects.order_by("end_date", "pk").values_list("pk", flat=True))
    Game.objects.filter(pk=played_game(tids[5]).pk).update(result="1/2-1/2")
    Evaluation.objects.filter(tournament_id=tids[6]).update(level=1)
    EvaluationDigest.objects.filter(tournament_id=tids[3]).update(digest="0" * 32)
    with transaction.atomic():  # in a transaction: nothing read ahead
        recalculate(reuse=False)
        evaluated = derived()
        transaction.set_rollback(True)
    report = recalculate()
    assert 0 < report.reused < report.evaluations
    assert derived() == evaluated
    assert ratings_verify() == []
    assert len(full.windows(datetime.date.min)) >= 3
    assert (read_ahead_snapshots[-1] is not None) == (connection.vendor == "postgresql")
