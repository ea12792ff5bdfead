"""The league's public pages (German and English), their 404s, the navbar link, and the board record panel on
the player's card: present for a league player, absent otherwise, one query."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Tournament
from tests.builders import make_player, make_tournament
from tests.leagues.league_builders import round_robin_division, small_division

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return small_division()


def _get(client, name, *args, language="de"):
    client.cookies["django_language"] = language
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200, (name, args)
    return response.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("de", ("Tabelle", "Runde 1", "Vorschau")), ("en", ("Table", "Round 1", "Preview"))],
)
def test_division_page(client, league, language, words):
    html = _get(client, "leagues:division", league.division.pk, language=language)
    for word in words:
        assert word in html, word
    # The table in the hand-computed order, board points with ½.
    assert html.index("SF Delta 1") < html.index("SK Alpha 1") < html.index("SC Gamma 1")
    assert "4½" in html and ">½<" in html
    # Rounds with the matches' scores (the forfeit shown) and a link to each round's reports.
    assert "1½ : ½" in html and "+ : –" in html
    assert reverse("leagues:division-round", args=[league.division.pk, 3]) in html
    # Exports and the JSON.
    for name in (
        "leagues:division-xml",
        "leagues:division-trf",
        "leagues:division-table-csv",
        "leagues-api:division",
    ):
        assert reverse(name, args=[league.division.pk]) in html
    # Round 3 misses B–C; no DWZ tournament yet: a preview with the 7 rated games.
    assert "7" in html and ("Runde 3: 1 Mannschaftskampf fehlt" in html or "Round 3" in html)


def test_division_page_links_the_evaluated_tournament(client, league):
    a1, b1 = league.players["A1"], league.players["B1"]
    tournament = make_tournament(
        [a1, b1], [(1, a1, b1, "1-0")], end=league.division.season.end_date, name="KK Süd"
    )
    part = league.division.parts.get()
    part.tournament = tournament
    part.save()
    html = _get(client, "leagues:division", league.division.pk)
    assert reverse("ratings:tournament-detail", args=[tournament.pk]) in html
    assert "Vorschau" not in html
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize("language", ["de", "en"])
def test_round_page_with_the_match_reports(client, league, language):
    html = _get(client, "leagues:division-round", league.division.pk, 1, language=language)
    # Boards with the players linked to their card and their DWZ, the empty board shown.
    for key in ("A1", "B2", "D1"):
        assert reverse("ratings:player-detail", args=[league.players[key].key]) in html
    assert "1600" in html and ("nicht besetzt" in html or "not filled" in html)
    assert "½–½" in html and "1½ : ½" in html
    html = _get(client, "leagues:division-round", league.division.pk, 3, language=language)
    assert "Delta1, Erik" in html and (
        "Runde 3: 1 Mannschaftskampf fehlt" in html or "Round 3: 1 team match" in html
    )
    assert client.get(reverse("leagues:division-round", args=[league.division.pk, 9])).status_code == 404


@pytest.mark.parametrize("language", ["de", "en"])
def test_season_and_team_pages(client, league, language):
    html = _get(client, "leagues:season-list", language=language)
    assert "2025/26" in html and reverse("leagues:division", args=[league.division.pk]) in html
    html = _get(client, "leagues:season", league.division.season_id, language=language)
    assert "Kreisklasse Süd" in html
    html = _get(client, "leagues:team", league.teams["D"].pk, language=language)
    # D's line-up with each player's DWZ and his record (D1: boards won 2½ of 3, one by forfeit).
    assert "Delta1, Erik" in html and "1600" in html and "2½" in html
    assert "SC Gamma 1" in html  # an opponent
    assert 'href="/ligen/"' in html  # the navbar's "Ligen"


@pytest.mark.parametrize("name", ["leagues:division", "leagues:team", "leagues:season"])
def test_unknown_ids_are_404(client, db, name):
    assert client.get(reverse(name, args=[999])).status_code == 404


def test_board_record_panel_on_the_card(client, league):
    html = client.get(reverse("ratings:player-detail", args=[league.players["D1"].key])).content.decode()
    assert 'id="league-board-record"' in html
    assert "SF Delta 1" in html and reverse("leagues:team", args=[league.teams["D"].pk]) in html
    other = make_player(surname="Einzelspieler")
    html = client.get(reverse("ratings:player-detail", args=[other.key])).content.decode()
    assert 'id="league-board-record"' not in html


def test_division_page_query_count_is_fixed(client):
    counts = []
    for teams in (4, 10):
        division = round_robin_division(teams=teams, boards=8, rounds_played=3, seed=teams)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("leagues:division", args=[division.pk])).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1] <= 8, counts
