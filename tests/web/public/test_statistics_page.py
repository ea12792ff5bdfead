"""Statistics page: DWZ distribution, evaluations, first ratings and tournaments per year, for all or one
federation; the charts' data in json_script, the numbers in tables beside them."""

import datetime
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.enums import ResultCode
from ratings.selectors.statistics import per_year
from tests.builders import make_player, make_tournament

URL = "/statistik/"


def _chart(html):
    start = html.index('<script id="stats-data" type="application/json">') + len(
        '<script id="stats-data" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_all_federations(client, e2, e1):
    html = client.get(URL).content.decode()
    years = [(y.year, y.evaluations, y.first, y.tournaments) for y in per_year()]
    # E1 2018: both rated (2 evaluations); E2 2019: six evaluations (Müller and five opponents with games).
    assert years == [(2018, 2, 0, 1), (2019, 6, 0, 1)]
    chart = _chart(html)
    assert chart["years"]["labels"] == ["2018", "2019"] and chart["years"]["series"][0]["data"] == [2, 6]
    assert chart["tournaments"]["series"][0]["data"] == [1, 1]
    assert sum(chart["histogram"]["series"][0]["data"]) == 8
    table = html[html.index('id="stat-years"') :]
    assert "<td>2019</td>" in table and 'data-chart="histogram"' in html
    assert "js/statistics.js" in html and "<script>" not in html  # CSP: no inline script


def test_one_federation(client, e2, e1, federation):
    other = federation["other"]  # Baden: the opponents of E2 play for SK Karlsruhe
    html = client.get(URL, {"verband": other.code}).content.decode()
    assert "Badischer Schachbund" in html
    years = per_year(organisation=other)
    assert [(y.year, y.evaluations, y.tournaments) for y in years] == [(2019, 5, 0)]
    land = per_year(organisation=federation["land"])
    assert [(y.year, y.evaluations, y.tournaments) for y in land] == [(2018, 2, 0), (2019, 1, 1)]
    link = client.get(f"/verbaende/{other.code}/").content.decode()
    assert f'href="/statistik/?verband={other.code}"' in link


def test_first_ratings_per_year(client, federation):
    newcomer = make_player(surname="Neu", first_name="Nina", club=federation["club"])
    rated = [
        make_player(surname=f"R{i}", first_name="X", dwz=1500, index=5, club=federation["club"])
        for i in range(5)
    ]
    make_tournament(
        [newcomer, *rated],
        [(i, newcomer, o, ResultCode.DRAW) for i, o in enumerate(rated, start=1)],
        end=datetime.date(2024, 5, 1),
    )
    assert [(y.year, y.first) for y in per_year(organisation=federation["land"])] == [(2024, 1)]
    assert "<td>2024</td>" in client.get(URL, {"verband": "C00"}).content.decode()


def test_unknown_federation_redirects_and_empty_pages_render(client, db):
    response = client.get(URL, {"verband": "XYZ"})
    assert response.status_code == 302 and response.url == URL
    assert "Keine Spieler mit DWZ." in client.get(URL).content.decode()


@pytest.mark.parametrize("params", [{}, {"verband": "C00"}])
def test_query_count_constant(client, populate, params):
    counts = []
    for n in (1, 3):
        populate(n if not counts else n - 1)  # 1 item, then 3 in all
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(URL, params).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
