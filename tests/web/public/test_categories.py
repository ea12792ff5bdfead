"""Strength categories (/spielstaerke/): counts and shares of active rated players per band (spec §11)."""

import json

import pytest
from django.urls import reverse

from ratings.enums import PlayerStatus
from tests.builders import make_player


@pytest.fixture
def band_edges(federation):
    # Boundaries: 999 Anfänger, 1000 Fortgeschrittener, 2700 Großmeister, 2701 Weltklasse; a passive 1500 and
    # an unrated player do not count.
    for dwz in (999, 1000, 1000, 2700, 2701):
        make_player(dwz=dwz, index=1)
    make_player(dwz=1500, index=1, status=PlayerStatus.PASSIVE)
    make_player()


def test_counts_and_shares(client, band_edges):
    response = client.get(reverse("ratings:categories"))
    rows = response.context["rows"]
    assert response.context["total"] == 5
    assert [r.count for r in rows] == [1, 2, 0, 0, 0, 0, 0, 1, 1]
    assert [str(r.share) for r in rows[:2]] == ["20", "40"]
    html = response.content.decode()
    assert "Anfänger" in html and "Weltklassespieler" in html
    assert "&lt; 1000" in html and "2500–2700" in html and "&gt; 2700" in html
    assert "40,0 %" in html


def test_histogram_data(client, band_edges):
    html = client.get(reverse("ratings:categories")).content.decode()
    marker = '<script id="histogram-data" type="application/json">'
    start = html.index(marker) + len(marker)
    bins = json.loads(html[start : html.index("</script>", start)])
    assert bins[0] == {"from": 900, "to": 999, "count": 1}
    assert bins[1] == {"from": 1000, "to": 1099, "count": 2}
    assert bins[-1] == {"from": 2700, "to": 2799, "count": 2}
    assert sum(b["count"] for b in bins) == 5


def test_empty_database(client, db):
    response = client.get(reverse("ratings:categories"))
    assert response.status_code == 200
    assert "dwz-histogram" not in response.content.decode()


@pytest.mark.parametrize("item_count", [1, 3])
def test_query_count(client, populate, django_assert_num_queries, item_count):
    populate(item_count)
    with django_assert_num_queries(2):  # counts per band, histogram
        client.get(reverse("ratings:categories"))
