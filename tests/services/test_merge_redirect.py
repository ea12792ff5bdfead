"""After a merge the dropped player's addresses (card and API) answer 301 to the kept player; chains of merges
resolve in one step (issue 32)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import MergedKey, Player
from ratings.selectors.players import merged_into
from ratings.services.merge import players_merge
from tests.builders import player

pytestmark = pytest.mark.django_db


def _card(key: str) -> str:
    return reverse("ratings:player-detail", args=[key])


def _api(key: str) -> str:
    return reverse("ratings:api-player", args=[key])


def test_the_dropped_players_card_and_api_redirect_to_the_kept_one(client):
    keep = player(dwz=1700, index=30, surname="Müller", first_name="Jörg")
    drop = player(surname="Mueller", first_name="Jörg")
    drop_key = drop.key
    players_merge(keep=keep, drop=drop)
    response = client.get(_card(drop_key))
    assert response.status_code == 301 and response["Location"] == _card(keep.key)
    response = client.get(_card(drop_key), {"page": "2"})  # the query string goes along
    assert response.status_code == 301 and response["Location"] == _card(keep.key) + "?page=2"
    assert client.get(_card(keep.key)).status_code == 200
    response = client.get(_api(drop_key))
    assert response.status_code == 301 and response["Location"] == _api(keep.key)
    assert response["Access-Control-Allow-Origin"] == "*"
    assert client.get(_api(drop_key), follow=True).json()["key"] == keep.key
    assert client.head(_api(drop_key)).status_code == 301
    assert client.get(_card("NOBODY-1")).status_code == 404  # never merged: still 404
    assert client.get(_api("NOBODY-1")).status_code == 404


def test_a_chain_of_merges_resolves_in_one_step(client):
    a, b, c = (player(dwz=1500 + 100 * i, index=10, surname=f"Kette{i}") for i in range(3))
    a_key, b_key = a.key, b.key
    players_merge(keep=b, drop=a)  # a → b
    players_merge(keep=c, drop=b)  # b → c, so a → c
    assert merged_into(key=a_key) == c.key and merged_into(key=b_key) == c.key
    for key in (a_key, b_key):
        response = client.get(_card(key))
        assert response.status_code == 301 and response["Location"] == _card(c.key)
        response = client.get(_api(key))
        assert response.status_code == 301 and response["Location"] == _api(c.key)


def test_a_dry_run_leaves_no_redirect_and_a_live_player_wins():
    keep, drop = player(dwz=1600, index=5, surname="Bleibt"), player(surname="Geht")
    players_merge(keep=keep, drop=drop, dry_run=True)
    assert not MergedKey.objects.exists()
    drop_key = drop.key
    players_merge(keep=keep, drop=drop)
    assert merged_into(key=drop_key) == keep.key
    # A new record that gets the old key (a re-registration) is his own page again.
    fresh = Player.objects.create(key=drop_key, surname="Neu")
    assert fresh.key == drop_key
    # … and merging the kept player into him removes the alias of his own key.
    players_merge(keep=fresh, drop=keep)
    assert merged_into(key=drop_key) is None and merged_into(key=keep.key) == drop_key
