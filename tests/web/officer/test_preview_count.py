"""The preview's count of later tournaments is the report's: a correction in club A's tournament that reaches
club B's later tournaments through a shared player; and a save that changes no rating reaches none."""

import datetime
import re

import pytest
from django.urls import reverse

from ratings.models import Game, Tournament, TournamentEntry
from ratings.selectors.previews import later_tournaments
from ratings.services import tournament_save_results
from ratings.web.officer.views.tournaments import REPORT_SESSION_KEY
from tests.builders import club_player, grid_data

pytestmark = pytest.mark.django_db

LATER = re.compile(r"außerdem (\d+) spätere")


def _tournament(club, day, players, games):
    t = Tournament.objects.create(
        name=f"Turnier {day}",
        start_date=datetime.date(2024, 3, day),
        end_date=datetime.date(2024, 3, day),
        rounds=3,
        organiser_club=club,
    )
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    rows = [
        Game(round=r, board=1, white=w, black=b, result=res) for r, (w, b, res) in enumerate(games, start=1)
    ]
    tournament_save_results(tournament=t, entries=entries, games=rows, mode="rr" if day == 1 else "swiss")
    return t


@pytest.fixture
def chain(tree):
    a, b = tree["club_a"], tree["club_b"]
    a1, a2 = club_player(a, "Albrecht", 1700, number="21"), club_player(a, "Adler", 1600, number="22")
    b1, b2 = club_player(b, "Berger", 1650, number="31"), club_player(b, "Brandt", 1550, number="32")
    b3 = club_player(b, "Bauer", 1450, number="33")
    first = _tournament(a, 1, [a1, a2, b1], [(a1, a2, "1-0"), (a1, b1, "1-0"), (a2, b1, "1/2-1/2")])
    _tournament(b, 8, [b1, b2], [(b1, b2, "1-0")])
    _tournament(b, 15, [b2, b3], [(b2, b3, "1/2-1/2")])
    return first, [a1, a2, b1]


def _preview_later(client, t, data) -> int:
    html = client.post(reverse("ratings:tournament-preview", args=[t.pk]), data).content.decode()
    return int(LATER.search(html).group(1))


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ({(0, 1): "1", (0, 2): "0", (1, 2): "½"}, 2),  # Albrecht now loses to Berger: club B's both change
        ({(0, 1): "1", (0, 2): "1", (1, 2): "½"}, 0),  # saved as it is: no rating changes, nothing later
    ],
)
def test_preview_count_equals_report(client, users, chain, cells, expected):
    first, players = chain
    client.force_login(users["officer_a"])
    shown = _preview_later(client, first, grid_data(players, cells))
    client.post(reverse("ratings:tournament-grid", args=[first.pk]), grid_data(players, cells, save="1"))
    reported = [pk for pk, _name in client.session[REPORT_SESSION_KEY]["tournaments"] if pk != first.pk]
    assert shown == len(reported) == expected
    # The upper bound the page used to show counts both later tournaments either way.
    assert len(later_tournaments(tournament=first, player_ids=[p.pk for p in players])) == 2


def test_delete_page_count_equals_report(client, users, chain):
    first, _players = chain
    client.force_login(users["officer_a"])
    html = client.get(reverse("ratings:tournament-delete", args=[first.pk])).content.decode()
    shown = int(re.search(r"(\d+) spätere? Turnier", html).group(1))
    assert Tournament.objects.filter(pk=first.pk).exists()  # the page's dry run kept everything
    version = re.search(r'name="version" value="(\d+)"', html)
    client.post(
        reverse("ratings:tournament-delete", args=[first.pk]),
        {"version": version.group(1)} if version else {},
    )
    reported = client.session[REPORT_SESSION_KEY]["tournaments"]
    assert not Tournament.objects.filter(pk=first.pk).exists()
    assert shown == len(reported) == 2
