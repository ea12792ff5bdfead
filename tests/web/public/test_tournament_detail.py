"""Tournament page: head, evaluation table, progress table / crosstable, scoresheets (spec §14 E1, E2)."""

import pytest
from django.urls import reverse


def url(t):
    return reverse("ratings:tournament-detail", args=[t.pk])


def test_head_and_evaluation_table_e2(client, e2):
    response = client.get(url(e2["tournament"]))
    html = response.content.decode()
    assert "Maiturnier" in html and "1919-C05-MAI" in html
    assert "10.05.2019 – 12.05.2019" in html
    assert "6 Spieler, 5 Runden, 5 Partien" in html
    assert "klassisch" in html
    view = response.context["view"]
    first = view.rows[0]
    assert first.player == e2["player"]
    # Spec E2: A 1850-3, 3/5, We 2.776, E 15, level 1808, performance 1886, 1859-4, +9.
    for cell in ("1850-3", "3/5", "2,776", "1808", "1886", "1859-4", "+9"):
        assert cell in html, cell


def test_swiss_event_has_a_progress_table(client, e2):
    response = client.get(url(e2["tournament"]))
    view = response.context["view"]
    assert not view.round_robin
    html = response.content.decode()
    assert 'id="progress-table"' in html and 'id="crosstable"' not in html
    a = view.rows[0]
    # Round 1: opponent no. 2 with white, won -> 1; round 2: no. 3, draw -> 1.5 in total.
    assert [(c.opponent, c.colour, c.result, c.total) for c in a.progress[:2]] == [
        (2, "w", "1", 1),
        (3, "w", "½", 1.5),
    ]


def test_scoresheet_uses_stored_entry_ratings_and_engine_p(client, e2):
    response = client.get(url(e2["tournament"]))
    a = response.context["view"].rows[0]
    # Spec E2: p per game .702, .598, .430, .286, .760, sum We 2.776.
    assert [line.opponent_rating for line in a.lines] == [1700, 1780, 1900, 2010, 1650]
    assert [str(line.expected) for line in a.lines] == ["0.702", "0.598", "0.43", "0.286", "0.76"]
    assert str(a.expected_sum) == "2.776"
    html = response.content.decode()
    assert 'id="scoresheet-1"' in html and "0,702" in html and "Weiß" in html


def test_round_robin_has_a_crosstable_e1(client, e1):
    response = client.get(url(e1["tournament"]))
    view = response.context["view"]
    assert view.round_robin
    html = response.content.decode()
    assert 'id="crosstable"' in html
    # Spec E1 (A wins): A 1000 -> 1101 (E 5), B 1200 -> 1132 (E 8); p(-200) = 0.240.
    for cell in ("1101-6", "1132-6", "+101", "−68", "0,240", "0,760"):
        assert cell in html, cell
    assert view.rows[0].cells == {2: "1"} and view.rows[1].cells == {1: "0"}


def test_unknown_tournament_is_a_friendly_404(client, db):
    response = client.get("/turniere/999999/")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.content.decode()
    assert client.get("/turniere/abc/").status_code == 404


@pytest.mark.parametrize("item_count", [1, 3])
def test_query_count(client, populate, django_assert_num_queries, item_count):
    t = populate(item_count)["tournament"]
    with django_assert_num_queries(5):  # tournament, entries, evaluations, memberships, games
        response = client.get(url(t))
    assert len(response.context["view"].rows) == item_count + 1
