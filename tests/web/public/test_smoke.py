import pytest
from django.urls import reverse


@pytest.mark.parametrize(
    "name", ["rating-list", "player-list", "club-list", "tournament-list", "categories", "search"]
)
def test_smoke(client, e2, e1, name):
    r = client.get(reverse(f"ratings:{name}"), {"q": "Muller"})
    assert r.status_code == 200, r.content[:2000]


def test_smoke_details(client, e2, e1, federation):
    for url in [
        reverse("ratings:player-detail", args=[e2["player"].key]),
        reverse("ratings:club-detail", args=["C0501"]),
        reverse("ratings:organisation-detail", args=["C00"]),
        reverse("ratings:tournament-detail", args=[e2["tournament"].pk]),
        reverse("ratings:tournament-detail", args=[e1["tournament"].pk]),
        reverse("ratings:api-player", args=[e2["player"].key]),
        reverse("ratings:api-club-players", args=["C0501"]),
        reverse("ratings:api-tournament", args=[e2["tournament"].pk]),
    ]:
        r = client.get(url)
        assert r.status_code == 200, (url, r.content[:3000])
