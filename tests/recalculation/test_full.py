"""A full recalculation reuses the stored rows their digest certifies (``recalculation.full.Certificates``):
nothing changed, nothing evaluated; anything changed behind its back, or other code, evaluated again."""

from __future__ import annotations

import random

import pytest
from django.db import transaction

import ratings.recalculation._changes as changes
import ratings.recalculation._full as full
from ratings.models import Evaluation, EvaluationDigest, Game, Membership, Restpartie, Tournament
from ratings.recalculation import ratings_verify, recalculate
from tests.builders import random_history, save_tournament, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def history(django_db_setup, django_db_blocker):
    """One random history, recalculated once (every tournament evaluated, its digest stored), shared by the
    tests of this module: each runs in a transaction rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        _, plan = random_history(random.Random(11), n_tournaments=12)
        for end, members, games, code in sorted(plan, key=lambda x: x[0]):
            save_tournament(members, games, end=end, name=code)
        first = recalculate()
        yield first
        transaction.set_rollback(True)


@pytest.fixture
def engine_calls(monkeypatch):
    calls: list[str] = []
    real = changes.evaluate

    def counting(t):
        calls.append(t.name)
        return real(t)

    monkeypatch.setattr(changes, "evaluate", counting)
    return calls


def test_the_first_recalculation_evaluates_everything_and_stores_a_digest_each(history):
    rated = Tournament.objects.filter(rated=True).count()
    assert history.reused == 0
    assert len(history.tournaments) == rated
    assert EvaluationDigest.objects.filter(tournament__rated=True).count() == rated


def test_nothing_changed_nothing_evaluated_nothing_written(history, engine_calls):
    before, pks = snapshot(), set(Evaluation.objects.values_list("pk", flat=True))
    digests = set(EvaluationDigest.objects.values_list("tournament_id", "digest"))
    report = recalculate()
    assert engine_calls == []
    assert report.reused == report.evaluations == history.evaluations
    assert report.tournaments == history.tournaments
    assert set(Evaluation.objects.values_list("pk", flat=True)) == pks
    assert set(EvaluationDigest.objects.values_list("tournament_id", "digest")) == digests
    assert snapshot() == before


def test_reuse_false_evaluates_everything_and_changes_nothing(history, engine_calls):
    before = snapshot()
    report = recalculate(reuse=False)
    assert report.reused == 0
    assert len(engine_calls) == len(history.tournaments)
    assert snapshot() == before


def _second_half(history):
    """A game of a tournament in the middle of the history, and the tournaments from there on."""
    middle = history.tournaments[len(history.tournaments) // 2]
    later = history.tournaments[history.tournaments.index(middle) :]
    return Game.objects.filter(tournament_id=middle, result="1-0").order_by("pk").first(), middle, later


def test_a_result_changed_behind_the_services_back_is_evaluated_with_what_it_reaches(history, engine_calls):
    game, middle, later = _second_half(history)
    Game.objects.filter(pk=game.pk).update(result="0-1")  # no recalculation: the stored rows are stale
    assert ratings_verify() != []
    report = recalculate()
    names = dict(Tournament.objects.values_list("pk", "name"))
    evaluated = [pk for pk in history.tournaments if names[pk] in engine_calls]
    assert evaluated[0] == middle  # nothing before it
    assert set(evaluated) <= set(later)
    assert report.reused == report.evaluations - Evaluation.objects.filter(tournament__in=evaluated).count()
    assert ratings_verify() == []
    # and the next one certifies the new rows
    engine_calls.clear()
    assert recalculate().reused == report.evaluations
    assert engine_calls == []


def test_a_digest_copied_from_another_tournament_certifies_nothing(history, engine_calls):
    first, second = history.tournaments[:2]
    copied = EvaluationDigest.objects.get(tournament_id=first).digest
    EvaluationDigest.objects.filter(tournament_id=second).update(digest=copied)
    recalculate()
    assert engine_calls == [Tournament.objects.get(pk=second).name]
    assert EvaluationDigest.objects.get(tournament_id=second).digest != copied  # certified again


def test_a_missing_digest_costs_one_evaluation(history, engine_calls):
    tid = history.tournaments[-1]
    EvaluationDigest.objects.filter(tournament_id=tid).delete()
    recalculate()
    assert engine_calls == [Tournament.objects.get(pk=tid).name]
    assert EvaluationDigest.objects.filter(tournament_id=tid).exists()


def test_other_code_evaluates_everything_once(history, engine_calls, monkeypatch):
    monkeypatch.setattr(full, "code_digest", lambda: b"the engine after an update")
    before = snapshot()
    report = recalculate()
    assert report.reused == 0 and len(engine_calls) == len(history.tournaments)
    assert snapshot() == before
    engine_calls.clear()
    assert recalculate().reused == history.evaluations
    assert engine_calls == []


def test_a_missing_row_is_evaluated_and_written_again(history, engine_calls):
    tid = history.tournaments[3]
    row = Evaluation.objects.filter(tournament_id=tid).order_by("pk").first()
    Evaluation.objects.filter(pk=row.pk).delete()
    recalculate()
    assert Tournament.objects.get(pk=tid).name in engine_calls
    assert Evaluation.objects.filter(tournament_id=tid, player_id=row.player_id).exists()
    assert ratings_verify() == []


def test_a_membership_ended_behind_its_back_drops_the_restpartien_it_kept(history, engine_calls):
    """Restpartien are kept for members only (``replay.normalise``): the rows depend on the membership
    too, which no input holds, so it is part of the digest."""
    rp = Restpartie.objects.order_by("pk").first()
    assert rp is not None  # the history hands out Restpartien to members
    Membership.objects.filter(player_id=rp.player_id).delete()  # no service: nothing recalculated
    assert ratings_verify() != []
    recalculate()
    assert Tournament.objects.get(pk=rp.tournament_id).name in engine_calls
    assert not Restpartie.objects.filter(player_id=rp.player_id).exists()
    assert ratings_verify() == []


def test_the_code_digest_is_the_code_this_process_imported(monkeypatch):
    """Read at start-up with the engine, never again: a process that still runs the old code after a
    deploy replaced the files must not certify its rows under the new code's digest."""
    from ratings.recalculation import _base as base

    at_import = base.code_digest()
    assert at_import == base._read_code_digest()  # the files have not changed since
    monkeypatch.setattr(base, "_read_code_digest", lambda: b"the files after a deploy")
    assert base.code_digest() == at_import


def test_the_code_digest_is_keyed_with_the_secret_key(settings):
    """The source is public: without the key, whoever can write the database could store a digest that
    certifies rows he changed."""
    from ratings.recalculation import _base as base

    settings.SECRET_KEY = "another site"
    assert base._read_code_digest() != base.code_digest()
