"""A club with a player who objected to publication (issue 30 §4), a youth player, their tournament and a
frozen list: the privacy tests of the pages, the API and the browser."""

import datetime

import pytest

from ratings.models import Player
from ratings.services.frozen_lists import frozen_list_create
from ratings.services.privacy import player_publication_set
from tests.builders import make_player, make_tournament, make_user
from tests.factories import ClubFactory

# Names found in no other text of the pages (no German word, no other fixture's name).
HIDDEN_SURNAME = "Verborgenhausen"
HIDDEN_FIRST_NAME = "Quirinalda"
YOUTH_BIRTH_YEAR = datetime.date.today().year - 13  # U14 this year
END = datetime.date(2025, 6, 1)


@pytest.fixture
def hidden_area():
    """(club, hidden player, youth, others, tournament, frozen list): the hidden player is the strongest of
    the club (rank 1), so the ranks of the others show he still counts."""
    club = ClubFactory(zps="C0601", name="SK Datenschutz")
    hidden = make_player(
        dwz=2100, index=30, club=club, surname=HIDDEN_SURNAME, first_name=HIDDEN_FIRST_NAME,
        member_number="1", birth_year=1977, fide_id=98765431, fide_elo=2150,
    )  # fmt: skip
    youth = make_player(
        dwz=1500, index=4, club=club, surname="Jugendlich", first_name="Jan", member_number="2",
        birth_year=YOUTH_BIRTH_YEAR,
    )  # fmt: skip
    others = [
        make_player(dwz=1900 - 100 * n, index=10, club=club, surname=f"Offen{n}", member_number=str(n + 3))
        for n in range(3)
    ]
    a, b, c = others
    tournament = make_tournament(
        [hidden, youth, *others],
        [(1, hidden, a, "1-0"), (1, youth, b, "1/2-1/2"), (2, a, hidden, "0-1"), (2, b, c, "1-0")],
        end=END,
        name="Sommeropen",
    )
    admin = make_user("admin-privacy", staff=True)
    frozen = frozen_list_create(
        user=admin, name="Rangliste Juli", stichtag=datetime.date(2025, 7, 1), club=club
    )
    player_publication_set(player=hidden, objection=True, user=admin, note="Antrag per Brief")
    hidden = Player.objects.get(pk=hidden.pk)
    return club, hidden, youth, others, tournament, frozen
