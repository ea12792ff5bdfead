"""Issue 16: the per-player loading of the incremental replay reads a round of players in one query per kind
(PostgreSQL: the ids as one array parameter, ``recalculation.players.of_players``)."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import Evaluation, Player
from ratings.recalculation import _load as load
from ratings.recalculation import _players as players
from ratings.recalculation._base import IN_CHUNK
from ratings.recalculation._load import load_members, load_start_values
from ratings.recalculation._players import of_players, player_chunks, select_of
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


COMPILE = players._compile


def _evaluations_since(since: datetime.date):
    return (
        Evaluation.objects.filter(end_date__gte=since)
        .order_by("player_id", "end_date")
        .values_list("player_id", "end_date", "dwz_new")
    )


def test_select_of_runs_one_compiled_statement_with_each_call_s_ids_and_dates(monkeypatch):
    rng = random.Random(4)
    group = [player(dwz=1500 + 25 * i, index=5) for i in range(6)]
    for month in (3, 6, 9):
        save_tournament(group, round_robin(group, rng), end=datetime.date(2024, month, 1))
    compiled = []
    monkeypatch.setattr(players, "_STATEMENTS", {})
    monkeypatch.setattr(players, "_compile", lambda *args: compiled.append(args) or COMPILE(*args))
    calls = [
        ({group[0].pk, group[3].pk}, datetime.date(2024, 5, 1)),
        ({p.pk for p in group[1:]}, datetime.date(2024, 1, 1)),
        ({group[5].pk}, datetime.date(2024, 9, 1)),
        (set(), datetime.date(2024, 1, 1)),
    ]
    for ids, since in calls:
        got = list(select_of("test", _evaluations_since, ids, "player_id", since))
        assert got == list(_evaluations_since(since).filter(player_id__in=ids))
    assert len(compiled) == (1 if connection.vendor == "postgresql" else 0)  # SQLite: the ORM each time


def test_select_of_refuses_a_query_that_drops_a_marker(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("statements are compiled once on PostgreSQL only")
    monkeypatch.setattr(players, "_STATEMENTS", {})
    converted = lambda since: _evaluations_since(datetime.date.fromisoformat(since.isoformat()))  # noqa: E731
    with pytest.raises(RuntimeError, match="lost its marker"):
        list(select_of("test", converted, {1}, "player_id", datetime.date(2024, 1, 1)))


def test_birth_years_by_id_until_many_then_the_whole_table_once(monkeypatch):
    monkeypatch.setattr(load, "BIRTH_YEARS_ALL_AFTER", 3)
    players = [PlayerFactory(birth_year=1950 + i) for i in range(5)]
    years = load.BirthYears()
    with CaptureQueriesContext(connection) as queries:
        years.read({players[0].pk})
    assert dict(years) == {players[0].pk: 1950} and len(queries) == 1  # by id: only the one asked for
    with CaptureQueriesContext(connection) as queries:
        years.read({players[1].pk, players[2].pk})  # three met: every player's now
        years.read({players[3].pk, players[4].pk})  # none read again
    assert len(queries) == 1
    assert {pk: years[pk] for pk in (p.pk for p in players)} == {p.pk: p.birth_year for p in players}
    assert dict(years) == dict(Player.objects.values_list("pk", "birth_year"))
