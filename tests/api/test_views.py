"""JSON API: players, club members, tournaments (values from stored evaluations, spec §14 E2)."""

import pytest
from django.test import override_settings
from django.urls import reverse


def test_player(client, e2):
    response = client.get(reverse("ratings:api-player", args=[e2["player"].key]))
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    data = response.json()
    assert data["name"] == "Müller, Hans" and (data["dwz"], data["index"]) == (1859, 4)
    assert data["memberships"] == [
        {"club": {"zps": "C0501", "name": "SF Stuttgart"}, "member_number": "1014"}
    ]
    start, evaluation = data["history"]
    assert start["type"] == "adjustment" and start["dwz_new"] == 1850
    assert evaluation["tournament"]["code"] == "1919-C05-MAI"
    assert (evaluation["points"], evaluation["games"], evaluation["expected"]) == (3, 5, 2.776)
    assert (evaluation["coefficient"], evaluation["level"], evaluation["performance"]) == (15, 1808, 1886)
    assert (evaluation["dwz_new"], evaluation["index_new"], evaluation["edition"]) == (1859, 4, "classic")


def test_club_players(client, e2, e1):
    data = client.get(reverse("ratings:api-club-players", args=["C0501"])).json()
    assert data["club"] == {
        "zps": "C0501",
        "name": "SF Stuttgart",
        "organisation": {"code": "C05", "name": "Bezirk Stuttgart"},
    }
    assert [(p["rank"], p["name"], p["dwz"]) for p in data["players"]] == [
        (1, "Müller, Hans", 1859),
        (2, "Böhm, Ben", 1132),
        (3, "Älter, Anna", 1101),
    ]


def test_tournament(client, e2):
    data = client.get(reverse("ratings:api-tournament", args=[e2["tournament"].pk])).json()
    assert (
        data["code"] == "1919-C05-MAI" and data["end_date"] == "2019-05-12" and data["edition"] == "classic"
    )
    assert data["round_robin"] is False
    a = data["players"][0]
    assert a["evaluation"]["dwz_new"] == 1859
    assert [g["opponent_rating"] for g in a["games"]] == [1700, 1780, 1900, 2010, 1650]
    assert a["games"][0]["colour"] == "white" and a["games"][1]["points"] == 0.5


def test_post_is_not_allowed(client, e2):
    assert client.post(reverse("ratings:api-player", args=[e2["player"].key])).status_code == 405


@override_settings(API_LIMIT=0)  # the throttle's own queries (its cache table): tests/web/test_throttle.py
@pytest.mark.parametrize("item_count", [1, 3])
def test_query_counts(client, populate, django_assert_num_queries, item_count):
    data = populate(item_count)
    with django_assert_num_queries(4):
        client.get(reverse("ratings:api-player", args=[data["central"].key]))
    with django_assert_num_queries(2):
        client.get(reverse("ratings:api-club-players", args=["C0501"]))
    with django_assert_num_queries(5):
        client.get(reverse("ratings:api-tournament", args=[data["tournament"].pk]))
