"""Input that once broke pages for every visitor: player keys outside the key pattern and NUL bytes.

Run on SQLite and on PostgreSQL (DATABASE_URL), which refuses NUL bytes in strings with a ValueError.
"""

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings.models import Player
from tests.builders import ger_line, grid_data, player_line, trf

pytestmark = pytest.mark.django_db

BAD_KEYS = ["A/B", "a b", "Ä1", "-A", "A\x00", "A" * 41, "", "A.B", "A\nB"]


@pytest.mark.parametrize("key", BAD_KEYS)
def test_the_model_refuses_a_key_outside_the_pattern(key):
    with pytest.raises(ValidationError) as exc:
        Player(key=key, surname="X").full_clean()
    assert "key" in exc.value.message_dict


@pytest.mark.parametrize("key", ["C0501-0013", "NU4005017", "4005017", "FIDE-4611993", "TRF-3", "A"])
def test_the_keys_the_importers_make_pass(key):
    Player(key=key, surname="X").full_clean()


def test_the_admin_refuses_a_key_with_a_slash(client, users, tree):
    client.force_login(users["admin"])
    response = client.post(
        reverse("admin:ratings_player_add"),
        {
            "key": "C0501/1",
            "surname": "Schräg",
            "status": "A",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 200
    assert "Schlüssel: bis zu 40 Buchstaben" in response.content.decode()
    assert not Player.objects.filter(surname="Schräg").exists()


def test_import_tournament_refuses_a_key_with_a_slash(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            {
                "tournament": {"end_date": "2025-03-01"},
                "players": [{"id": "A/1", "dwz": 1500, "index": 5}, {"id": "B", "dwz": 1400, "index": 5}],
                "games": [{"white": "A/1", "black": "B", "result": "1-0"}],
            }
        )
    )
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path))
    assert exc.value.returncode == 2
    assert "players[0].id: not a player key" in str(exc.value)
    assert not Player.objects.exists()


def test_pages_listing_players_answer(client, users, tournament, players, tree):
    for url in (
        reverse("ratings:club-detail", args=["C0501"]),
        reverse("ratings:tournament-detail", args=[tournament.pk]),
        reverse("ratings:search") + "?q=Anton",
        reverse("ratings:player-detail", args=[players[0].key]),
    ):
        assert client.get(url).status_code == 200, url


NUL_PATHS = [
    "/spieler/%00/",
    "/spieler/A%00/",
    "/spieler/A%2FB/",
    "/vereine/%00/",
    "/vereine/C05%0001/",
    "/verbaende/%00/",
    "/verbaende/C%000/",
    "/api/players/%00",
    "/api/clubs/%00/players",
    "/listen/verein/%00/csv/",
    "/listen/verband/C%000/csv/",
    "/turniere/aus-datei/%00/",
    "/turniere/aus-datei/%C3%A4/",
    "/turniere/%00/",
]
NUL_QUERIES = [
    ("ratings:search", {"q": "An\x00ton"}),
    ("ratings:search", {"q": "\x00"}),
    ("ratings:player-list", {"q": "\x00"}),
    ("ratings:player-list", {"name": "\x00", "verein": "\x00", "sort": "\x00", "page": "\x00"}),
    ("ratings:rating-list", {"q": "\x00", "verband": "\x00", "verein": "\x00", "sort": "\x00"}),
    ("ratings:club-list", {"q": "\x00", "verband": "\x00"}),
    ("ratings:tournament-list", {"q": "\x00", "jahr": "\x00", "verband": "\x00"}),
    ("ratings:officer-player-search", {"q": "An\x00ton", "p": "\x00"}),
    ("ratings:api-club-players", {"aktiv": "\x00"}),
    ("ratings:calculator", {"dwz": "\x00"}),
    ("ratings:categories", {"x": "\x00"}),
]


@pytest.mark.parametrize("path", NUL_PATHS)
def test_a_nul_byte_in_a_path_is_not_found(client, users, path):
    client.force_login(users["officer_a"])
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(("name", "params"), NUL_QUERIES)
def test_a_nul_byte_in_a_query_is_no_server_error(client, users, players, name, params):
    client.force_login(users["officer_a"])
    url = reverse(name, args=["C0501"]) if name == "ratings:api-club-players" else reverse(name)
    response = client.get(url, params)
    assert response.status_code in (200, 400, 404)


@pytest.mark.parametrize(
    "path", ["/admin/ratings/player/?q=%00", "/admin/ratings/tournament/?q=%00", "/admin/ratings/club/?q=%00"]
)
def test_a_nul_byte_in_an_admin_search_is_no_server_error(client, users, path):
    client.force_login(users["admin"])
    assert client.get(path).status_code in (200, 400)


def test_a_trf_person_id_with_a_slash_never_becomes_a_key(tree):
    from ratings.selectors.trf_import import Decision, head_from_file, trf_read
    from ratings.services.trf_import import trf_save

    lines = [
        player_line(1, "Schräg, A", [(2, "w", "1")]),
        ger_line(1, "", "C0501/77"),
        player_line(2, "Gerade, B", [(1, "b", "0")]),
    ]
    t = trf_read(trf(*lines))
    trf_save(
        tournament=t,
        head=head_from_file(t),
        decisions={1: Decision(create=True), 2: Decision(create=True)},
    )
    keys = list(Player.objects.values_list("key", flat=True))
    assert len(keys) == 2
    for key in keys:
        Player(key=key, surname="X").clean_fields(exclude=["surname"])


def _nul_everywhere(data: dict) -> dict:
    return {k: [f"{v}\x00" for v in vs] if isinstance(vs, list) else f"{vs}\x00" for k, vs in data.items()}


def test_nul_bytes_in_posted_forms_are_no_server_error(client, users, tournament, players):
    """Login, a new tournament, the grid, a new player, the preview: NUL bytes in every field."""
    login = {"username": "officer_a\x00", "password": "x\x00"}
    assert client.post(reverse("ratings:login"), login).status_code == 200
    client.force_login(users["officer_a"])
    head = {"name": "Open", "place": "Ulm", "start_date": "2025-01-01", "end_date": "2025-01-02"}
    assert client.post(reverse("ratings:tournament-create"), _nul_everywhere(head)).status_code == 200
    results = reverse("ratings:tournament-grid", args=[tournament.pk])
    grid = grid_data(players, {(0, 1): "1", (1, 2): "½"})
    assert client.post(results, _nul_everywhere({**grid, "save": "1"})).status_code < 500
    new_player = {"np-surname": "Neu", "np-first_name": "Nina", "np-club": "1", "np-member_number": "9"}
    participants = reverse("ratings:tournament-participants", args=[tournament.pk])
    response = client.post(participants, {**_nul_everywhere(new_player), "new_player": "1", "q": "Neu\x00"})
    assert response.status_code < 500
    assert not Player.objects.filter(surname__startswith="Neu").exists()
    preview = reverse("ratings:tournament-preview", args=[tournament.pk])
    assert client.post(preview, _nul_everywhere(grid)).status_code < 500
