import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from ratings.enums import FORFEIT_RESULTS, Edition, EvaluationStatus
from ratings.models import Club, Evaluation, Game, Organisation, Player, Tournament
from ratings.services import ratings_verify

pytestmark = pytest.mark.django_db


def test_seed_demo_builds_an_evaluated_federation_once():
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert "admin / demo-admin" in out.getvalue()
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
