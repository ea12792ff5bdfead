"""TRF export: GER lines, and the round trip on the real files (export → import into an empty database →
the same games, the same byes, the same evaluation)."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from ratings.enums import AdjustmentKind
from ratings.exports import spreadsheet_safe
from ratings.formats.trf import read_trf
from ratings.models import Club, Evaluation, Membership, Organisation, Player, RatingAdjustment, Tournament
from ratings.selectors.tournament_export import evaluation_csv_rows, tournament_standings, trf_export
from ratings.selectors.trf_import import decisions_from_matches, head_from_file, trf_match, trf_read
from ratings.services import adjustment_save
from ratings.services.trf_import import trf_save
from tests.builders import player_line, trf

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data" / "trf"


def _import(data: bytes) -> Tournament:
    t = trf_read(data)
    head = head_from_file(t)
    return trf_save(
        tournament=t, head=head, decisions=decisions_from_matches(trf_match(t), create_unknown=True)
    ).tournament


def _state(tournament: Tournament):
    """Games, byes and evaluation by start rank (keys may differ between databases)."""
    rank = dict(tournament.entries.values_list("player_id", "start_rank"))
    games = sorted(
        (g.round, rank[g.white_id], rank.get(g.black_id), g.result) for g in tournament.games.all()
    )
    evaluation = sorted(
        (
            rank[e.player_id],
            e.status,
            e.dwz_old,
            e.index_old,
            e.n,
            e.points,
            e.expected,
            e.coefficient,
            e.level,
            e.performance,
            e.dwz_new,
            e.index_new,
            e.fide_takeover,
        )
        for e in Evaluation.objects.filter(tournament=tournament)
    )
    return games, evaluation


def _wipe():
    Tournament.objects.all().delete()
    RatingAdjustment.objects.all().delete()
    Membership.objects.all().delete()
    Player.objects.all().delete()


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.trf")))
def test_round_trip_of_real_files(name):
    first = _import((DATA / name).read_bytes())
    before = _state(first)
    text = trf_export(tournament=first)
    assert text.endswith("\r\n") and "012 " in text and "XXR" in text
    _wipe()
    again = _import(text.encode("utf-8"))
    assert _state(again) == before
    assert (again.name, again.start_date, again.end_date, again.rounds) == (
        first.name,
        first.start_date,
        first.end_date,
        first.rounds,
    )


def test_ger_lines_carry_dwz_before_index_and_dsb_id():
    lv = Organisation.objects.create(code="C00", name="Württemberg")
    club = Club.objects.create(zps="C0505", name="SK Muster", organisation=lv)
    nu = Player.objects.create(
        key="NU4005017",
        surname="Muster",
        first_name="Max",
        birth_year=1963,
        sex="m",
        fide_id=4612345,
        fide_elo=2105,
        fide_title="FM",
        fide_federation="GER",
    )
    adjustment_save(adjustment=RatingAdjustment(player=nu, kind=AdjustmentKind.START, dwz=1802, index=45))
    member = Player.objects.create(key="X-1", surname="Beispiel", first_name="Erika", sex="w")
    Membership.objects.create(player=member, club=club, member_number="1043")
    t = trf_read(
        trf(
            player_line(1, "Muster, Max", [(2, "w", "1")], birth="1963"),
            player_line(2, "Beispiel, Erika", [(1, "b", "0")]),
        )
    )
    decisions = decisions_from_matches(trf_match(t))
    decisions[2] = type(decisions[1])(player_id=member.pk)
    saved = trf_save(tournament=t, head=head_from_file(t), decisions=decisions).tournament
    text = trf_export(tournament=saved)
    lines = text.split("\r\n")
    one = next(line for line in lines if line.startswith("001    1"))
    assert (
        one[10:13] == " FM"
        and one[48:52] == "2105"
        and one[57:68] == "    4612345"
        and one[69:79] == "1963/00/00"
    )
    ger = lines[lines.index(one) + 1]
    assert (
        ger[:8] == "GER    1" and ger[10:13] == " 45" and ger[48:52] == "1802" and ger[57:68] == "  NU4005017"
    )
    two = lines[lines.index(one) + 2]
    assert two.startswith("001    2 w")
    assert lines[lines.index(one) + 3].rstrip().endswith("C0505-1043")  # no DSB id: the ZPS-Mitgliedsnummer
    read = read_trf(text.encode())
    assert (
        read.player(1).dwz == 1802
        and read.player(1).dwz_index == 45
        and read.player(2).person_id == "C0505-1043"
    )
    assert "172 GER NIDOF" in lines and "202 BH,SB" in lines


def test_export_command_by_code_and_id(tmp_path):
    tournament = _import((DATA / "lichess-swiss-2021-03.trf").read_bytes())
    tournament.code = "C026-C05-LI1"
    tournament.save()
    out = io.StringIO()
    target = tmp_path / "out.trf"
    call_command("export_trf", "C026-C05-LI1", "-o", str(target), stderr=out)
    data = target.read_bytes()
    assert data.startswith(b"012 Juni Blitzschach") and b"\r\n" in data
    assert read_trf(data).player(1).computed_points == 7.5
    with pytest.raises(CommandError) as exc:
        call_command("export_trf", "nope")
    assert exc.value.returncode == 2


def test_csv_neutralises_formula_cells():
    assert [spreadsheet_safe(v) for v in ("=1+1", "+49", "-x", "@SUM", "\tx", "\rx", "Müller", 5)] == [
        "'=1+1",
        "'+49",
        "'-x",
        "'@SUM",
        "'\tx",
        "'\rx",
        "Müller",
        5,
    ]
    lv = Organisation.objects.create(code="C00", name="Württemberg")
    club = Club.objects.create(zps="C0505", name="=HYPERLINK(1)", organisation=lv)
    tournament = _import((DATA / "lichess-swiss-2021-03.trf").read_bytes())
    Player.objects.filter(surname="kicia64").update(surname="=cmd|' /C calc'!A0")
    Membership.objects.create(
        player=Player.objects.get(surname__startswith="=cmd"), club=club, member_number="1"
    )
    rows = evaluation_csv_rows(tournament)
    assert rows[0] == [
        "Nr.",
        "Name",
        "Verein",
        "DWZ alt",
        "Index alt",
        "Punkte",
        "Partien",
        "We",
        "E/K",
        "Leistung",
        "Niveau",
        "DWZ neu",
        "Index neu",
        "±",
    ]
    evil = next(r for r in rows if str(r[1]).startswith("'="))
    assert evil[2] == "'=HYPERLINK(1)" and evil[5] == "6"


def test_download_and_print_pages(client):
    tournament = _import((DATA / "lichess-swiss-2020-06.trf").read_bytes())
    response = client.get(reverse("ratings:tournament-trf", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Disposition"].endswith('.trf"')
    assert read_trf(response.content).rounds == 10
    response = client.get(reverse("ratings:tournament-evaluation-csv", args=[tournament.pk]))
    text = response.content.decode("utf-8-sig")
    assert text.splitlines()[0] == (
        "Nr.;Name;Verein;DWZ alt;Index alt;Punkte;Partien;We;E/K;Leistung;Niveau;DWZ neu;Index neu;±"
    )
    page = client.get(reverse("ratings:tournament-print", args=[tournament.pk])).content.decode()
    assert 'id="evaluation-print"' in page and "mattderkuerschner" in page
    page = client.get(reverse("ratings:tournament-print-crosstable", args=[tournament.pk])).content.decode()
    assert 'id="crosstable-print"' in page
    page = client.get(reverse("ratings:tournament-print-progress", args=[tournament.pk])).content.decode()
    assert 'id="progress-print"' in page and "BH" in page
    assert client.get(reverse("ratings:tournament-trf", args=[999999])).status_code == 404


def test_public_page_shows_standings_and_explains_differing_points(client):
    tournament = _import((DATA / "lichess-swiss-2020-06.trf").read_bytes())
    response = client.get(reverse("ratings:tournament-detail", args=[tournament.pk]))
    page = response.content.decode()
    assert 'id="standings-table"' in page and "Buchholz" in page
    # The page builds the placing from the rows it loaded; the exports read it from the database: the same.
    shown = [
        (line["row"].number, line["standing"].rank, line["standing"].values)
        for line in response.context["standings"]
    ]
    stored, _numbers = tournament_standings(tournament)
    assert shown == [(s.player, s.rank, s.values) for s in stored.rows]
    # Nobody has a rating: no game counts for the DWZ, so everybody's rated points differ from the file's.
    assert "Bei 13 Spielern weichen sie von den Turnierpunkten ab" in page
    assert reverse("ratings:tournament-trf", args=[tournament.pk]) in page


def test_the_time_control_goes_from_record_122_to_the_tournament_and_back():
    tournament = _import((DATA / "fide-example1-karl-mala-2005.trf").read_bytes())
    assert tournament.time_control == "40/120, 60"
    tournament.time_control = "90 Min./40 Züge + 30 Min., 30 Sek./Zug"
    tournament.save(update_fields=["time_control"])
    exported = trf_export(tournament=tournament)
    assert "122 90 Min./40 Züge + 30 Min., 30 Sek./Zug" in exported.splitlines()
    assert read_trf(exported.encode()).head.time_control == tournament.time_control
