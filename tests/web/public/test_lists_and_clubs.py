"""Player, club and tournament lists; club and organisation pages; 404s; garbage parameters."""

import pytest
from django.urls import reverse


def test_player_list_searches_by_name(client, e2):
    response = client.get(reverse("ratings:player-list"), {"q": "muller"})
    assert [r.record.surname for r in response.context["table"].page.object_list] == ["Müller"]


def test_club_list_with_filter(client, e2, federation):
    response = client.get(reverse("ratings:club-list"), {"verband": "C00"})
    rows = response.context["table"].page.object_list
    assert [(r.record.zps, r.record.members) for r in rows] == [("C0501", 1)]
    assert [
        r.record.zps for r in client.get("/vereine/", {"q": "karls"}).context["table"].page.object_list
    ] == ["B0101"]


def test_club_list_counts_current_members_only_and_sorts_by_them(client, e2, federation):
    """A past membership does not count, a club without current members shows 0 (and sorts last)."""
    import datetime

    from ratings.models import Club, Membership

    club = Club.objects.get(zps="C0501")
    Membership.objects.filter(club=club).update(valid_until=datetime.date(2024, 1, 1))
    rows = client.get(reverse("ratings:club-list"), {"sort": "-members"}).context["table"].page.object_list
    counts = {r.record.zps: r.record.members for r in rows}
    assert counts["C0501"] == 0 and [r.record.members for r in rows][-1] == 0
    assert sorted(counts.values(), reverse=True) == [r.record.members for r in rows]


def test_tournament_list(client, e2, e1):
    response = client.get(reverse("ratings:tournament-list"))
    assert [r.record.name for r in response.context["table"].page.object_list] == [
        "Maiturnier",
        "Jugendduell",
    ]
    response = client.get("/turniere/", {"jahr": "2018"})
    assert [r.record.name for r in response.context["table"].page.object_list] == ["Jugendduell"]
    assert "12.05.2019" in client.get("/turniere/").content.decode()


def test_club_page(client, e2, e1):
    response = client.get(reverse("ratings:club-detail", args=["C0501"]))
    html = response.content.decode()
    assert "SF Stuttgart" in html and "C0501" in html and "Bezirk Stuttgart" in html
    assert [r.record.surname for r in response.context["table"].page.object_list] == [
        "Müller",
        "Böhm",
        "Älter",
    ]
    assert [t.name for t in response.context["tournaments"]] == ["Maiturnier", "Jugendduell"]
    assert "_export=csv" in html
    assert ">Mitgl.-Nr.<" in html and '<td class="num">1014</td>' in html  # member number instead of the club
    assert client.get("/vereine/c0501/").status_code == 200


def test_club_page_export_is_the_members_list(client, e2):
    response = client.get("/vereine/C0501/", {"_export": "csv"})
    text = response.getvalue().decode("utf-8-sig")  # streamed
    assert "Müller, Hans" in text and "Gegner1" not in text
    assert "dwz-C0501.csv" in response["Content-Disposition"]


def test_organisation_page_includes_everything_below(client, e2, federation):
    response = client.get(reverse("ratings:organisation-detail", args=["C00"]))
    assert [r.record.surname for r in response.context["table"].page.object_list] == ["Müller"]
    html = response.content.decode()
    assert "Württembergischer Schachbund" in html and "Bezirk Stuttgart" in html
    other = client.get("/verbaende/B00/")
    assert len(other.context["table"].page.object_list) == 5


@pytest.mark.parametrize(
    "path",
    [
        "/vereine/XXXXX/",
        "/vereine/C9999/",
        "/verbaende/ZZZ/",
        "/spieler/%20/",
        "/turniere/0/",
        "/api/players/nobody",
        "/api/clubs/X/players",
        "/api/tournaments/7",
    ],
)
def test_unknown_ids_are_404(client, db, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    "path,params",
    [
        ("/spieler/", {"q": "%_'", "sort": "x", "page": "x", "per_page": "0"}),
        ("/vereine/", {"q": "%", "verband": "???", "sort": "zzz", "page": "-1"}),
        ("/turniere/", {"q": "\x00", "jahr": "abc", "sort": "?", "page": "99"}),
        ("/turniere/", {"jahr": "99999999999999999999"}),
        ("/vereine/C0501/", {"verband": "C00", "alter_von": "x", "geschlecht": "?", "_export": "pdf"}),
        ("/verbaende/C00/", {"verband": "C05", "alter_bis": "1e999", "aktiv": "x", "top": "x", "liste": "?"}),
        ("/spielstaerke/", {"x": "y"}),
        ("/api/clubs/C0501/players", {"aktiv": "?"}),
    ],
)
def test_garbage_parameters_never_raise(client, e2, path, params):
    nul = any("\x00" in value for value in params.values())  # refused before the view: NulByteMiddleware
    assert client.get(path, params).status_code == (400 if nul else 200)


@pytest.mark.parametrize("item_count", [1, 3])
def test_query_counts(client, populate, django_assert_num_queries, item_count):
    populate(item_count)
    with django_assert_num_queries(4):  # organisations (form), count, page, the page's clubs
        client.get("/spieler/", {"q": "m"})
    with django_assert_num_queries(3):  # organisations (form), count, page
        client.get("/vereine/")
    with django_assert_num_queries(2):  # count, page
        response = client.get("/turniere/")
    assert len(response.context["table"].page.object_list) == item_count + 1
    # club, count, page, clubs, ranks, tournaments (3), past, figures (memberships with their players' DWZ)
    with django_assert_num_queries(10):
        response = client.get("/vereine/C0501/")
    assert len(response.context["table"].page.object_list) == item_count + 1
    with django_assert_num_queries(8):  # organisation, form, count, page, clubs, ranks, children, clubs
        client.get("/verbaende/C00/")
