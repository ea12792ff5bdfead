"""Officer merge of duplicates: the finder in his scope, the consequences shown first, the merge."""

from __future__ import annotations

import datetime
import random

import pytest
from django.urls import reverse

from ratings.models import AuditEvent, Membership, Player
from tests.builders import club_player, round_robin, save_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def twins(tree, players):
    """Anton (C0501-1) and a typed-in second Anton (same name and birth year) who played a tournament."""
    anton, berta, carl = players
    typed = club_player(tree["club_a"], "Anton", 1550, number="9")
    save_tournament(
        [typed, berta, carl],
        round_robin([typed, berta, carl], random.Random(3)),
        end=datetime.date(2024, 5, 1),
    )
    return anton, typed


def _url(keep, drop):
    return reverse("ratings:officer-merge") + f"?keep={keep.pk}&drop={drop.pk}"


def test_finder_lists_the_pair_in_scope(login, users, twins):
    anton, typed = twins
    page = login(users["officer_a"]).get(reverse("ratings:officer-duplicates")).content.decode()
    assert anton.key in page and typed.key in page
    assert _url(anton, typed).replace("&", "&amp;") in page
    dashboard = login(users["officer_a"]).get(reverse("ratings:officer-dashboard")).content.decode()
    assert reverse("ratings:officer-duplicates") in dashboard


def test_finder_outside_scope_is_empty(login, users, twins):
    page = login(users["officer_b"]).get(reverse("ratings:officer-duplicates")).content.decode()
    assert 'id="no-duplicates"' in page


def test_preview_shows_consequences_and_writes_nothing(login, users, twins):
    anton, typed = twins
    client = login(users["officer_lv"])
    response = client.get(_url(anton, typed))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="merge-confirm"' in page
    assert 'id="merge-tournaments"' in page and 'id="merge-changes"' in page
    assert "2 Partien gehen über." in page
    assert Player.objects.filter(pk=typed.pk).exists()
    assert not AuditEvent.objects.filter(changes__has_key="merged_into").exists()


def test_officer_merges_and_history_is_recomputed(login, users, twins, players):
    anton, typed = twins
    _anton, berta, _carl = players
    berta_before = Player.objects.get(pk=berta.pk).dwz
    response = login(users["officer_a"]).post(
        reverse("ratings:officer-merge"), {"keep": anton.pk, "drop": typed.pk}
    )
    assert response.status_code == 302
    assert response.url == reverse("ratings:player-detail", args=[anton.key])
    assert not Player.objects.filter(pk=typed.pk).exists()
    kept = Player.objects.get(pk=anton.pk)
    assert kept.entries.count() == 1
    assert Membership.objects.filter(player=kept).count() == 1  # same club: the kept membership stays
    assert Player.objects.get(pk=berta.pk).dwz != berta_before  # opponent now met 1600, not 1550
    event = AuditEvent.objects.get(changes__has_key="merged_into")
    assert event.user == users["officer_a"]


@pytest.mark.parametrize(("role", "status"), [("officer_b", 403), ("member", 403), ("visitor", 302)])
def test_merge_outside_scope_is_refused(client, login, users, twins, role, status):
    anton, typed = twins
    if role != "visitor":
        login(users[role])
    for response in (
        client.get(_url(anton, typed)),
        client.post(_url(anton, typed), {"keep": anton.pk, "drop": typed.pk}),
    ):
        assert response.status_code == status
    assert Player.objects.filter(pk=typed.pk).exists()


def test_pair_half_outside_scope_is_listed_but_not_mergeable(login, users, tree, players):
    anton = players[0]
    other = club_player(tree["club_b"], "Anton", 1450, number="7")
    client = login(users["officer_a"])
    page = client.get(reverse("ratings:officer-duplicates")).content.decode()
    assert other.key in page and "außerhalb Ihres Bereichs" in page
    assert client.get(_url(anton, other)).status_code == 403
    assert (
        client.post(reverse("ratings:officer-merge"), {"keep": anton.pk, "drop": other.pk}).status_code == 403
    )


def test_conflict_is_shown_and_nothing_merged(login, users, twins, players):
    _anton, typed = twins
    berta = players[1]  # played in the same tournament as the typed-in Anton
    client = login(users["officer_a"])
    page = client.get(_url(berta, typed)).content.decode()
    assert 'id="merge-problems"' in page and 'id="merge-confirm"' not in page
    response = client.post(reverse("ratings:officer-merge"), {"keep": berta.pk, "drop": typed.pk})
    assert response.status_code == 200
    assert Player.objects.filter(pk=typed.pk).exists()


def test_bad_ids_go_back_to_the_finder(login, users, twins):
    client = login(users["officer_a"])
    response = client.get(reverse("ratings:officer-merge") + "?keep=x&drop=")
    assert response.status_code == 302 and response.url == reverse("ratings:officer-duplicates")
    assert client.get(reverse("ratings:officer-merge") + "?keep=999999&drop=999998").status_code == 404
