"""``seed_league_demo``: one season, two divisions on the four largest clubs (the Bezirksliga finished and
evaluated, the Kreisklasse half played), the demo logins; once only; ``ratings_verify`` clean."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from leagues.models import Division, DivisionPart, Match, Season
from ratings.enums import AdjustmentKind
from ratings.models import (
    Club,
    Evaluation,
    Membership,
    Organisation,
    Player,
    RatingAdjustment,
    TournamentDraft,
)
from ratings.recalculation import ratings_verify
from ratings.services import adjustment_save

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    org = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    for c in range(4):
        club = Club.objects.create(zps=f"C050{c + 1}", name=f"Verein {c + 1}", organisation=org)
        for k in range(10):
            p = Player.objects.create(
                key=f"{club.zps}-{k + 1}", surname=f"S{c}{k}", first_name="T", birth_year=1990
            )
            Membership.objects.create(player=p, club=club, member_number=str(k + 1))
            adjustment_save(
                adjustment=RatingAdjustment(
                    player=p, kind=AdjustmentKind.START, dwz=2000 - 30 * k - 7 * c, index=9
                )
            )


def test_seed_league_demo(clubs, capsys):
    call_command("seed_league_demo")
    assert "staffelleiter / demo-staffel" in capsys.readouterr().out
    season = Season.objects.get(name="2026/27")
    finished, half = Division.objects.filter(season=season).order_by("level")
    assert not Match.objects.filter(division=finished, approved_at__isnull=True).exists()
    part = DivisionPart.objects.get(division=finished)
    assert Evaluation.objects.filter(tournament=part.tournament).count() == 16
    assert Match.objects.filter(division=half, approved_at__isnull=False).count() == 2
    assert (
        Match.objects.filter(division=half, reported_at__isnull=False, approved_at__isnull=True).count() == 2
    )
    assert Match.objects.filter(division=half, status="scheduled").count() == 2
    assert TournamentDraft.objects.filter(tournament__league_part__division=half).exists()
    assert get_user_model().objects.get(username="mannschaftsfuehrer").check_password("demo-mf")
    assert ratings_verify() == []
    call_command("seed_league_demo")
    assert Season.objects.count() == 1
