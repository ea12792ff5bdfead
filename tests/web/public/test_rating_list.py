"""Rating list (/ranglisten/): filters, sorting, exports, garbage parameters, query counts."""

import csv
import datetime
import io

import openpyxl
import pytest
from django.urls import reverse

from ratings.age_classes import public_birth_year
from ratings.enums import PlayerStatus, Sex
from tests.builders import make_player

URL = "/ranglisten/"


@pytest.fixture
def roster(federation):
    """Five players in three organisations; DWZ and index come from start values (service)."""
    f = federation
    return {
        "hans": make_player(
            surname="Müller",
            first_name="Hans",
            dwz=1802,
            index=45,
            birth_year=1970,
            sex=Sex.MALE,
            club=f["club"],
        ),
        "greta": make_player(
            surname="Groß",
            first_name="Greta",
            dwz=2105,
            index=60,
            birth_year=2010,
            sex=Sex.FEMALE,
            club=f["club"],
        ),
        "paul": make_player(
            surname="Passiv",
            first_name="Paul",
            dwz=1500,
            index=9,
            birth_year=1990,
            sex=Sex.MALE,
            club=f["club"],
            status=PlayerStatus.PASSIVE,
        ),
        "kurt": make_player(
            surname="Karl",
            first_name="Kurt",
            dwz=1950,
            index=12,
            birth_year=1985,
            sex=Sex.MALE,
            club=f["other_club"],
        ),
        "nina": make_player(
            surname="Neu", first_name="Nina", birth_year=2012, sex=Sex.FEMALE, club=f["club"]
        ),
    }


def names(response):
    table = response.context["table"]
    return [row.record.surname for row in table.page.object_list]


def test_url_and_name():
    assert reverse("ratings:rating-list") == URL


def test_default_order_by_dwz_with_rank_and_dwz_index(client, roster):
    response = client.get(URL)
    assert names(response) == ["Groß", "Karl", "Müller", "Passiv", "Neu"]
    html = response.content.decode()
    assert "1802-45" in html
    assert '<td class="num">1</td>' in html  # rank of the best player
    assert 'href="/spieler/' in html and 'href="/vereine/C0501/"' in html


@pytest.mark.parametrize(
    "params,expected",
    [
        ({"verband": "C00"}, ["Groß", "Müller", "Passiv", "Neu"]),  # Landesverband includes its Bezirk
        ({"verband": "C05"}, ["Groß", "Müller", "Passiv", "Neu"]),
        ({"verband": "B00"}, ["Karl"]),
        ({"verein": "C0501"}, ["Groß", "Müller", "Passiv", "Neu"]),
        ({"verein": "karlsruhe"}, ["Karl"]),
        ({"geschlecht": "w"}, ["Groß", "Neu"]),
        ({"aktiv": "on"}, ["Groß", "Karl", "Müller", "Neu"]),
        ({"mit_dwz": "on"}, ["Groß", "Karl", "Müller", "Passiv"]),
        ({"q": "muller"}, ["Müller"]),
        ({"q": "Gross, G"}, ["Groß"]),
    ],
)
def test_filters(client, roster, params, expected):
    assert names(client.get(URL, params)) == expected


def test_age_filter_by_birth_year(client, roster, monkeypatch):
    from ratings.web.public import filters

    class Today:
        year = 2026

    monkeypatch.setattr(filters.timezone, "localdate", lambda: Today)
    # Age = 2026 - birth year: Müller 56, Groß 16, Passiv 36, Karl 41, Neu 14.
    assert names(client.get(URL, {"alter_von": "30", "alter_bis": "45"})) == ["Karl", "Passiv"]
    assert names(client.get(URL, {"alter_bis": "16"})) == ["Groß", "Neu"]


def test_rank_counts_within_the_filtered_list(client, roster):
    response = client.get(URL, {"verband": "B00"})
    assert [row.get_cell_value("rank") for row in response.context["table"].page.object_list] == [1]


def test_sorting_by_name_and_club(client, roster):
    assert names(client.get(URL, {"sort": "name"}))[0] == "Groß"
    assert names(client.get(URL, {"sort": "-name"}))[0] == "Passiv"
    assert names(client.get(URL, {"sort": "dwz"})) == [
        "Neu",
        "Passiv",
        "Müller",
        "Karl",
        "Groß",
    ]  # unrated lowest
    assert names(client.get(URL, {"sort": "-club"}))[0] == "Karl"


def test_export_links_keep_the_filters(client, roster):
    html = client.get(URL, {"verband": "B00"}).content.decode()
    assert "_export=csv" in html and "_export=xlsx" in html
    assert "verband=B00&amp;_export=csv" in html


def test_csv_export_with_filters(client, roster):
    response = client.get(URL, {"geschlecht": "w", "_export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:6] == ["Rang", "Name", "Verein", "Jahrgang", "DWZ", "Index"]
    # Born 2010: under 18 until 2027, then the age class gives way to the year (issue 30 §4).
    born = public_birth_year(2010, year=datetime.date.today().year)
    assert rows[1][:6] == ["1", "Groß, Greta", "SF Stuttgart", born, "2105", "60"]
    assert rows[2][1] == "Neu, Nina" and rows[2][0] == "" and rows[2][4] == "" and rows[2][5] == ""
    assert len(rows) == 3


def test_xlsx_export(client, roster):
    response = client.get(URL, {"verband": "C05", "_export": "xlsx"})
    assert response.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    values = list(book.active.values)
    assert values[0][1] == "Name"
    assert [v[1] for v in values[1:]] == ["Groß, Greta", "Müller, Hans", "Passiv, Paul", "Neu, Nina"]


GARBAGE = {
    "verband": ["X", "'; drop table", "C0", "999"],
    "verein": ["%%%", "x" * 500, "\x00"],
    "geschlecht": ["q", "", "mm"],
    "alter_von": ["abc", "-5", "1e400", "99999999999999999999"],
    "alter_bis": ["NaN", "1.5", "inf"],
    "aktiv": ["maybe", "2"],
    "mit_dwz": ["[]"],
    "q": ["%", "_", ",", " , ", "ß" * 300, "1234567890123"],
    "sort": ["nonsense", "-", "rank", "name,dwz"],
    "page": ["0", "-1", "abc", "999999"],
    "per_page": ["0", "-3", "abc", "100000000"],
    "_export": ["pdf", ""],
}


@pytest.mark.parametrize("param", sorted(GARBAGE))
def test_garbage_parameters_never_raise(client, roster, param):
    for value in GARBAGE[param]:
        response = client.get(URL, {param: value})
        expected = 400 if "\x00" in value else 200  # NUL: refused before the view (NulByteMiddleware)
        assert response.status_code == expected, (param, value)


@pytest.mark.parametrize("item_count", [1, 3])
def test_query_count(client, populate, django_assert_num_queries, item_count):
    populate(item_count)
    with django_assert_num_queries(5):  # organisations (form), count, page, the page's clubs and ranks
        response = client.get(URL)
    assert len(response.context["table"].page.object_list) == 2 * item_count + 1


@pytest.mark.parametrize("item_count", [1, 3])
def test_query_count_filtered_and_export(client, populate, django_assert_num_queries, item_count):
    populate(item_count)
    params = {"verband": "C00", "verein": "C0501", "aktiv": "on", "mit_dwz": "on", "q": "mitglied"}
    with django_assert_num_queries(6):  # + the organisation named in the filter
        response = client.get(URL, params)
    assert len(response.context["table"].page.object_list) == item_count
    with django_assert_num_queries(4):  # the organisation, all ranks, all clubs, the rows (no page, no count)
        client.get(URL, {**params, "_export": "csv"}).getvalue()


def test_htmx_sort_returns_only_the_table(client, roster):
    response = client.get(
        URL, {"sort": "name"}, headers={"HX-Request": "true", "HX-Target": "table-container"}
    )
    html = response.content.decode()
    assert "<html" not in html and 'id="table-container"' in html
    assert response["HX-Push-Url"] == "/ranglisten/?sort=name"
