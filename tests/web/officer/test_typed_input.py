"""Typed input that once raised (500): "²" passes ``str.isdigit`` but not ``int``; 20-digit numbers overflow
SQLite integers; the admin year filter took any string. Each request must answer below 500."""

import pytest
from django.urls import reverse

from ratings.models.officer import TournamentEntryMode

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999"

GETS = [
    "/suche/?q=²",
    "/ranglisten/?q=²",
    "/spieler/?q=²",
    "/vereine/C0501/?q=²",
    "/verbaende/C05/?q=²",
    "/suche/?q=" + HUGE,
    "/referent/spielersuche/?q=99999999999999999999999",
    "/referent/spielersuche/?q=²²",
    "/referent/spielersuche/?q=Anton&p=²",
    "/referent/spielersuche/?q=Anton&p=" + HUGE,
    "/admin/ratings/tournament/?year=abc",
    "/admin/ratings/tournament/?year=" + HUGE,
    "/admin/ratings/evaluation/?year=abc",
    "/admin/ratings/evaluation/?year=" + HUGE,
    "/admin/ratings/restpartie/?year=abc",
    "/admin/ratings/restpartie/?year=²",
]


@pytest.mark.parametrize("path", GETS)
def test_get_never_500(login, users, tournament, players, path):
    response = login(users["admin"]).get(path)
    assert response.status_code < 500


@pytest.mark.parametrize("mode", ["rr", "swiss"])
@pytest.mark.parametrize("view", ["ratings:tournament-grid", "ratings:tournament-preview"])
@pytest.mark.parametrize(
    "extra",
    [{"p": HUGE}, {"p": "²"}, {"q": "²"}, {"q": "99999999999999999999999"}, {"add": HUGE}],
)
def test_post_never_500(login, users, tournament, players, mode, view, extra):
    TournamentEntryMode.objects.filter(tournament=tournament).update(mode=mode)
    data = {"p": [str(p.pk) for p in players]}
    data["p"] += [extra["p"]] if "p" in extra else []
    data.update({k: v for k, v in extra.items() if k != "p"})
    response = login(users["admin"]).post(reverse(view, args=[tournament.pk]), data)
    assert response.status_code < 500
    if view == "ratings:tournament-grid" and mode == "swiss":  # a Swiss is entered round by round
        assert response["Location"] == reverse("ratings:tournament-rounds", args=[tournament.pk])
    elif "p" in extra:
        assert "Ungültige Spieler-ID" in response.content.decode()


def test_admin_year_filter_still_filters(login, users, tournament):
    client = login(users["admin"])
    assert tournament.name in client.get("/admin/ratings/tournament/?year=2024").content.decode()
    assert tournament.name not in client.get("/admin/ratings/tournament/?year=2023").content.decode()
