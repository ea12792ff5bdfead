"""Player card (Karteikarte): head, history from stored evaluations (spec §14 E2), chart data, 404."""

import datetime
import json
import re

import pytest
from django.conf import settings
from django.urls import reverse

from ratings.enums import AdjustmentKind, ResultCode
from ratings.models import RatingAdjustment
from ratings.services import adjustment_save


def card_rows(html: str) -> list[list[list[str]]]:
    """The history table's body: per row, per cell, the words of its text."""
    body = html[html.index('id="history-table"') :]
    body = body[body.index("<tbody>") : body.index("</tbody>")]
    return [
        [re.sub(r"<[^>]+>", " ", cell.split(">", 1)[1]).split() for cell in tr.split("<td")[1:]]
        for tr in body.split("<tr")[1:]
    ]


def url(player):
    return reverse("ratings:player-detail", args=[player.key])


def test_head_with_dwz_index_category_and_club(client, e2):
    html = client.get(url(e2["player"])).content.decode()
    assert "Müller, Hans" in html
    assert '<span class="fs-4 fw-semibold" id="current-dwz"' in html and ">1859-4<" in html
    # 1859 lies in 1600–1899 (spec §11).
    assert "Überdurchschnittlicher Vereinsspieler" in html
    assert "SF Stuttgart" in html and "(C0501-1014)" in html
    assert "12.05.2019" in html  # German date format


def test_history_row_matches_spec_example_e2(client, e2):
    response = client.get(url(e2["player"]))
    rows = response.context["history"]
    assert [r.kind for r in rows] == ["adjustment", "evaluation"]
    start = rows[0]
    assert start.adjustment.kind == AdjustmentKind.START and start.dwz_after == 1850
    evaluation = rows[1].evaluation
    assert rows[1].number == 1
    assert (evaluation.points, evaluation.n) == (3, 5)
    assert str(evaluation.expected) == "2.776"
    assert int(evaluation.coefficient) == 15
    assert (evaluation.level, evaluation.performance, evaluation.dwz_new, evaluation.index_new) == (
        1808,
        1886,
        1859,
        4,
    )
    assert rows[1].change == 9
    html = response.content.decode()
    text = next(row for row in card_rows(html) if "Maiturnier" in row[2])
    # Nr., Ende, Turnier (code), Ro, Pkt., Par., We, E/K, Gegn., Lstg., DWZ neu, ±
    assert text[0] == ["1"] and text[1] == ["12.05.2019"]
    assert "Maiturnier" in text[2] and "1919-C05-MAI" in text[2]
    assert [t[0] for t in text[3:]] == ["1850-3", "3", "5", "2,776", "15", "1808", "1886", "1859-4", "+9"]
    assert 'href="/turniere/' in html


def test_card_columns_and_umstufung_row(client, e2):
    player = e2["player"]
    adjustment_save(
        adjustment=RatingAdjustment(
            player=player, kind=AdjustmentKind.UMSTUFUNG, dwz=1901, index=4, date=datetime.date(2026, 6, 8)
        )
    )
    html = client.get(url(player)).content.decode()
    head = html[html.index('id="history-table"') :]
    head = head[: head.index("</thead>")]
    labels = [re.sub(r"<[^>]+>", "", h.split(">", 1)[1]).strip() for h in head.split("<th ")[1:]]
    assert labels == [
        "Nr.",
        "Ende",
        "Turnier",
        "Ro",
        "Pkt.",
        "Par.",
        "We",
        "E/K",
        "Gegn.",
        "Lstg.",
        "DWZ neu",
        "±",
    ]
    umstufung = html[html.index('class="table-warning umstufung"') :]
    umstufung = umstufung[: umstufung.index("</tr>")]
    assert "Umstufung 2026" in umstufung and "08.06.2026" in umstufung
    assert ">1859<" in umstufung and "1901-4" in umstufung and "+42" in umstufung


def test_chart_with_one_point_says_so(client, federation):
    from tests.builders import make_player

    player = make_player(surname="Einzel", first_name="Eva", dwz=1500, index=1)
    html = client.get(url(player)).content.decode()
    assert 'id="dwz-chart"' in html and 'id="chart-single"' in html and "DWZ 1500" in html


def test_chart_data_via_json_script(client, e2):
    html = client.get(url(e2["player"])).content.decode()
    assert '<canvas id="dwz-chart"' in html
    assert "vendor/chart.js/chart.umd.min.js" in html
    start = html.index('<script id="dwz-data" type="application/json">') + len(
        '<script id="dwz-data" type="application/json">'
    )
    data = json.loads(html[start : html.index("</script>", start)])
    assert [(p["dwz"], p["performance"]) for p in data] == [(1850, None), (1859, 1886)]
    assert data[1]["date"] == "2019-05-12" and data[1]["label"] == "Maiturnier"


def test_dated_adjustment_appears_in_history(client, e2):
    player = e2["player"]
    adjustment_save(
        adjustment=RatingAdjustment(
            player=player,
            kind=AdjustmentKind.CORRECTION,
            date=datetime.date(2020, 1, 1),
            dwz=1870,
            index=4,
            reason="Korrektur nach Einspruch",
        )
    )
    response = client.get(url(player))
    kinds = [(r.kind, r.dwz_after) for r in response.context["history"]]
    assert kinds == [("adjustment", 1850), ("evaluation", 1859), ("adjustment", 1870)]
    html = response.content.decode()
    assert "Korrektur nach Einspruch" in html and "1870-4" in html


def test_unrated_player_without_history(client, federation):
    from tests.builders import make_player

    player = make_player(surname="Neu", first_name="Nina", club=federation["club"])
    html = client.get(url(player)).content.decode()
    assert "noch keine DWZ" in html and "dwz-chart" not in html


def test_unknown_player_is_a_friendly_404(client, db):
    response = client.get("/spieler/GIBTESNICHT/")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.content.decode()


@pytest.mark.parametrize("item_count", [1, 3])
def test_query_count(client, populate, django_assert_num_queries, item_count):
    central = populate(item_count)["central"]
    # player, memberships (+club, organisation), the history's evaluations (whole: it fits on the page),
    # adjustments, running recalculation; one more per panel of RATINGS_PLAYER_CARD_PANELS
    with django_assert_num_queries(5 + len(settings.RATINGS_PLAYER_CARD_PANELS)):
        response = client.get(url(central))
    assert len(response.context["history"]) == item_count + 2  # start value, club tournament, blitz


def test_long_history_by_pages_latest_first(client, populate, monkeypatch, django_assert_num_queries):
    """A long card shows its latest rows first, numbered over the whole history, with links to the older
    pages; the chart keeps every point."""
    monkeypatch.setattr("ratings.selectors.players.CARD_PAGE_ROWS", 2)
    central = populate(3)["central"]  # start value (adjustment), club tournament, Blitz 0–2
    # A history longer than a page: its latest rows (also the first page's) tell, then the summaries.
    with django_assert_num_queries(6 + len(settings.RATINGS_PLAYER_CARD_PANELS)):
        response = client.get(url(central))
    rows = response.context["history"]
    assert [(r.number, r.evaluation.tournament.name) for r in rows] == [(3, "Blitz 1"), (4, "Blitz 2")]
    assert len(response.context["chart_data"]) == 5
    html = response.content.decode()
    assert [row[2][:2] for row in card_rows(html)] == [["Blitz", "1"], ["Blitz", "2"]]
    nav = html[html.index('id="card-pages"') : html.index("</nav>", html.index('id="card-pages"'))]
    assert "Einträge 4–5 von 5" in nav
    assert nav.count('class="page-link"') == 3 and 'href="?page=3#history-table"' in nav
    assert 'aria-current="page">2024<' in nav

    with django_assert_num_queries(7 + len(settings.RATINGS_PLAYER_CARD_PANELS)):  # and the page's rows
        second = client.get(url(central), {"page": 2}).context["history"]
    assert [(r.number, r.evaluation.tournament.name) for r in second] == [
        (1, "Vereinsturnier"),
        (2, "Blitz 0"),
    ]
    oldest = client.get(url(central), {"page": 3})
    assert [r.kind for r in oldest.context["history"]] == ["adjustment"]
    assert "Einträge 1–1 von 5" in oldest.content.decode()
    # Past the oldest page: the oldest; not a number: the latest.
    assert [r.kind for r in client.get(url(central), {"page": 99}).context["history"]] == ["adjustment"]
    assert client.get(url(central), {"page": "x"}).context["history"][-1].number == 4


def test_short_history_has_no_page_links(client, e2):
    html = client.get(url(e2["player"])).content.decode()
    assert 'id="card-pages"' not in html


def test_english_dates_and_labels(client, e2):
    from django.utils import translation

    response = client.get(url(e2["player"]), headers={"accept-language": "en"})
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "12 May 2019" in html and "05/12/2019" not in html and "12.05.2019" not in html  # unambiguous
    with translation.override("en"):
        assert translation.gettext("Karteikarte") == "Rating card"  # locale/en is merged
    assert "Rating card" in html and "Performance" in html


@pytest.mark.parametrize("until", [None, datetime.date(2024, 4, 11), datetime.date(2024, 4, 12)])
def test_card_pages_of_every_size_equal_the_whole_history(populate, until):
    """Whatever the page size, the pages hold the history's rows in order, each once, numbered, with the
    chart and the Stichtag's values of the whole history (``history`` and ``up_to``: the card's rows read
    another way). A short history is read in one query, a long one's first page from its latest rows, any
    other page and a Stichtag's by primary key."""
    from ratings.selectors.players import card_page, history, up_to, value_after
    from tests.builders import make_player, make_tournament, save_tournament

    central = populate(4)["central"]  # start value, club tournament, Blitz 0–3 (April 10–13)
    day = datetime.date(2024, 4, 11)  # Blitz 1's day: the order of a day counts (DSB-coded first)
    for name, code in (
        ("Schnell ohne Code", None),
        ("Schnell 2", "C418-C05-002"),
        ("Schnell 1", "C418-C05-001"),
    ):
        guest = make_player(surname=f"Gast {name}", first_name="G", dwz=1450, index=3)
        games = [(1, central, guest, ResultCode.DRAW)]
        make_tournament([central, guest], games, end=day, name=name, code=code)
    guest = make_player(surname="Gast Offen", first_name="G", dwz=1450, index=3)
    # Played as a non-member: a row of the tournament, none of his card.
    save_tournament([central, guest], [(central, guest, "1-0")], end=day, non_members=[central], name="Offen")
    adjustment = RatingAdjustment(
        player=central, kind=AdjustmentKind.CORRECTION, date=day, dwz=1620, index=11
    )
    adjustment_save(adjustment=adjustment)

    rows = history(player=central)
    if until is not None:
        rows = up_to(rows, until)
    names = [row.evaluation.tournament.name for row in rows if row.evaluation and row.date == day]
    assert names[:3] == ["Schnell 1", "Schnell 2", "Blitz 1"] and "Offen" not in names
    assert any(row.adjustment and row.date == day for row in rows)

    def shown(row):
        e = row.evaluation
        fields = e and (e.pk, e.tournament.name, e.dwz_old, e.dwz_new, e.index_new, e.performance, e.status)
        return (row.kind, row.number, row.date, fields, row.adjustment and row.adjustment.pk, row.before)

    expected = [shown(row) for row in rows]
    for per_page in range(1, len(rows) + 2):
        asked = range(1, len(rows) + 3)  # past the oldest page too
        pages = [card_page(player=central, page=n, per_page=per_page, until=until) for n in asked]
        count = -(-len(rows) // per_page)
        assert [(p.number, len(p.pages), p.total) for p in pages] == [
            (min(n, count), count, len(rows)) for n in asked
        ]
        assert [shown(row) for p in reversed(pages[:count]) for row in p.rows] == expected
        assert [shown(row) for row in pages[-1].rows] == expected[: len(rows) - (count - 1) * per_page]
        assert [p.first for p in pages[:count]] == [
            max(len(rows) - n * per_page, 0) + 1 for n in range(1, count + 1)
        ]
        charted = [(r.date and r.date.isoformat(), r.dwz_after) for r in rows if r.dwz_after is not None]
        assert all([(c["date"], c["dwz"]) for c in p.chart] == charted for p in pages)
        assert all(p.value == (value_after(rows) if until else None) for p in pages)
