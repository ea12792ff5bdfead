"""Issue 9 §3: entry works for big tournaments (a 300-player, 11-round Swiss in the draft's rounds, a
40-player round robin's grid posting 1,600 fields): save, preview and "add player" answer, never 400."""

import datetime
import itertools
import random
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.urls import reverse

from ratings.enums import AdjustmentKind
from ratings.models import Evaluation, Game, Player, RatingAdjustment, Tournament, TournamentDraft
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.recalculation import ratings_verify
from ratings.services.drafts import draft_save

pytestmark = pytest.mark.django_db


def _field(n: int) -> list[Player]:
    """``n`` rated players with start values (written in bulk: each one through the service would replay)."""
    rng = random.Random(n)
    players = Player.objects.bulk_create(
        Player(key=f"L{n:03d}{i:04d}", surname=f"Spieler{i:04d}", first_name="Test", birth_year=1980)
        for i in range(n)
    )
    ratings = {p.pk: (rng.randint(1000, 2300), rng.randint(5, 40)) for p in players}
    RatingAdjustment.objects.bulk_create(
        RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=ratings[p.pk][0], index=ratings[p.pk][1])
        for p in players
    )
    for p in players:
        p.dwz, p.index = ratings[p.pk]
    Player.objects.bulk_update(players, ["dwz", "index"])
    return players


def _tournament(tree, mode: str, rounds: int) -> Tournament:
    t = Tournament.objects.create(
        name=f"Großturnier {mode}",
        start_date=datetime.date(2024, 5, 1),
        end_date=datetime.date(2024, 5, 9),
        rounds=rounds,
        organiser_club=tree["club_a"],
    )
    TournamentEntryMode.objects.create(tournament=t, mode=mode)
    return t


def _swiss_games(players, rounds: int) -> list[dict]:
    """The boards of a Swiss as the draft stores them."""
    rng = random.Random(7)
    games = []
    for rnd in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        for board, (white, black) in enumerate(zip(order[::2], order[1::2], strict=True), start=1):
            result = rng.choice(["1-0", "0-1", "1/2-1/2"])
            games.append(
                {"round": rnd, "board": board, "white": white.pk, "black": black.pk, "result": result}
            )
    return games


def _round_robin_data(players, **extra) -> dict:
    """Every cell as a browser posts it (both mirrors filled)."""
    rng = random.Random(3)
    data: dict = {"p": [str(p.pk) for p in players], "version": "1"}
    mirror = {"1": "0", "0": "1", "½": "½"}
    for a, b in itertools.combinations(players, 2):
        cell = rng.choice(["1", "0", "½"])
        data[f"rr-{a.pk}-{b.pk}"] = cell
        data[f"rr-{b.pk}-{a.pk}"] = mirror[cell]
    return data | extra


def _post(client, url: str, data: dict):
    """Posted as the browser posts the results form (urlencoded, the form has no file field): the test
    client's default multipart body cost more to build and parse than the page itself."""
    return client.post(url, urlencode(data, doseq=True), content_type="application/x-www-form-urlencoded")


def _fields(data: dict) -> int:
    return sum(len(v) if isinstance(v, list) else 1 for v in data.values())


@pytest.fixture
def swiss(tree):
    players = _field(300)
    return _tournament(tree, TournamentMode.SWISS, 11), players, _swiss_games(players, 11)


@pytest.fixture
def round_robin(tree):
    players = _field(40)
    return _tournament(tree, TournamentMode.ROUND_ROBIN, 39), players, _round_robin_data(players)


def test_the_field_limit_is_above_the_largest_supported_tournaments(round_robin):
    assert _fields(round_robin[2]) > 1_560
    assert _fields(round_robin[2]) + 2 * 300 + 50 <= settings.DATA_UPLOAD_MAX_NUMBER_FIELDS


def test_round_robin_save_preview_and_add_player_at_full_size(round_robin, login, users):
    tournament, players, data = round_robin
    client = login(users["officer_a"])
    preview = _post(client, reverse("ratings:tournament-preview", args=[tournament.pk]), data)
    assert preview.status_code == 200
    html = preview.content.decode()
    assert 'id="preview-table"' in html and 'id="preview-errors"' not in html
    assert html.count("<tr data-player=") == len(players)
    grid = reverse("ratings:tournament-grid", args=[tournament.pk])
    assert _post(client, grid, data | {"keep": "1"}).status_code == 302  # the grid kept in the draft
    newcomer = Player.objects.create(key="NEU0001", surname="Neu", birth_year=1990)
    client.post(reverse("ratings:tournament-participants", args=[tournament.pk]), {"add": newcomer.pk})
    added = client.get(grid)
    assert added.status_code == 200
    assert [p.pk for p in added.context["entry"].players][-1] == newcomer.pk
    saved = _post(client, grid, data | {"save": "1"})
    assert saved.status_code == 302, saved.context and saved.context.get("save_errors")
    assert Game.objects.filter(tournament=tournament).count() == len(players) * (len(players) - 1) // 2
    assert Evaluation.objects.filter(tournament=tournament).count() == len(players)
    assert ratings_verify() == []


def test_swiss_rounds_participants_and_publish_at_full_size(swiss, login, users):
    tournament, players, games = swiss
    draft_save(tournament=tournament, participants=[p.pk for p in players], games=games)
    client = login(users["officer_a"])
    page = client.get(reverse("ratings:tournament-round", args=[tournament.pk, 11]))
    assert page.status_code == 200
    assert page.content.decode().count("<tr data-player=") == len(players)
    assert client.get(reverse("ratings:tournament-participants", args=[tournament.pk])).status_code == 200
    newcomer = Player.objects.create(key="NEU0001", surname="Neu", birth_year=1990)
    participants = reverse("ratings:tournament-participants", args=[tournament.pk])
    client.post(participants, {"add": newcomer.pk})
    assert TournamentDraft.objects.get(tournament=tournament).participants[-1] == newcomer.pk
    client.post(participants, {"remove": newcomer.pk})
    saved = client.post(reverse("ratings:tournament-draft-publish", args=[tournament.pk]))
    assert saved.status_code == 302
    assert Game.objects.filter(tournament=tournament).count() == 150 * 11
    assert Evaluation.objects.filter(tournament=tournament).count() == len(players)
    assert ratings_verify() == []
