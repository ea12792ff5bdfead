"""The admin's player and club changelists in German order (DIN 5007 variant 1, issue 32): by default for
players, and when the name column is clicked."""

import re

import pytest
from django.urls import reverse

from ratings.models import Player
from tests.factories import ClubFactory, OrganisationFactory

pytestmark = pytest.mark.django_db


def _column(html: str, css: str) -> list[str]:
    return re.findall(rf'<t[dh] class="field-{css}">(?:<a [^>]*>)?([^<]*)<', html)


def test_players_by_name(admin_client):
    for n, surname in enumerate(["Zander", "Schulze", "Schäfer", "Ärger", "abel"]):
        Player.objects.create(key=f"A{n}", surname=surname, first_name="Test")
    url = reverse("admin:ratings_player_changelist")
    expected = ["abel, Test", "Ärger, Test", "Schäfer, Test", "Schulze, Test", "Zander, Test"]
    assert _column(admin_client.get(url).content.decode(), "player_name") == expected
    assert _column(admin_client.get(url, {"o": "-2"}).content.decode(), "player_name") == expected[::-1]


def test_clubs_by_name_column(admin_client):
    org = OrganisationFactory(code="C05", name="Bezirk")
    for n, name in enumerate(["SK Zugspitze", "SC Öhringen", "Schachfreunde Ärger", "sc Ost"]):
        ClubFactory(zps=f"C05{10 + n}", name=name, organisation=org)
    html = admin_client.get(reverse("admin:ratings_club_changelist"), {"o": "2"}).content.decode()
    assert _column(html, "club_name") == ["SC Öhringen", "sc Ost", "Schachfreunde Ärger", "SK Zugspitze"]
