"""The permission matrix: every role × every write URL, a test per role; plus the scope helpers."""

import pytest
from django.db import transaction
from django.urls import reverse

from ratings import permissions
from ratings.models import Tournament

pytestmark = pytest.mark.django_db

# (name, method, needs tournament)
URLS = [
    ("ratings:tournament-create", "get", False),
    ("ratings:tournament-create", "post", False),
    ("ratings:officer-dashboard", "get", False),
    ("ratings:officer-player-search", "get", False),
    ("ratings:tournament-edit", "get", True),
    ("ratings:tournament-edit", "post", True),
    ("ratings:tournament-grid", "get", True),
    ("ratings:tournament-grid", "post", True),
    ("ratings:tournament-preview", "post", True),
    ("ratings:tournament-delete", "get", True),
    ("ratings:tournament-delete", "post", True),
]
# Tournament organised by club A. "ok" = 200 (or 302 after a successful POST), "login" = 302 to /anmelden/.
EXPECTED = {
    "visitor": {"own": "login", "general": "login"},
    "member": {"own": 403, "general": 403},
    "officer_a": {"own": "ok", "general": "ok"},
    "officer_lv": {"own": "ok", "general": "ok"},
    "officer_b": {"own": 403, "general": "ok"},
    "admin": {"own": "ok", "general": "ok"},
}


@pytest.mark.parametrize("role", list(EXPECTED))
def test_permission_matrix(client, users, tournament, players, role):
    """Every write URL for one role, each request in a savepoint rolled back before the next (a permitted
    POST may change or delete the tournament): the fixtures are built once per role, not per URL."""
    if role != "visitor":
        client.force_login(users[role])
    for name, method, needs_tournament in URLS:
        where = f"{role}: {method.upper()} {name}"
        savepoint = transaction.savepoint()
        url = reverse(name, args=[tournament.pk]) if needs_tournament else reverse(name)
        response = getattr(client, method)(url, {})
        expected = EXPECTED[role]["own" if needs_tournament else "general"]
        if expected == "login":
            assert response.status_code == 302, where
            assert response.url.startswith("/anmelden/"), where
        elif expected == "ok":
            assert response.status_code in (200, 302), where
            if response.status_code == 302:
                assert not response.url.startswith("/anmelden/"), where
        else:
            assert response.status_code == expected, where
        # Nobody without the right changed anything.
        if expected != "ok":
            assert Tournament.objects.filter(pk=tournament.pk).exists(), where
        transaction.savepoint_rollback(savepoint)


@pytest.mark.parametrize("role", ["officer_a", "officer_lv", "admin"])
def test_unknown_tournament_is_404(client, users, role):
    client.force_login(users[role])
    assert client.get(reverse("ratings:tournament-grid", args=[999999])).status_code == 404


def test_scope_of_landesverband_covers_districts_and_clubs(users, tree):
    scope = permissions.user_scope(users["officer_lv"])
    assert {tree["lv"].pk, tree["bezirk_a"].pk, tree["bezirk_b"].pk} <= scope.organisation_ids
    assert tree["dsb"].pk not in scope.organisation_ids
    assert {tree["club_a"].pk, tree["club_b"].pk} <= scope.club_ids


def test_club_officer_may_not_edit_a_district_tournament(users, tree):
    t = Tournament(name="Bezirk", organiser_organisation=tree["bezirk_a"])
    assert not permissions.can_manage_tournament(users["officer_a"], t)
    assert permissions.can_manage_tournament(users["officer_lv"], t)
    assert permissions.can_manage_tournament(users["admin"], t)


def test_tournament_without_organiser_only_for_staff(users):
    t = Tournament(name="ohne")
    assert not permissions.can_manage_tournament(users["officer_lv"], t)
    assert permissions.can_manage_tournament(users["admin"], t)


def test_players_of_own_clubs_only(users, players):
    assert permissions.can_manage_player(users["officer_a"], players[0])
    assert permissions.can_manage_player(users["officer_lv"], players[0])
    assert not permissions.can_manage_player(users["officer_b"], players[0])


def test_organiser_choices_are_limited_to_the_scope(client, users, tree):
    client.force_login(users["officer_a"])
    html = client.get(reverse("ratings:tournament-create")).content.decode()
    assert "C0501 SV Stuttgart" in html
    assert "C0601" not in html
    assert "C05 Bezirk" not in html


def test_officer_cannot_post_a_foreign_organiser(client, users, tree):
    client.force_login(users["officer_a"])
    response = client.post(
        reverse("ratings:tournament-create"),
        {
            "name": "Fremd",
            "start_date": "2024-01-01",
            "end_date": "2024-01-02",
            "organiser": f"club:{tree['club_b'].pk}",
            "mode": "rr",
            "rated": "on",
        },
    )
    assert response.status_code == 200
    assert not Tournament.objects.filter(name="Fremd").exists()


def test_seed_demo_creates_the_officer_logins(db, rf):
    from django.contrib.auth import authenticate
    from django.core.management import call_command

    from ratings import permissions as perms
    from ratings.models import Organisation

    Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    call_command("seed_demo", "--no-federation", stdout=__import__("io").StringIO())
    # Login throttling (django-axes) needs the request a login comes with.
    referent = authenticate(rf.post("/anmelden/"), username="referent", password="demo-referent")
    assert referent is not None and not referent.is_staff
    assert referent.get_full_name() == "Jörg Weißmüller"  # named as Wertungsreferent on his tournaments
    assert perms.user_scope(referent).organisation_ids
    assert authenticate(rf.post("/anmelden/"), username="admin", password="demo-admin").is_staff
