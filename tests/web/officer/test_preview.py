"""The live preview: engine on unsaved data, never writes.

Hand-derived (spec §4, classic, 2024, adults, index 10): A 1600, B 1500, C 1400; A beats B and C, B–C draw.
p(100) = .638, p(200) = .760. A: We 1.398, E0 = 1.6⁴ + 15 = 21.55 → E 22, Rn = 1600 + 800·0.602/24 = 1620.07
→ 1620. B: We 1.000, E 20, Rn = 1500 − 800·0.5/22 = 1481.82 → 1482. C: We 0.602, E 19,
Rn = 1400 − 800·0.102/21 = 1396.11 → 1396.
"""

import datetime

import pytest
from django.urls import reverse

from ratings.models import Evaluation, Game, Player, Tournament, TournamentEntry
from ratings.models.audit import AuditEvent
from ratings.services import tournament_create
from tests.builders import grid_data

pytestmark = pytest.mark.django_db

RESULTS = {(0, 1): "1", (0, 2): "1", (1, 2): "5"}


def counts():
    return (
        Game.objects.count(),
        TournamentEntry.objects.count(),
        Evaluation.objects.count(),
        AuditEvent.objects.count(),
        Player.objects.count(),
    )


def test_preview_shows_hand_derived_values(login, users, tournament, players):
    client = login(users["officer_a"])
    before = counts()
    response = client.post(
        reverse("ratings:tournament-preview", args=[tournament.pk]), grid_data(players, RESULTS)
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="rating-preview"' in html
    assert "<html" not in html  # the partial only
    for text in ("1620-11", "1482-11", "1396-11", "1.398", "0.602", "1600-10"):
        assert text in html.replace(",", "."), text
    assert "0 spätere Turniere" in html
    assert counts() == before


def test_preview_mirror_cell_may_stay_empty(login, users, tournament, players):
    client = login(users["officer_a"])
    data = grid_data(players, {(1, 0): "0", (2, 0): "0", (2, 1): "½"})
    html = client.post(reverse("ratings:tournament-preview", args=[tournament.pk]), data).content.decode()
    assert "1620-11" in html


def test_preview_invalid_input_lists_errors(login, users, tournament, players):
    client = login(users["officer_a"])
    data = grid_data(players, {(0, 1): "2", (0, 2): "1", (2, 0): "1"})
    response = client.post(reverse("ratings:tournament-preview", args=[tournament.pk]), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="preview-errors"' in html
    assert "Unbekanntes Ergebnis „2“" in html
    assert "Spiegelzelle" in html


def test_preview_rejects_get(login, users, tournament):
    client = login(users["officer_a"])
    assert client.get(reverse("ratings:tournament-preview", args=[tournament.pk])).status_code == 405


def test_preview_without_participants(login, users, tournament):
    client = login(users["officer_a"])
    html = client.post(reverse("ratings:tournament-preview", args=[tournament.pk]), {}).content.decode()
    assert "Noch keine Teilnehmer" in html


def test_preview_counts_later_tournaments_transitively(login, users, tree, tournament, players):
    from ratings.models import Game as G
    from ratings.models import TournamentEntry as E

    def later(name, end, members):
        t = Tournament(name=name, start_date=end, end_date=end, organiser_club=tree["club_a"])
        tournament_create(
            tournament=t,
            entries=[E(player=p) for p in members],
            games=[G(round=1, white=members[0], black=members[1], result="1-0")],
            user=users["admin"],
        )
        return t

    from tests.builders import club_player

    d = club_player(tree["club_a"], "Dora", 1450, number="4")
    e = club_player(tree["club_a"], "Emil", 1350, number="5")
    later("Später 1", datetime.date(2024, 4, 1), [players[0], d])  # shares A
    later("Später 2", datetime.date(2024, 5, 1), [d, e])  # shares D only: transitively reached
    later("Früher", datetime.date(2024, 2, 1), [players[1], e])  # before: not counted
    client = login(users["officer_a"])
    html = client.post(
        reverse("ratings:tournament-preview", args=[tournament.pk]), grid_data(players, RESULTS)
    ).content.decode()
    assert "2 spätere Turniere" in html


def test_preview_uses_the_rating_before_the_tournament(login, users, tree, tournament, players):
    """An earlier tournament changes A's input: the preview starts from his DWZ after it."""
    from ratings.models import Game as G
    from ratings.models import TournamentEntry as E

    earlier = Tournament(
        name="Früher",
        start_date=datetime.date(2024, 1, 1),
        end_date=datetime.date(2024, 1, 2),
        organiser_club=tree["club_a"],
    )
    # A (1600, idx 10) loses against B (1500): We .638, E 22, Rn = 1600 − 800·0.638/23 = 1577.81 → 1578.
    tournament_create(
        tournament=earlier,
        entries=[E(player=players[0]), E(player=players[1])],
        games=[G(round=1, white=players[0], black=players[1], result="0-1")],
        user=users["admin"],
    )
    client = login(users["officer_a"])
    html = client.post(
        reverse("ratings:tournament-preview", args=[tournament.pk]), grid_data(players, RESULTS)
    ).content.decode()
    assert "1578-11" in html
