"""The DSB's named lists (weiblich, U20, Ü50 … by birth year), top N with shared ranks, nur deutsche Spieler,
and the federation page's filter."""

import pytest
from django.utils import timezone

from ratings.enums import Sex
from tests.builders import make_player

URL = "/ranglisten/"
YEAR = timezone.localdate().year


def rows(response):
    return [
        (row.get_cell_value("rank"), row.record.surname) for row in response.context["table"].page.object_list
    ]


@pytest.fixture
def field(federation):
    club = federation["club"]

    def p(surname, dwz, index, age, sex=Sex.MALE, **kwargs):
        return make_player(
            surname=surname,
            first_name="X",
            dwz=dwz,
            index=index,
            birth_year=YEAR - age,
            sex=sex,
            club=club,
            **kwargs,
        )

    return [
        p("Jung", 1500, 5, 19),  # U20 (19 in this year)
        p("Jungw", 1600, 5, 12, Sex.FEMALE),
        p("Zwanzig", 1700, 5, 20),  # no longer U20
        p("Fuenfzig", 1800, 5, 50),
        p("Fuenfzigw", 1450, 5, 55, Sex.FEMALE),
        p("Neunundvierzig", 1900, 5, 49),
        p("Siebzig", 2000, 20, 70, fide_federation="AUT"),
        p("Achtzig", 2000, 30, 80, Sex.FEMALE, fide_federation="GER"),
    ]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("w", {"Jungw", "Fuenfzigw", "Achtzig"}),
        ("u20", {"Jung", "Jungw"}),
        ("u20w", {"Jungw"}),
        ("ue50", {"Fuenfzig", "Fuenfzigw", "Siebzig", "Achtzig"}),
        ("ue50w", {"Fuenfzigw", "Achtzig"}),
        ("ue65", {"Siebzig", "Achtzig"}),
        ("ue65w", {"Achtzig"}),
        ("ue75", {"Achtzig"}),
        ("ue75w", {"Achtzig"}),
    ],
)
def test_named_lists_by_birth_year(client, field, code, expected):
    response = client.get(URL, {"liste": code})
    assert {name for _rank, name in rows(response)} == expected
    assert f'href="/ranglisten/?liste={code}"' in response.content.decode()


def test_ties_share_a_rank_higher_index_first_and_top_n_keeps_the_tie(client, field):
    listed = rows(client.get(URL))
    assert listed[:3] == [(1, "Achtzig"), (1, "Siebzig"), (3, "Neunundvierzig")]  # index 30 before 20
    assert rows(client.get(URL, {"top": "10"})) == listed
    # Ranks are within the chosen list: the women's list starts again at 1.
    assert rows(client.get(URL, {"liste": "w"}))[:2] == [(1, "Achtzig"), (2, "Jungw")]


def test_top_n(client, federation):
    for i in range(12):
        make_player(surname=f"S{i:02d}", first_name="X", dwz=2000 - 10 * i, index=5, club=federation["club"])
    make_player(surname="Tie", first_name="X", dwz=2000 - 90, index=4, club=federation["club"])  # ties S09
    top = rows(client.get(URL, {"top": "10"}))
    assert len(top) == 11 and top[-2:] == [(10, "S09"), (10, "Tie")]
    assert len(rows(client.get(URL, {"top": "25"}))) == 13
    assert len(rows(client.get(URL, {"top": "7"}))) == 13  # not a choice: reported on the form, ignored


def test_only_german_players(client, field):
    names = {name for _rank, name in rows(client.get(URL, {"deutsch": "on"}))}
    assert "Siebzig" not in names and {"Achtzig", "Jung"} <= names


def test_sex_filter_offers_alle(client, field):
    html = client.get(URL).content.decode()
    assert "---------" not in html
    assert '<option value="" selected>alle</option>' in html


def test_federation_page_filter(client, field, federation):
    url = f"/verbaende/{federation['land'].code}/"
    html = client.get(url).content.decode()
    assert "alle Verbände" not in html and "ganz Württembergischer Schachbund" in html
    # Another federation is its own page; an unknown code is dropped, never an error above a list.
    response = client.get(url, {"verband": federation["other"].code, "liste": "w"})
    assert response.status_code == 302 and response.url == f"/verbaende/{federation['other'].code}/?liste=w"
    response = client.get(url, {"verband": "XYZ"})
    assert response.status_code == 302 and response.url == url
    response = client.get(url, {"verband": federation["bezirk"].code})
    assert response.status_code == 200 and "errorlist" not in response.content.decode()
    assert {name for _r, name in rows(response)} >= {"Jung", "Achtzig"}


@pytest.mark.parametrize("item_count", [1, 3])
def test_named_list_query_count(client, federation, django_assert_num_queries, item_count):
    for i in range(item_count):
        make_player(
            surname=f"W{i}",
            first_name="X",
            dwz=1500 + i,
            index=3,
            sex=Sex.FEMALE,
            birth_year=YEAR - 60,
            club=federation["club"],
        )
    with django_assert_num_queries(5):  # organisations (form), count, page, the page's clubs and ranks
        response = client.get(URL, {"liste": "ue50w", "top": "10", "deutsch": "on"})
    assert len(rows(response)) == item_count
