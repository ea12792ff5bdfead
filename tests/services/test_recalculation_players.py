"""Issue 16: the per-player loading of the incremental replay reads a round of players in one query per kind
(PostgreSQL: the ids as one array parameter, ``recalculation.players.of_players``)."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import Evaluation
from ratings.services.recalculation.base import IN_CHUNK
from ratings.services.recalculation.load import load_members, load_start_values
from ratings.services.recalculation.players import of_players, player_chunks
from tests.builders import player, round_robin, save_tournament
from tests.factories import MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_start_values_and_members_of_a_round_in_two_queries():
    rated = player(dwz=1650, index=12)
    elo_only = player(fide_elo=1900)
    nobody = PlayerFactory()
    member = player(dwz=1400, index=3)
    MembershipFactory(player=member)
    MembershipFactory(player=member)  # two clubs: still one row
    MembershipFactory(player=nobody)
    pks = {rated.pk, elo_only.pk, nobody.pk, member.pk}

    with CaptureQueriesContext(connection) as queries:
        start_values, members = load_start_values(pks), load_members(pks)

    assert len(queries) == 2
    assert start_values == {
        rated.pk: (1650, 12, None),
        elo_only.pk: (None, None, 1900),
        member.pk: (1400, 3, None),
    }
    assert members == {member.pk, nobody.pk}
    assert start_values == {pk: v for pk, v in load_start_values().items() if pk in pks}
    assert members == load_members() & pks


def test_player_chunks_follow_the_database():
    pks = range(2 * IN_CHUNK + 1, 0, -1)
    parts = player_chunks(pks)
    assert sorted(pk for part in parts for pk in part) == sorted(pks)
    assert all(part == sorted(part) for part in parts)
    assert len(parts) == (3 if connection.vendor == "sqlite" else 1)


def test_of_players_selects_the_same_rows_as_an_in_list():
    rng = random.Random(9)
    group = [player(dwz=1450 + 30 * i, index=6) for i in range(5)]
    save_tournament(group, round_robin(group, rng), end=datetime.date(2024, 4, 1))
    wanted = {p.pk for p in group[:3]}
    rows = Evaluation.objects.order_by("player_id").values_list("player_id", "dwz_new")
    parts = of_players(rows, wanted)
    assert len(parts) == 1
    assert [row for part in parts for row in part] == list(rows.filter(player_id__in=wanted))
    assert [row for part in of_players(rows, set()) for row in part] == []
