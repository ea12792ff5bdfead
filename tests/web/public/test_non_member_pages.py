"""Non-members on the public pages (WO 3.4.3): the tournament page shows the rating his opponents met in
parentheses, "(1554)", and no new DWZ; his player card has no row for that tournament."""

import datetime

import pytest
from django.urls import reverse

from tests.builders import player, save_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament_with_non_member():
    n = player(dwz=1554, index=12, birth_year=1985, surname="Gast", first_name="Gustav")
    field = [player(dwz=1500 + 40 * i, index=10, birth_year=1970) for i in range(5)]
    games = [(n, p, r) for p, r in zip(field, ["1-0", "0-1", "1/2-1/2", "0-1", "1-0"], strict=True)]
    t, _ = save_tournament([n, *field], games, end=datetime.date(2024, 5, 5), non_members=[n], name="Open")
    later, _ = save_tournament([n, *field], games, end=datetime.date(2024, 9, 1), name="Herbst")
    return n, t, later


def test_tournament_page_shows_the_entry_rating_in_parentheses(client, tournament_with_non_member):
    n, t, _later = tournament_with_non_member
    response = client.get(reverse("ratings:tournament-detail", args=[t.pk]))
    html = response.content.decode()
    row = html[html.index("Gast, Gustav") :]
    row = row[: row.index("</tr>")]
    assert "(1554)" in row and "Nichtmitglied" in row and "1554-12" not in row
    # His scoresheet still shows the P of his games (he was part of the calculation).
    view = response.context["view"]
    sheet = next(r for r in view.rows if r.player == n)
    assert all(line.expected is not None for line in sheet.lines)
    assert sheet.expected_sum == sheet.evaluation.expected


def test_player_card_has_no_row_for_the_non_member_tournament(client, tournament_with_non_member):
    n, t, later = tournament_with_non_member
    response = client.get(reverse("ratings:player-detail", args=[n.key]))
    html = response.content.decode()
    assert reverse("ratings:tournament-detail", args=[later.pk]) in html
    assert reverse("ratings:tournament-detail", args=[t.pk]) not in html


def test_print_and_csv_show_the_entry_rating_and_no_dwz(client, tournament_with_non_member):
    _n, t, _later = tournament_with_non_member
    page = client.get(reverse("ratings:tournament-print", args=[t.pk])).content.decode()
    row = page[page.index("Gast, Gustav") :]
    row = row[: row.index("</tr>")]
    assert "(1554)" in row and "Nichtmitglied" in row and "1554-12" not in row
    csv = client.get(reverse("ratings:tournament-evaluation-csv", args=[t.pk])).content.decode("utf-8-sig")
    line = next(line for line in csv.splitlines() if "Gast" in line)
    # No "(1554)" cell, which a spreadsheet opens as -1554: the rating his opponents met is named in words.
    assert ";(1554);" not in line and ";Nichtmitglied (1554);" in line and "1554-12" not in line
