"""Search: umlaut-insensitive names ("Nachname, Vorname"), clubs by name or ZPS, tournaments by name/code."""

import pytest
from django.urls import reverse

from ratings.folding import search_key
from ratings.selectors.search import everything, players
from tests.builders import make_player


@pytest.mark.parametrize(
    "text,key",
    [
        ("Müller", "muller"),
        ("Mueller", "muller"),
        ("MÜLLER", "muller"),
        ("Muller", "muller"),
        ("Strauß", "strauss"),
        ("Öztürk", "ozturk"),
        ("Oeztuerk", "ozturk"),
        ("Jäger", "jager"),
        ("  Großmann ", "grossmann"),
        ("Dvořák", "dvořák"),
    ],
)
def test_search_key(text, key):
    assert search_key(text) == key


@pytest.fixture
def people(federation):
    club = federation["club"]
    return [
        make_player(surname="Müller", first_name="Hans", dwz=1700, index=3, club=club),
        make_player(surname="Mueller", first_name="Jörg", club=club),
        make_player(surname="Strauß", first_name="Änne", club=club),
        make_player(surname="Maier", first_name="Hans", club=club),
    ]


@pytest.mark.parametrize(
    "query,expected",
    [
        ("Muller", {"Müller", "Mueller"}),
        ("müller", {"Müller", "Mueller"}),
        ("MUELLER", {"Müller", "Mueller"}),
        ("Müller, Hans", {"Müller"}),
        ("muller,jorg", {"Mueller"}),
        ("Hans Muller", {"Müller"}),
        ("hans", {"Müller", "Maier"}),
        ("Strauss, Anne", {"Strauß"}),
        ("Schmidt", set()),
    ],
)
def test_player_search(people, query, expected):
    assert {p.surname for p in everything(query=query).players} == expected


def test_club_search_by_name_and_zps(federation):
    assert [c.zps for c in everything(query="stuttgart").clubs] == ["C0501"]
    assert [c.zps for c in everything(query="c0501").clubs] == ["C0501"]
    assert [c.zps for c in everything(query="B01").clubs] == ["B0101"]


def test_tournament_search_by_name_and_code(e2):
    assert [t.name for t in everything(query="maiturnier").tournaments] == ["Maiturnier"]
    assert [t.name for t in everything(query="1919-C05").tournaments] == ["Maiturnier"]


def test_search_page(client, people):
    html = client.get(reverse("ratings:search"), {"q": "Muller"}).content.decode()
    assert "Müller, Hans" in html and "Mueller, Jörg" in html and "Maier" not in html
    assert 'value="Muller"' in html


def test_search_page_without_hits_and_garbage(client, people):
    assert "Nichts gefunden" in client.get("/suche/", {"q": "zzzz"}).content.decode()
    for q in ["", "%", "_", "'", ",", "x" * 1000, "ß" * 80]:
        assert client.get("/suche/", {"q": q}).status_code == 200
    assert client.get("/suche/", {"q": "\x00"}).status_code == 400  # NulByteMiddleware


@pytest.mark.parametrize("item_count", [1, 3])
def test_query_count(client, populate, django_assert_num_queries, item_count):
    populate(item_count)
    # players whose surname begins with "m", the other players (the first do not fill the page), the
    # players' clubs, clubs, tournaments
    with django_assert_num_queries(5):
        response = client.get("/suche/", {"q": "m"})
    players_found = response.context["results"].players
    assert len(players_found) >= item_count
    member = next(p for p in players_found if p.surname.startswith("Mitglied"))
    assert (member.club_name, member.club_zps) == ("SF Stuttgart", "C0501")


def test_one_player_search_for_pages_and_autocomplete(people):
    """The officer autocomplete uses the same search: umlauts fold, participants are left out."""
    found = players(query="Muller", limit=15, exclude=[people[0].pk])
    assert [p.surname for p in found] == ["Mueller"]
    assert len(players(query="m", limit=2)) == 2


def test_player_search_by_member_number_and_key(people):
    member = people[0].memberships.get()
    assert [p.pk for p in players(query=f"{member.club.zps}-{member.member_number}", limit=5)] == [
        people[0].pk
    ]
    assert [p.pk for p in players(query=people[1].key, limit=5)] == [people[1].pk]


def test_surname_matches_rank_before_first_name_matches(client, federation):
    club = federation["club"]
    for surname, first in [
        ("Adler", "Wolfgang"),
        ("Bauer", "Wolf"),
        ("Wolfsberger", "Anna"),
        ("Wolf", "Zoe"),
    ]:
        make_player(surname=surname, first_name=first, club=club)
    found = [(p.surname, p.first_name) for p in everything(query="Wolf").players]
    assert found[:2] == [("Wolf", "Zoe"), ("Wolfsberger", "Anna")]
    assert set(found[2:]) == {("Adler", "Wolfgang"), ("Bauer", "Wolf")}
    html = client.get("/suche/", {"q": "wolf"}).content.decode()
    assert html.index("Wolf, Zoe") < html.index("Wolfsberger, Anna") < html.index("Adler, Wolfgang")


def test_name_search_reads_the_surnames_beginning_with_it_first(federation, django_assert_num_queries):
    """Surnames equal to or beginning with the term, then those containing it, then first names: the same
    order as one query over all matches, and the rest is not read when the first fill the page."""
    from ratings.selectors.lists import list_rows
    from ratings.selectors.search import _relevance, filter_players

    names = [
        ("Müller", "Zoe"),
        ("Mueller", "Anna"),
        ("Müllerschön", "Bea"),
        ("Liebmüller", "Cem"),
        ("Muller", "Dora"),
        ("Adler", "Müller"),
        ("Schmidt", "Emil"),
        ("Müller-Lüd", "Finn"),
    ]
    for surname, first in names:
        make_player(surname=surname, first_name=first)

    def reference(query, limit):
        rows = filter_players(list_rows(), query=query).annotate(relevance=_relevance(query))
        return [p.pk for p in rows.order_by("relevance", "surname", "first_name", "pk")[:limit]]

    for query in ["Müller", "muell", "Müllerschön", "ller", "Schmidt", "zzz"]:
        for limit in [1, 2, 3, 4, 5, 10]:
            found = [p.pk for p in players(query=query, limit=limit)]
            assert found == reference(query, limit), (query, limit)
    with django_assert_num_queries(2):  # three surnames "muller" fill a page of 3: no second player query
        assert [p.first_name for p in players(query="Müller", limit=3)] == ["Anna", "Dora", "Zoe"]
