"""A division's files: the table as German CSV, TRF26 with team records (013), the DSB XML 2.5 of the
division and of a part (valid against the XSD, TR, the team in ``club``, per-game dates); a report that
cannot be written answers 409 with the problem named."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.urls import reverse
from lxml import etree

from leagues.exports import dsb_xml_of, trf_text_of
from leagues.models import DivisionPart
from leagues.selectors.divisions import division_data
from ratings.formats import dsb_xml
from ratings.formats.trf import read_trf
from tests.leagues.league_builders import small_division

pytestmark = pytest.mark.django_db
XSD = Path(__file__).resolve().parent.parent / "data" / "dsb-xml" / "DSB_DWZ_TournamentReport-2.5.xsd"
NS = {"d": dsb_xml.NAMESPACE}


@pytest.fixture
def league():
    return small_division()


def test_table_csv(client, league):
    response = client.get(reverse("leagues:division-table-csv", args=[league.division.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="Kreisklasse-S-d-2025-26-tabelle.csv"' in response["Content-Disposition"]
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeffRang;Mannschaft;")
    lines = text.lstrip("\ufeff").splitlines()
    # Berliner Wertung, 2 boards (board 1 counts 2): D R1 1×2, R2 1×2 + 1×1, R3 ½×2 + 1×1 = 7; B ½×1 = ½.
    assert lines[1] == "1;SF Delta 1;3;2;1;0;5;4,5;7;"
    assert lines[4] == "4;SV Beta 1;2;0;0;2;0;0,5;0,5;"


def test_trf_with_team_records(client, league):
    response = client.get(reverse("leagues:division-trf", args=[league.division.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    lines = text.split("\r\n")
    team_lines = [line for line in lines if line.startswith("013 ")]
    # Teams in the table's order, start numbers team by team, by the board first played.
    assert team_lines[0] == "013 " + "SF Delta 1".ljust(32) + "   1    2"
    assert team_lines[0][36:40] == "   1" and team_lines[0][41:45] == "   2"
    assert [line[4:36].strip() for line in team_lines] == [
        "SF Delta 1",
        "SK Alpha 1",
        "SC Gamma 1",
        "SV Beta 1",
    ]
    assert team_lines[2] == "013 " + "SC Gamma 1".ljust(32) + "   5"  # C1 never sat at a board
    assert "082 4" in lines
    trf = read_trf(text)
    assert len(trf.players) == 7 and len(trf.rated_games) == 7
    assert trf.head.name == "Kreisklasse Süd 2025/26"


def test_dsb_xml_of_the_division_validates(client, league):
    response = client.get(reverse("leagues:division-xml", args=[league.division.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    body = response.content
    assert dsb_xml.schema_problems(body, XSD.read_bytes()) == []
    root = etree.fromstring(body)
    assert root.findtext("d:tournament/d:tournamentType", namespaces=NS) == "TR"
    assert root.findtext("d:tournament/d:endDate", namespaces=NS) == "2025-10-26"
    clubs = {
        p.findtext("d:surname", namespaces=NS): p.findtext("d:club", namespaces=NS)
        for p in root.iterfind("d:players/d:player", NS)
    }
    assert clubs["Delta1"] == "SF Delta 1" and clubs["Gamma2"] == "SC Gamma 1"
    dates = [g.findtext("d:date", namespaces=NS) for g in root.iterfind("d:games/d:game", NS)]
    assert dates == ["2025-09-14"] * 3 + ["2025-10-05"] * 2 + ["2025-10-26"] * 2
    report = dsb_xml.parse(body)
    assert len(report.rated_games) == 7


def test_dsb_xml_of_a_part(client, league):
    division = league.division
    DivisionPart.objects.create(
        division=division, number=2, from_date=datetime.date(2025, 10, 1), from_round=2
    )
    data = division_data(pk=division.pk, players=True)
    first, second = data.parts
    report = dsb_xml.parse(dsb_xml_of(data, part=second))
    assert {g.date for g in report.games} == {datetime.date(2025, 10, 5), datetime.date(2025, 10, 26)}
    assert report.tournament.label == "Kreisklasse Süd 2025/26 (Teil 2)"
    assert len(dsb_xml.parse(dsb_xml_of(data, part=first)).games) == 3
    response = client.get(reverse("leagues:division-xml", args=[division.pk]) + "?teil=2")
    assert response.status_code == 200 and dsb_xml.schema_problems(response.content, XSD.read_bytes()) == []
    url = reverse("leagues:division-xml", args=[division.pk])
    for bad in ("7", "x", "9" * 1000):
        assert client.get(url, {"teil": bad}).status_code == 404
    assert client.get(url, {"teil": "\x00"}).status_code == 400  # the NUL byte middleware
    assert "dsb.xml?teil=2" in client.get(reverse("leagues:division", args=[division.pk])).content.decode()


def test_report_without_birth_years_is_refused_with_the_reason(client, db):
    league = small_division(birth_years=False)
    response = client.get(reverse("leagues:division-xml", args=[league.division.pk]))
    assert response.status_code == 409
    assert "Geburtsjahr" in response.content.decode()
    assert trf_text_of(division_data(pk=league.division.pk, players=True))  # TRF has no such requirement


def test_unknown_division_is_a_404(client, db):
    for name in ("leagues:division-table-csv", "leagues:division-trf", "leagues:division-xml"):
        assert client.get(reverse(name, args=[999])).status_code == 404


def test_league_part_export_has_the_officers_tournament_uuid(client, db):
    from leagues.services.division_tournament import division_evaluate
    from leagues.services.matches import BoardReport, match_approve, match_report_save
    from ratings.selectors.dsb_xml_export import dsb_report, tournament_xml_uuid
    from tests.leagues.league_data import small_league

    league = small_league(boards=4)
    m = league["match1"]
    home, away = league["players"]
    boards = [BoardReport(n, home[n - 1].pk, away[n - 1].pk, "1-0") for n in range(1, 5)]
    match_report_save(match=m, boards=boards, user=league["captain1"])
    match_approve(match=m, user=league["director"])
    division = league["division"]
    part = DivisionPart.objects.select_related("tournament").get(division=division, number=1)
    url = reverse("leagues:division-xml", args=[division.pk])
    draft = dsb_xml.parse(client.get(url + "?teil=1").content).tournament.uuid  # the tournament is a draft
    assert draft == tournament_xml_uuid(part.tournament)
    division_evaluate(division=division, user=league["officer"])
    part.tournament.refresh_from_db()
    officer = dsb_report(tournament=part.tournament).tournament.uuid
    public = dsb_xml.parse(client.get(url + "?teil=1").content).tournament.uuid
    whole = dsb_xml.parse(client.get(url).content).tournament.uuid  # a division of one part is that part
    assert public == officer == whole == draft


def test_league_table_csv_header_in_english(client, league):
    from django.utils import translation

    from leagues.exports import table_csv_rows

    with translation.override("en"):
        header = table_csv_rows(division_data(pk=league.division.pk))[0]
    assert header[:3] == ["Rank", "Team", "Matches"] and header[-1] == "withdrawn"
    with translation.override("de"):
        assert table_csv_rows(division_data(pk=league.division.pk))[0][0] == "Rang"
