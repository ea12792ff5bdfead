"""The database filter of rating-setting evaluations agrees with the engine's rule."""

import datetime

import pytest

from ratings.dwz import Status, sets_rating
from ratings.models import Evaluation
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_setting_rating_matches_the_engine_rule():
    tournament = TournamentFactory()
    rows = []
    for status in Status:
        for n in (0, 1):
            rows.append(
                Evaluation.objects.create(
                    tournament=tournament,
                    player=PlayerFactory(),
                    end_date=datetime.date(2024, 1, 1),
                    edition="classic",
                    status=status,
                    n=n,
                    points=0,
                )
            )
    selected = set(Evaluation.objects.setting_rating().values_list("pk", flat=True))
    assert selected == {e.pk for e in rows if sets_rating(e.status, e.n)}
    assert {e.pk for e in rows if e.changes_rating} == selected
    assert len(selected) == 3  # first with and without games, rated with games
