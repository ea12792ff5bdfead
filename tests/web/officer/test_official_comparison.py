"""The officers' Abgleich pages (issue 28 §3): the imports, one import's differences in the officer's area
with cause filter, club filter and pages, the CSV of the same rows, the verdict on the tournament page and
the count on the admin's import page."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import ListImport, ListImportStatus, OfficialDifference
from tests.builders import make_user
from tests.factories import PlayerFactory
from tests.official_planted import members_of, plant, store

pytestmark = pytest.mark.django_db


@pytest.fixture
def planted(tree):
    """The three planted causes, every player a member of club A (Bezirk Stuttgart)."""
    result = plant()
    members_of(tree["club_a"], result.world.players)
    store(result)
    return result


def page_url(list_import, **query):
    url = reverse("ratings:official-comparison", args=[list_import.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def csv_rows(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def test_the_three_planted_causes_are_on_the_page(login, users, planted):
    client = login(users["officer_lv"])
    response = client.get(page_url(planted.list_import))
    assert response.status_code == 200
    html = response.content.decode()
    rows = response.context["rows"]
    causes = {r["cause"] for r in rows}
    assert causes == {"ours_extra", "dsb_extra", "chain_parts"}
    missing = planted.world.tournaments[planted.missing]
    by_key = {r["player"].key: r for r in rows}
    for p in missing.entries.select_related("player"):
        assert [t["name"] for t in by_key[p.player.key]["tournaments"]] == ["T12"]
    assert f'href="/turniere/{missing.pk}/"' in html  # the tournament named links to its page
    for p in planted.dsb_only:
        assert by_key[p.key]["cause_label"] == "beim DSB mehr"
    for p in planted.pair:
        assert [t["name"] for t in by_key[p.key]["tournaments"]] == ["T02"]
    assert "hier mehr" in html and "Kette" in html
    assert rows[0]["cause"] == "ours_extra" and rows[-1]["cause"] == "chain_parts"  # by cause


def test_the_csv_holds_the_same_rows(login, users, planted):
    client = login(users["officer_lv"])
    response = client.get(reverse("ratings:official-comparison-csv", args=[planted.list_import.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="abgleich-2025-12-01-' in response["Content-Disposition"]
    table = csv_rows(response)
    assert table[0] == [
        "Spieler",
        "Schlüssel",
        "DSB DWZ",
        "DSB Index",
        "dwzsite DWZ",
        "dwzsite Index",
        "KW",
        "Ursache",
        "Turnier(e)",
        "Hinweis",
    ]
    body = table[1:]
    assert len(body) == OfficialDifference.objects.count()
    assert {row[7] for row in body} == {"hier mehr", "beim DSB mehr", "Kette"}
    missing = planted.world.tournaments[planted.missing]
    assert any(row[8] == f"T12 ({missing.end_date:%d.%m.%Y})" for row in body)
    assert any(row[8].startswith("T02 (") for row in body)
    # Nothing a German spreadsheet would open as a date: DWZ and index apart, the week as 2025-W48.
    assert all(re.fullmatch(r"[0-9]{4}-W[0-9]{2}", row[6]) or row[6] == "" for row in body)
    for row in body:
        for cell in row[2:6]:
            assert cell == "" or cell.isdigit(), row
    assert any(row[2] and row[4] for row in body)


def test_the_csv_follows_the_filter_and_keeps_formulas_out(login, users, planted):
    victim = planted.dsb_only[0]
    victim.surname = "=HYPERLINK(1)"
    victim.save(update_fields=["surname"])
    client = login(users["officer_lv"])
    url = reverse("ratings:official-comparison-csv", args=[planted.list_import.pk]) + "?ursache=dsb_extra"
    body = csv_rows(client.get(url))[1:]
    assert len(body) == 4 and {row[7] for row in body} == {"beim DSB mehr"}
    assert any(row[0].startswith("'=HYPERLINK(1)") for row in body)


def test_an_officer_of_another_bezirk_sees_nothing(login, tree, planted):
    other = make_user("bezirk_ulm", organisation=tree["bezirk_b"])
    client = login(other)
    response = client.get(page_url(planted.list_import))
    assert response.status_code == 200
    assert response.context["rows"] == []
    assert "Keine Abweichungen in Ihrem Bereich." in response.content.decode()
    csv_response = client.get(reverse("ratings:official-comparison-csv", args=[planted.list_import.pk]))
    assert csv_rows(csv_response)[1:] == []
    imports = client.get(reverse("ratings:official-comparisons"))
    assert [li.area_differences for li in imports.context["imports"]] == [None]
    assert "0 Abweichungen" in imports.content.decode()


def test_the_area_is_the_officers_club_or_subtree(login, users, tree, planted):
    """Two players move to club B: its officer sees just those two, club A's officer the others."""
    moved = planted.pair
    for p in moved:
        p.memberships.update(valid_until=datetime.date(2025, 12, 1))
    members_of(tree["club_b"], moved, first=100)
    in_b = login(users["officer_b"]).get(page_url(planted.list_import)).context["rows"]
    assert {r["player"].pk for r in in_b} == {p.pk for p in moved}
    in_a = login(users["officer_a"]).get(page_url(planted.list_import)).context["rows"]
    assert not {r["player"].pk for r in in_a} & {p.pk for p in moved}
    everyone = login(users["admin"]).get(page_url(planted.list_import)).context["page"].paginator.count
    assert everyone == OfficialDifference.objects.count() == len(in_a) + 2


def test_filters_by_cause_and_club(login, users, tree, planted):
    client = login(users["officer_lv"])
    rows = client.get(page_url(planted.list_import, ursache="ours_extra")).context["rows"]
    assert len(rows) == 4 and {r["cause"] for r in rows} == {"ours_extra"}
    by_club = client.get(page_url(planted.list_import, verein=tree["club_a"].pk)).context["page"]
    assert by_club.paginator.count == OfficialDifference.objects.count()
    assert client.get(page_url(planted.list_import, verein=tree["club_b"].pk)).status_code == 200


@pytest.mark.parametrize(
    "query", ["ursache=nonsense", "verein=abc", "verein=999999", "seite=-3", "seite=x", "seite=99999"]
)
def test_bad_filter_values_answer_with_the_page(login, users, planted, query):
    response = login(users["officer_lv"]).get(page_url(planted.list_import) + "?" + query)
    assert response.status_code == 200
    if query.startswith(("ursache", "verein")):
        assert "is-invalid" in response.content.decode()


def test_who_may_see_it(client, login, users, planted):
    url = page_url(planted.list_import)
    assert client.get(url).status_code == 302  # to the login page
    assert login(users["member"]).get(url).status_code == 403
    assert (
        login(users["officer_a"]).get(reverse("ratings:official-comparison", args=[999999])).status_code
        == 404
    )


def _stored(list_import, club, count, *, first=500):
    players = [PlayerFactory(surname=f"Spieler{i:02d}") for i in range(count)]
    members_of(club, players, first=first)
    OfficialDifference.objects.bulk_create(
        OfficialDifference(
            list_import=list_import,
            player=p,
            cause="chain_parts" if i % 2 else "ours_extra",
            official_dwz=1500,
            official_index=10,
            official_week="202548",
            window_end=datetime.date(2025, 11, 30),
            our_dwz=1510,
            our_index=10 + i % 2,
            tournaments=[{"id": 1, "name": "Turnier", "code": "", "date": "2025-11-30"}],
            message="DSB 1500-10, dwzsite 1510-10",
        )
        for i, p in enumerate(players)
    )


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_page_takes_a_fixed_number_of_queries(login, users, tree):
    one = ListImport.objects.create(file_name="a.zip", as_of=datetime.date(2025, 12, 1), status="done")
    twenty = ListImport.objects.create(file_name="b.zip", as_of=datetime.date(2026, 1, 1), status="done")
    for li in (one, twenty):
        li.summary = {"abgleich": {"differences": 0}}
        li.save()
    _stored(one, tree["club_a"], 1)
    _stored(twenty, tree["club_a"], 20, first=600)
    client = login(users["officer_lv"])
    client.get(page_url(one))  # the session's first request
    assert len(client.get(page_url(twenty)).context["rows"]) == 20
    assert _queries(client, page_url(one)) == _queries(client, page_url(twenty))
    filtered = page_url(twenty, ursache="ours_extra", verein=tree["club_a"].pk)
    assert _queries(client, filtered) == _queries(client, page_url(one)) + 1  # the club chosen, validated
    lists = reverse("ratings:official-comparisons")
    assert [li.area_differences for li in client.get(lists).context["imports"]] == [20, 1]


def test_pages_of_fifty(login, users, tree):
    li = ListImport.objects.create(
        file_name="a.zip", as_of=datetime.date(2025, 12, 1), status=ListImportStatus.DONE
    )
    _stored(li, tree["club_a"], 60)
    client = login(users["officer_lv"])
    first = client.get(page_url(li, ursache="ours_extra"))
    assert len(first.context["rows"]) == 30 and not first.context["page"].has_other_pages()
    page_two = client.get(page_url(li, seite=2))
    assert len(page_two.context["rows"]) == 10
    assert "ursache=&amp;verein=&amp;seite=1" not in page_two.content.decode()
    assert 'href="?seite=1"' in page_two.content.decode()


def test_the_tournament_page_shows_its_verdict_to_officers(client, login, users, planted):
    t02 = planted.world.tournaments["T02"]
    html = login(users["officer_a"]).get(t02.get_absolute_url()).content.decode()
    assert 'id="official-verdict" data-state="differs"' in html
    assert "abweichend" in html
    for p in planted.pair:
        assert f'href="/spieler/{p.key}/"' in html
    t00 = planted.world.tournaments["T00"]
    assert 'data-state="confirmed"' in login(users["officer_a"]).get(t00.get_absolute_url()).content.decode()
    client.logout()
    assert "official-verdict" not in client.get(t02.get_absolute_url()).content.decode()


def test_the_admin_import_page_shows_the_count_and_links_the_page(login, users, planted):
    client = login(users["admin"])
    response = client.get(reverse("admin:ratings_listimport_change", args=[planted.list_import.pk]))
    html = response.content.decode()
    counts = planted.list_import.summary["abgleich"]
    assert f"Abgleich: {counts['differences']} Abweichungen (4 hier mehr, 4 beim DSB mehr" in html
    assert page_url(planted.list_import) in html


def test_the_dashboard_links_the_abgleich(login, users):
    html = login(users["officer_a"]).get(reverse("ratings:officer-dashboard")).content.decode()
    assert reverse("ratings:official-comparisons") in html


def test_the_page_and_csv_in_english(login, users, planted):
    client = login(users["officer_lv"])
    client.cookies["django_language"] = "en"
    html = client.get(page_url(planted.list_import)).content.decode()
    assert "Comparison with the DSB list of 01.12.2025" in html
    assert "more here" in html and "more at the DSB" in html and "chain" in html
    csv_response = client.get(reverse("ratings:official-comparison-csv", args=[planted.list_import.pk]))
    assert csv_rows(csv_response)[0][6:9] == ["Week", "Cause", "Tournament(s)"]
