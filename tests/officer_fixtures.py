"""Fixtures of the officer, accounts and admin tests (imported by their ``conftest.py``): a small federation
tree, the five roles and a round robin of three.

Tree: DSB 000 → Württemberg C00 → Bezirk C05 (club A C0501) and Bezirk C06 (club B C0601).
Players A1600, B1500, C1400 (adults, index 10, members of club A) have start values only.
"""

import datetime

import pytest

from ratings.models import Club, Organisation, Tournament
from ratings.models.officer import TournamentEntryMode, TournamentMode
from tests.builders import club_player, make_user


@pytest.fixture
def tree(db):
    dsb = Organisation.objects.create(code="000", name="Deutscher Schachbund")
    lv = Organisation.objects.create(code="C00", name="Schachverband Württemberg", parent=dsb)
    bezirk_a = Organisation.objects.create(code="C05", name="Bezirk Stuttgart", parent=lv)
    bezirk_b = Organisation.objects.create(code="C06", name="Bezirk Ulm", parent=lv)
    club_a = Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=bezirk_a)
    club_b = Club.objects.create(zps="C0601", name="SF Ulm", organisation=bezirk_b)
    return {
        "dsb": dsb,
        "lv": lv,
        "bezirk_a": bezirk_a,
        "bezirk_b": bezirk_b,
        "club_a": club_a,
        "club_b": club_b,
    }


@pytest.fixture
def users(tree):
    return {
        "officer_a": make_user("officer_a", club=tree["club_a"]),
        "officer_lv": make_user("officer_lv", organisation=tree["lv"]),
        "officer_b": make_user("officer_b", club=tree["club_b"]),
        "admin": make_user("admin", staff=True),
        "member": make_user("member"),
    }


@pytest.fixture
def players(tree):
    club = tree["club_a"]
    return [
        club_player(club, "Anton", 1600, number="1"),
        club_player(club, "Berta", 1500, number="2"),
        club_player(club, "Carl", 1400, number="3"),
    ]


@pytest.fixture
def tournament(tree):
    t = Tournament.objects.create(
        name="Vereinsmeisterschaft",
        start_date=datetime.date(2024, 3, 1),
        end_date=datetime.date(2024, 3, 10),
        rounds=3,
        organiser_club=tree["club_a"],
    )
    TournamentEntryMode.objects.create(tournament=t, mode=TournamentMode.ROUND_ROBIN)
    return t


@pytest.fixture
def login(client):
    def do(user):
        client.force_login(user)
        return client

    return do
