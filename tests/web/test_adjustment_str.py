"""A start value's label must not share the msgid "Start" with the home page title ("Home" in English)."""

import pytest
from django.utils import translation

from ratings.enums import AdjustmentKind
from ratings.models import Player, RatingAdjustment

pytestmark = pytest.mark.django_db


def test_start_value_is_not_called_home_in_english():
    player = Player.objects.create(key="X-1", surname="Anton", first_name="Test", birth_year=1980)
    adjustment = RatingAdjustment(player=player, kind=AdjustmentKind.START, dwz=1600)
    with translation.override("de"):
        assert str(adjustment).endswith("(Start)")
    with translation.override("en"):
        assert translation.gettext("Start") == "Home"  # the msgid the label must not use
        assert "Home" not in str(adjustment)
