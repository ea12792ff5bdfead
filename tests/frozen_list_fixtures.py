"""A club of four players with a tournament before and after 2025-08-01, and a player of another club: the
frozen lists' tests (services and pages)."""

import datetime

import pytest

from tests.builders import make_player, make_tournament
from tests.factories import ClubFactory

DAY = datetime.date(2025, 8, 1)


@pytest.fixture
def area():
    club = ClubFactory(zps="C0401", name="SK Frost")
    other = ClubFactory(zps="C0402", name="SC Anderswo")
    players = [
        make_player(dwz=1800 - 100 * n, index=10 + n, club=club, surname=f"Spieler{n}", member_number=str(n))
        for n in range(4)
    ]
    stranger = make_player(dwz=2000, index=5, club=other, surname="Fremd")
    a, b, c, d = players
    make_tournament(
        players, [(1, a, b, "1-0"), (1, c, d, "1/2-1/2")], end=datetime.date(2025, 6, 1), name="Juni"
    )
    make_tournament([a, c], [(1, c, a, "1-0")], end=datetime.date(2025, 9, 1), name="September")
    return club, other, players, stranger
