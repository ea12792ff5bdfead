"""The DSB XML export of stored tournaments: the real TRF files imported, exported, validated against the
XSD, read back and compared with the database; the checks before the export; byes and forfeits."""

import datetime
import uuid
from pathlib import Path

import pytest
from django.db.models import F

from ratings.formats import dsb_xml
from ratings.models import (
    Club,
    Game,
    Membership,
    Organisation,
    Player,
    Tournament,
    TournamentEntry,
    TournamentEntryMode,
)
from ratings.selectors.dsb_xml_export import (
    build_report,
    dsb_export,
    dsb_report,
    export_check,
    load_rows,
    system_version,
)
from ratings.selectors.trf_import import decisions_from_matches, head_from_file, trf_match, trf_read
from ratings.services.trf_import import trf_save

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data"
XSD = (DATA / "dsb-xml" / "DSB_DWZ_TournamentReport-2.5.xsd").read_bytes()
POINTS = {"1": 1, "0.5": 0.5, "0": 0, "+": 1, "-": 0}


def _import(name: str) -> Tournament:
    t = trf_read((DATA / "trf" / name).read_bytes())
    return trf_save(
        tournament=t,
        head=head_from_file(t),
        decisions=decisions_from_matches(trf_match(t), create_unknown=True),
    ).tournament


def _fill_birth_years(tournament: Tournament) -> None:
    Player.objects.filter(entries__tournament=tournament, birth_year__isnull=True).update(birth_year=1990)


@pytest.mark.parametrize("name", sorted(p.name for p in (DATA / "trf").glob("*.trf")))
def test_real_files_export_validate_and_read_back(name):
    tournament = _import(name)
    _fill_birth_years(tournament)
    check, data = dsb_export(tournament=tournament)
    assert check.blocking == [] and data is not None
    assert dsb_xml.schema_problems(data, XSD) == []
    report = dsb_xml.parse(data)
    entries = list(tournament.entries.select_related("player").order_by("start_rank"))
    number = {e.player_id: e.start_rank for e in entries}
    assert [p.number for p in report.players] == [e.start_rank for e in entries]
    assert [(p.surname, p.forename, p.birth_year) for p in report.players] == [
        (e.player.surname, e.player.first_name, e.player.birth_year) for e in entries
    ]
    assert [p.fide_id for p in report.players] == [e.player.fide_id for e in entries]
    games = Game.objects.filter(tournament=tournament).order_by(
        "round", F("board").asc(nulls_last=True), "pk"
    )
    assert len(report.games) == games.count()
    for g, row in zip(report.games, games, strict=True):
        assert (g.round, g.white, g.black) == (row.round, number[row.white_id], number.get(row.black_id))
    t = report.tournament
    assert (t.label, t.start_date, t.end_date, t.type) == (
        tournament.name,
        tournament.start_date,
        tournament.end_date,
        {"swiss": "SW", "rr": "SR"}[TournamentEntryMode.objects.get(tournament=tournament).mode],
    )
    assert t.rounds >= max(g.round for g in report.games)
    assert report.header.system == f"dwzsite {system_version()}".strip()
    # points per player as stored (byes and forfeits with their points)
    scored: dict[int, float] = {}
    for g in report.games:
        for side, point in ((g.white, g.point_white), (g.black, g.point_black)):
            if side is not None:
                scored[side] = scored.get(side, 0) + POINTS[point]
    assert sum(scored.values()) > 0


def test_missing_birth_years_block_the_export_and_name_the_players():
    tournament = _import("fide-example1-karl-mala-2005.trf")
    Player.objects.filter(entries__tournament=tournament).update(birth_year=None)
    check, data = dsb_export(tournament=tournament)
    assert data is None and not check.exportable
    birth = check.items[0]
    assert birth.blocking and len(birth.problems) == tournament.entries.count()
    assert all("hat kein Geburtsjahr" in line for line in birth.problems)
    assert all(not item.problems for item in check.items[1:3])


def _small():
    lv = Organisation.objects.create(code="C00", name="Württembergischer Schachbund")
    club = Club.objects.create(zps="C0505", name="SK Muster", organisation=lv)
    a = Player.objects.create(
        key="NU100", dsb_id="NU100", surname="Müller", first_name="Jörg", birth_year=1970, sex="m"
    )
    b = Player.objects.create(
        key="C0505-7",
        surname="Weiß",
        first_name="Anna",
        birth_year=1985,
        sex="w",
        fide_id=4612345,
        fide_elo=2105,
    )
    c = Player.objects.create(key="X-3", surname="Schulz", first_name="Eva", birth_year=2001)
    Membership.objects.create(player=b, club=club, member_number="0007")
    t = Tournament.objects.create(
        name="Maiturnier",
        place="Ulm",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 3),
        rounds=3,
        organiser_club=club,
        time_control="90/40+30+30s",
    )
    for rank, p in enumerate((a, b, c), start=1):
        TournamentEntry.objects.create(tournament=t, player=p, start_rank=rank)
    Game.objects.create(tournament=t, round=1, board=1, white=a, black=b, result="1-0")
    Game.objects.create(tournament=t, round=1, white=c, black=None, result="+")
    Game.objects.create(tournament=t, round=2, board=1, white=b, black=c, result="-+")
    Game.objects.create(tournament=t, round=2, white=a, black=None, result="H")
    Game.objects.create(tournament=t, round=3, board=1, white=c, black=a, result="1/2-1/2")
    Game.objects.create(tournament=t, round=3, white=b, black=None, result="Z")
    return t


def test_players_games_byes_and_forfeits_as_section_3_10_wants_them():
    t = _small()
    report = dsb_report(tournament=t, now=datetime.datetime(2026, 5, 4, 20, 15, tzinfo=datetime.UTC))
    one, two, _three = report.players
    assert (one.dsb_id, one.vkz, one.member_number, one.sex) == ("NU100", "", None, "m")
    assert (two.dsb_id, two.vkz, two.member_number, two.club, two.fide_id, two.fide_rating, two.sex) == (
        "",
        "C0505",
        7,
        "SK Muster",
        4612345,
        2105,
        "w",
    )
    assert [(g.round, g.white, g.black, g.point_white, g.point_black, g.kind) for g in report.games] == [
        (1, 1, 2, "1", "0", "played"),
        (1, 3, None, "+", "-", "bye"),
        (2, 2, 3, "-", "+", "forfeit"),
        (2, 1, None, "0.5", "0", "bye"),
        (3, 3, 1, "0.5", "0.5", "played"),
        (3, 2, None, "0", "0", "bye"),
    ]
    assert report.tournament.location == "Ulm" and report.tournament.time_control == "90/40+30+30s"
    assert report.header.sender == "Württembergischer Schachbund"
    assert report.tournament.uuid == dsb_xml.tournament_uuid(f"tournament:{t.pk}")
    assert export_check(report=report).blocking == []
    assert dsb_xml.schema_problems(dsb_xml.write(report), XSD) == []


def test_a_portal_uuid_is_the_tournament_uuid_and_a_stored_one_wins():
    t = _small()
    t.code = "019f75b9-af1b-77c0-8e1a-3c5d2b7f9a10"
    t.save()
    assert dsb_report(tournament=t).tournament.uuid == uuid.UUID(t.code)
    Tournament.objects.filter(pk=t.pk).update(xml_uuid=uuid.UUID(int=5))
    assert dsb_report(tournament=t).tournament.uuid == uuid.UUID(int=5)


def test_load_rows_is_five_queries_for_any_number(django_assert_num_queries):
    tournaments = [_small()]
    tournaments[0].refresh_from_db()
    with django_assert_num_queries(5):
        rows = load_rows(tournaments=tournaments)
    with django_assert_num_queries(0):
        report = build_report(rows[tournaments[0].pk])
    assert len(report.players) == 3


def test_duplicate_dsb_id_is_advice_only():
    t = _small()
    Player.objects.filter(key="X-3").update(key="NU100X")  # the key is no id; nothing doubled
    check, data = dsb_export(tournament=t)
    assert data is not None and check.advice == []
    assert [item.problems for item in check.items] == [[], [], [], [], [], []]


@pytest.mark.parametrize(("system", "expected"), [("round_robin", "TR"), ("swiss", "TW")])
def test_a_league_division_is_a_team_tournament(system, expected):
    from leagues.models import Division, DivisionPart, Season

    t = _small()
    season = Season.objects.create(name="2025/26", reference_date=datetime.date(2025, 8, 1))
    division = Division.objects.create(season=season, name="Bezirksliga", rounds=7, system=system)
    DivisionPart.objects.create(division=division, tournament=t)
    assert dsb_report(tournament=t).tournament.type == expected
