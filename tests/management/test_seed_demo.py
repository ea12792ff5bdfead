import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction

from ratings.enums import FORFEIT_RESULTS, Edition, EvaluationStatus
from ratings.models import Club, Evaluation, Game, Organisation, Player, Tournament, TournamentEntry
from ratings.recalculation import ratings_verify, recalculate
from ratings.services import tournament_create, tournament_save_head
from tests.builders import snapshot

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """``seed_demo`` once for the module (about 2 s of CPU), in a transaction rolled back after it; each
    test's own changes roll back to the seeded state (its savepoint)."""
    with django_db_blocker.unblock(), transaction.atomic():
        out = io.StringIO()
        call_command("seed_demo", stdout=out)
        yield out.getvalue()
        transaction.set_rollback(True)


def test_seed_demo_builds_an_evaluated_federation_once(demo):
    assert "admin / demo-admin" in demo
    assert get_user_model().objects.filter(username="admin", is_superuser=True).exists()
    assert Organisation.objects.count() == 4
    assert Club.objects.count() == 6
    assert 140 <= Player.objects.count() <= 160
    assert 38 <= Tournament.objects.count() <= 42
    assert Evaluation.objects.filter(status=EvaluationStatus.FIRST).exists()
    assert set(Evaluation.objects.values_list("edition", flat=True)) == {Edition.CLASSIC, Edition.WO2026}
    assert Game.objects.filter(result__in=FORFEIT_RESULTS).exists()
    assert Game.objects.filter(black__isnull=True).exists()
    assert Player.objects.filter(dwz__lt=1300).exists()
    assert Player.objects.filter(birth_year__gte=2010).exists()
    assert ratings_verify() == []
    before = Tournament.objects.count()
    call_command("seed_demo", stdout=io.StringIO())  # idempotent
    assert Tournament.objects.count() == before


def _positions(tournament):
    return set(Evaluation.objects.filter(tournament=tournament).values_list("end_date", "code_suffix"))


def test_demo_open_moved_earlier_then_a_tournament_in_between_keeps_every_rating(demo):
    # A corrected end date moves a tournament in the order (see test_end_date_moves.py): the reproduction
    # on the demo data, through the service the officer pages call.
    open_ = Tournament.objects.get(name__startswith="Neujahrs-Open 2026")
    assert open_.end_date == D(2026, 1, 6)
    assert open_.evaluations.count() == 36
    rated = Player.objects.filter(dwz__isnull=False).count()
    assert rated == 149

    open_.end_date = D(2026, 1, 3)
    tournament_save_head(tournament=open_)
    assert _positions(open_) == {(D(2026, 1, 3), open_.code[-3:])}
    assert ratings_verify() == []

    first, second = [e.player for e in open_.entries.order_by("start_rank")[:2]]
    two = Tournament(name="Zwei Spieler", start_date=D(2026, 1, 5), end_date=D(2026, 1, 5))
    tournament_create(
        tournament=two,
        entries=[TournamentEntry(player=first, start_rank=1), TournamentEntry(player=second, start_rank=2)],
        games=[Game(round=1, white=first, black=second, result="1-0")],
    )
    assert open_.evaluations.count() == 36
    assert two.evaluations.count() == 2
    assert Player.objects.filter(dwz__isnull=False).count() == rated
    assert ratings_verify() == []
    incremental = snapshot()
    recalculate()
    assert snapshot() == incremental


def test_seeded_tournaments_record_their_real_type(demo):
    """Issue 32: a seeded Swiss tournament's "angelegt" entry said round robin, so the first save through
    the Swiss entry showed a phantom change "Rundenturnier → Schweizer System"."""
    from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
    from ratings.models.officer import TournamentEntryMode, TournamentMode

    modes = dict(TournamentEntryMode.objects.values_list("tournament_id", "mode"))
    created = {
        e.object_id: e.snapshot["mode"]
        for e in AuditEvent.objects.filter(action=AuditAction.CREATE, object_type=AuditObjectType.TOURNAMENT)
    }
    opens = list(Tournament.objects.filter(name__contains="-Open "))
    championships = list(Tournament.objects.filter(name__startswith="Vereinsmeisterschaft"))
    assert opens and championships
    assert {modes[t.pk] for t in opens} == {created[t.pk] for t in opens} == {TournamentMode.SWISS}
    assert {modes[t.pk] for t in championships} == {TournamentMode.ROUND_ROBIN}
    assert {created[t.pk] for t in championships} == {TournamentMode.ROUND_ROBIN}
