"""Importing the DSB list (spec/formats.md §3, dwz-rules.md §16) through the service and the command."""

from __future__ import annotations

import dataclasses
import datetime
import io
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.enums import AdjustmentKind
from ratings.folding import name_sort_key
from ratings.formats.dsb_list import read_list_bytes, write_zip
from ratings.models import (
    Club,
    Evaluation,
    Membership,
    OfficialRating,
    Organisation,
    Player,
    RatingAdjustment,
)
from ratings.recalculation import ratings_verify
from ratings.services import dsb_list
from ratings.services.dsb_list import UMSTUFUNG_DATE, dsb_list_import
from tests.builders import round_robin, save_tournament
from tests.dsb_lists import generate

pytestmark = pytest.mark.django_db

AS_OF = datetime.date(2026, 3, 1)


def _import(generated, *, as_of=AS_OF, **kwargs):
    dsb_list = read_list_bytes(generated.zip_bytes(**kwargs.pop("zip", {})), "LV-0-csv.zip")
    return dsb_list_import(dsb_list=dsb_list, as_of=as_of, **kwargs)


def _row(generated, member_number):
    return next(r for r in generated.players if r.member_number == member_number)


def _state():
    """Every row the import writes, by stable values."""
    return {
        "players": sorted(
            Player.objects.values_list(
                "key",
                "dsb_id",
                "surname",
                "first_name",
                "sex",
                "birth_year",
                "fide_id",
                "fide_elo",
                "fide_title",
                "status",
                "dwz",
                "index",
            )
        ),
        "memberships": sorted(
            Membership.objects.values_list(
                "player__key", "club__zps", "member_number", "status", "valid_from", "valid_until"
            )
        ),
        "clubs": sorted(Club.objects.values_list("zps", "name", "organisation__code")),
        "organisations": sorted(Organisation.objects.values_list("code", "name", "parent__code")),
        "official": sorted(OfficialRating.objects.values_list("player__key", "as_of", "dwz", "index")),
        "adjustments": sorted(
            RatingAdjustment.objects.values_list("player__key", "kind", "date", "dwz", "index")
        ),
    }


def test_import_creates_the_federation_players_memberships_and_start_values():
    generated = generate(200, seed=1)
    report = _import(generated)
    assert report.exit_code == 0
    assert report.counts["created"] == 200 and report.counts["rejected"] == 0
    # one player per person id, one membership per row
    ids = {r.person_id for r in generated.players}
    assert Player.objects.count() == len(ids) == report.players_created
    assert Membership.objects.count() == 200
    muster = Player.objects.get(dsb_id=_row(generated, "0901").person_id)
    assert muster.dsb_id.startswith("NU") and muster.key == muster.dsb_id
    assert sorted(muster.memberships.values_list("status", flat=True)) == ["A", "P"]
    assert (muster.dwz, muster.index, muster.fide_elo, muster.fide_id) == (1802, 45, 1850, 4711)
    assert muster.status == "A"
    # primary club: A over P
    primary = Membership.objects.filter(player=muster).primary_first().first()
    assert primary.status == "A"
    # member numbers 0000 / 0: the membership is stored without a number
    assert Membership.objects.filter(member_number="").count() == 2
    # no DWZ (0/0): no start value
    erika = Player.objects.get(dsb_id=_row(generated, "0903").person_id)
    assert erika.dwz is None and not erika.adjustments.exists()
    doctor = Player.objects.get(dsb_id=_row(generated, "0904").person_id)
    assert (doctor.surname, doctor.first_name) == ("Schröder", "Hans-Peter")
    # the tree: clubs below their district, districts below their Landesverband, below the DSB
    club = Club.objects.select_related("organisation__parent__parent").get(zps=generated.players[0].zps)
    assert club.organisation.code == club.zps[:3]
    assert Organisation.objects.get(code="000").parent is None
    assert Organisation.objects.get(code="101").parent.code == "100"
    # pseudo-clubs are federations, not clubs
    assert not Club.objects.filter(zps__endswith="000").exists()
    # the official values as of the list date, and start values where there is no history
    assert OfficialRating.objects.filter(as_of=AS_OF).count() == len(ids)
    start = RatingAdjustment.objects.get(player=muster, kind=AdjustmentKind.START)
    assert (start.dwz, start.index, start.date) == (1802, 45, None)
    assert ratings_verify() == []


def test_reimporting_the_same_list_changes_nothing():
    generated = generate(150, seed=2)
    _import(generated)
    before = _state()
    report = _import(generated)
    assert _state() == before
    assert report.counts["unchanged"] == 150
    assert report.counts["created"] == report.counts["updated"] == 0
    assert report.memberships_ended == 0 and report.recalculation is None


def test_a_newer_list_updates_names_clubs_and_status_and_ends_memberships():
    generated = generate(120, seed=3)
    _import(generated)
    rows = generated.players
    moved, renamed, passive, gone = rows[10], rows[11], rows[12], rows[13]
    other_club = next(c for c in generated.clubs if c.zps != moved.zps and not c.zps.endswith("00"))
    newer = dataclasses.replace(generated)
    newer.players = [
        dataclasses.replace(moved, zps=other_club.zps, member_number="7777"),
        dataclasses.replace(renamed, surname="Neuname"),
        dataclasses.replace(passive, status="P"),
        *(r for r in rows if r not in (moved, renamed, passive, gone)),
    ]
    later = datetime.date(2026, 9, 1)
    report = _import(newer, as_of=later)
    assert report.exit_code == 0
    old = Membership.objects.get(player__dsb_id=moved.person_id, club__zps=moved.zps)
    assert old.valid_until == later  # ended, not deleted
    new = Membership.objects.get(player__dsb_id=moved.person_id, club__zps=other_club.zps)
    assert (new.member_number, new.valid_from, new.valid_until) == ("7777", later, None)
    assert Player.objects.get(dsb_id=renamed.person_id).surname == "Neuname"
    assert Membership.objects.get(player__dsb_id=passive.person_id, valid_until=None).status == "P"
    ended = Membership.objects.get(player__dsb_id=gone.person_id)
    assert ended.valid_until == later
    assert report.memberships_ended >= 2
    # re-joining the club later makes a new membership; the history keeps the old one
    report = _import(generated, as_of=datetime.date(2026, 12, 1))
    assert Membership.objects.filter(player__dsb_id=gone.person_id).count() == 2
    assert Membership.objects.filter(player__dsb_id=gone.person_id, valid_until=None).count() == 1


def test_players_with_history_are_compared_never_overwritten():
    generated = generate(60, seed=4)
    _import(generated)
    rng = random.Random(1)
    rated = list(Player.objects.filter(dwz__isnull=False).order_by("pk")[:6])
    save_tournament(rated, round_robin(rated, rng), end=datetime.date(2026, 4, 20))
    after_tournament = {p.pk: (p.dwz, p.index) for p in Player.objects.filter(pk__in=[p.pk for p in rated])}
    # the next list still carries the values from before the tournament
    report = _import(generated, as_of=datetime.date(2026, 5, 1))
    assert {
        p.pk: (p.dwz, p.index) for p in Player.objects.filter(pk__in=after_tournament)
    } == after_tournament
    differences = [i for i in report.items if i.outcome == "difference"]
    changed = {pk for pk, (dwz, index) in after_tournament.items()}
    assert {i.key for i in differences} == set(
        Player.objects.filter(pk__in=changed).values_list("key", flat=True)
    )
    assert "DSB-Liste" in differences[0].detail and "01.05.2026" in differences[0].detail
    # the same list as of a date before the tournament agrees with dwzsite
    report = _import(generated, as_of=datetime.date(2026, 4, 1))
    assert report.differences == 0
    assert ratings_verify() == []


def test_rejected_rows_write_nothing_of_themselves_and_exit_1(tmp_path):
    generated = generate(40, seed=5)
    data = generated.zip_bytes()
    dsb_list = read_list_bytes(data, "x.zip")
    header, *lines = (
        __import__("zipfile").ZipFile(io.BytesIO(data)).read("spieler.csv").decode("cp1252").split("\r\n")
    )
    bad = lines[5].split(",")
    bad[1] = "C050"  # a 4-character ZPS
    lines[5] = ",".join(bad)
    path = tmp_path / "spieler.csv"
    path.write_bytes("\r\n".join([header, *lines]).encode("cp1252"))
    out = io.StringIO()
    with pytest.raises(CommandError) as error:
        call_command("import_dsb_list", str(path), "--as-of", "2026-03-01", stdout=out)
    assert error.value.returncode == 1
    assert "Zeile 7" in out.getvalue() and "C050" in out.getvalue()
    rejected = dsb_list.players[5]
    assert not Membership.objects.filter(
        club__zps=rejected.zps, member_number=rejected.member_number or "-"
    ).exists()
    assert Membership.objects.count() == 39


def test_a_list_that_cannot_be_used_writes_nothing_and_exits_2(tmp_path):
    path = tmp_path / "spieler.csv"
    path.write_bytes(b"ID,ZPS,Name\r\nNU1,C0505,Muster\r\n")
    with pytest.raises(CommandError) as error:
        call_command("import_dsb_list", str(path), stdout=io.StringIO())
    assert error.value.returncode == 2
    assert "Mgl-Nr" in str(error.value)
    assert not Player.objects.exists() and not Organisation.objects.exists()


def test_dry_run_writes_nothing(tmp_path):
    path = tmp_path / "LV-0-csv_20260301.zip"
    path.write_bytes(generate(30, seed=6).zip_bytes())
    out = io.StringIO()
    call_command("import_dsb_list", str(path), "--dry-run", stdout=out)
    assert "30 angelegt" in out.getvalue() and "Probelauf" in out.getvalue()
    assert not Player.objects.exists() and not Club.objects.exists()


def test_command_writes_the_full_report_as_csv(tmp_path):
    path = tmp_path / "LV-0-csv_20260301.zip"
    path.write_bytes(generate(30, seed=6).zip_bytes())
    report = tmp_path / "report.csv"
    call_command("import_dsb_list", str(path), "--report", str(report), stdout=io.StringIO())
    text = report.read_text(encoding="utf-8-sig")
    assert text.splitlines()[0] == "Ergebnis,Zeile,Schlüssel,Name,Hinweis"
    assert len(text.splitlines()) == 31 and "angelegt" in text


def test_generation_1_matches_by_name_birth_year_and_club():
    generated = generate(50, seed=7, id_kind="none")
    _import(generated, zip={"generation": "1"})
    before = _state()
    report = _import(generated, zip={"generation": "1"})
    assert report.counts["unchanged"] == 50
    assert _state() == before
    assert Player.objects.filter(dsb_id__isnull=True).count() == Player.objects.count()


def test_a_typed_in_player_is_found_by_his_membership_and_gets_the_dsb_id():
    generated = generate(40, seed=8)
    row = generated.players[7]
    from tests.factories import ClubFactory, OrganisationFactory

    club = ClubFactory(zps=row.zps, organisation=OrganisationFactory(code=row.zps[:3]))
    typed = Player.objects.create(key=f"{row.zps}-{row.member_number}", surname=row.surname, first_name="X")
    Membership.objects.create(player=typed, club=club, member_number=row.member_number)
    _import(generated)
    typed.refresh_from_db()
    assert typed.dsb_id == row.person_id
    assert typed.first_name == row.first_name  # the list's name wins
    assert Player.objects.filter(dsb_id=row.person_id).count() == 1


def test_umstufung_2026_is_a_dated_adjustment_before_tournaments_of_that_day():
    generated = generate(40, seed=9)
    _import(generated, as_of=datetime.date(2026, 3, 1))
    rng = random.Random(3)
    rated = list(Player.objects.filter(dwz__isnull=False).order_by("pk")[:5])
    save_tournament(rated, round_robin(rated, rng), end=datetime.date(2025, 11, 2), name="Herbst 2025")
    same_day, _ = save_tournament(rated, round_robin(rated, rng), end=UMSTUFUNG_DATE, name="Pfingsten 2026")
    umgestuft = dataclasses.replace(generated)
    umgestuft.players = [
        dataclasses.replace(r, dwz=r.dwz + 100, index=r.index + 1) if r.dwz else r for r in generated.players
    ]
    report = _import(umgestuft, as_of=UMSTUFUNG_DATE, umstufung=True)
    assert report.adjustments == len({r.person_id for r in umgestuft.players if r.dwz})
    first = rated[0]
    adjustment = RatingAdjustment.objects.get(player=first, kind=AdjustmentKind.UMSTUFUNG)
    assert adjustment.date == UMSTUFUNG_DATE and adjustment.get_kind_display() == "Umstufung 2026"
    official = OfficialRating.objects.get(player=first, as_of=UMSTUFUNG_DATE)
    evaluation = same_day.evaluations.get(player=first)
    assert (evaluation.dwz_old, evaluation.index_old) == (official.dwz, official.index)
    assert ratings_verify() == []
    # correcting the 2025 tournament re-evaluates up to 2026-06-07 and continues from the Umstufung value
    from ratings.models import Tournament

    herbst = Tournament.objects.get(name="Herbst 2025")
    save_tournament(rated, round_robin(rated, random.Random(99)), end=herbst.end_date, tournament=herbst)
    evaluation = same_day.evaluations.get(player=first)
    assert (evaluation.dwz_old, evaluation.index_old) == (official.dwz, official.index)
    assert ratings_verify() == []
    # importing the Umstufung again changes nothing
    again = _import(umgestuft, as_of=UMSTUFUNG_DATE, umstufung=True)
    assert again.adjustments == 0


def test_umstufung_command_refuses_another_date(tmp_path):
    path = tmp_path / "LV-0-csv.zip"
    path.write_bytes(generate(20, seed=1).zip_bytes())
    with pytest.raises(CommandError) as error:
        call_command("import_dsb_list", str(path), "--umstufung", "2026", "--as-of", "2026-07-01")
    assert error.value.returncode == 2


def test_dos_list_imports_like_the_csv():
    generated = generate(60, seed=10)
    report = dsb_list_import(
        dsb_list=read_list_bytes(generated.zip_bytes(dos=True), "LV-0-dos.zip"), as_of=AS_OF
    )
    assert report.exit_code == 0 and report.generation == "dos"
    assert Membership.objects.count() == 60


def test_written_zip_of_the_import_reimports_unchanged():
    generated = generate(80, seed=11)
    _import(generated)
    before = _state()
    data = write_zip(generated.players, generated.clubs, generated.federations)
    report = dsb_list_import(dsb_list=read_list_bytes(data, "x.zip"), as_of=AS_OF)
    assert report.counts["unchanged"] == 80 and _state() == before


def test_import_tournament_knows_the_clubs_of_the_list(tmp_path):
    import json

    generated = generate(30, seed=12)
    zps = generated.players[0].zps
    data = {
        "tournament": {"end_date": "2026-04-01", "name": "Vereinsturnier"},
        "players": [
            {"id": "GAST-1", "name": "Gast, Anna", "club": zps, "dwz": 1500, "index": 3},
            {"id": "GAST-2", "name": "Gast, Bert", "club": zps, "dwz": 1450, "index": 8},
        ],
        "games": [{"white": "GAST-1", "black": "GAST-2", "result": "1-0"}],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert error.value.returncode == 2 and "import_dsb_list" in str(error.value)
    _import(generated)
    call_command("import_tournament", str(path), stdout=io.StringIO())
    assert Membership.objects.filter(player__key="GAST-1", club__zps=zps).exists()


def test_a_rejected_row_does_not_end_its_membership():
    generated = generate(40, seed=13)
    _import(generated)
    row = generated.players[4]
    data = generated.zip_bytes()
    import zipfile

    text = zipfile.ZipFile(io.BytesIO(data)).read("spieler.csv").decode("cp1252")
    lines = text.split("\r\n")
    lines[5] = lines[5].replace(f",{row.dwz},{row.index},", ",abc,1,") if row.dwz else lines[5] + "x"
    dsb_list = read_list_bytes("\r\n".join(lines).encode("cp1252"), "spieler.csv")
    assert [p.line for p in dsb_list.problems] == [6]
    report = dsb_list_import(dsb_list=dsb_list, as_of=datetime.date(2026, 9, 1))
    assert report.exit_code == 1 and report.memberships_ended == 0
    assert Membership.objects.get(player__dsb_id=row.person_id, club__zps=row.zps).valid_until is None


def test_a_number_given_to_a_new_member_ends_the_old_holders_membership():
    generated = generate(30, seed=14)
    _import(generated)
    old = next(r for r in generated.players if r.member_number and r.dwz)
    newcomer = dataclasses.replace(old, person_id="NU9999999", surname="Neu", first_name="Nina", line=0)
    broken = dataclasses.replace(old, surname="", first_name="")  # rejected: no name
    newer = dataclasses.replace(
        generated, players=[broken, newcomer, *(r for r in generated.players if r != old)]
    )
    dsb_list = read_list_bytes(newer.zip_bytes(), "x.zip")
    assert len(dsb_list.problems) == 1
    report = dsb_list_import(dsb_list=dsb_list, as_of=datetime.date(2026, 9, 1))
    assert report.exit_code == 1
    holder = Membership.objects.get(club__zps=old.zps, member_number=old.member_number, valid_until=None)
    assert holder.player.dsb_id == "NU9999999"


@pytest.mark.parametrize("full", [False, True], ids=["replay", "full recalculation"])
def test_a_birth_year_from_the_list_replays_the_players_history(full, monkeypatch):
    """A player entered without a birth year plays as an adult; the list says he is 14: his tournaments
    are evaluated again with the coefficient of a youth (his age class enters E, spec §4). A list that
    changes the birth years in many tournaments runs a full recalculation instead."""
    if full:
        monkeypatch.setattr(dsb_list, "FULL_RECALCULATION_AFTER", 0)
    generated = generate(60, seed=4)
    _import(generated)
    rated = list(Player.objects.filter(dwz__isnull=False).order_by("pk")[:6])
    youth = rated[0]
    row = next(r for r in generated.players if r.person_id == youth.dsb_id)
    generated.players[generated.players.index(row)] = dataclasses.replace(row, birth_year=2012)
    Player.objects.filter(pk=youth.pk).update(birth_year=None)
    save_tournament(rated, round_robin(rated, random.Random(1)), end=datetime.date(2026, 4, 20))
    as_adult = Evaluation.objects.get(player=youth)
    _import(generated, as_of=datetime.date(2026, 5, 1))
    youth.refresh_from_db()
    assert youth.birth_year == 2012
    as_youth = Evaluation.objects.get(player=youth)
    assert as_youth.coefficient != as_adult.coefficient
    assert youth.dwz == as_youth.dwz_new
    assert ratings_verify() == []


def test_a_birth_year_from_the_list_reaches_tournaments_after_an_unchanged_rating():
    """A draw between equals leaves the DWZ as it was whatever the coefficient, so the tournament after it
    starts from the same DWZ and index: the list's birth year still changes its coefficient (spec §4), so
    every tournament of the player is evaluated again, not only those until his rating agrees again."""
    generated = generate(60, seed=4)
    youth_row, equal_row = [r for r in generated.players if r.dwz][:2]
    rows = generated.players
    rows[rows.index(youth_row)] = dataclasses.replace(youth_row, birth_year=None)
    rows[rows.index(equal_row)] = dataclasses.replace(equal_row, dwz=youth_row.dwz)
    _import(generated)
    youth = Player.objects.get(dsb_id=youth_row.person_id)
    equal = Player.objects.get(dsb_id=equal_row.person_id)
    assert youth.birth_year is None and youth.dwz == equal.dwz
    rated = [youth, equal, *Player.objects.filter(dwz__isnull=False).exclude(pk__in=[youth.pk, equal.pk])[:4]]
    save_tournament([youth, equal], [(youth, equal, "1/2-1/2")], end=datetime.date(2026, 3, 1))
    save_tournament(rated, round_robin(rated, random.Random(1)), end=datetime.date(2026, 4, 20))
    first = Evaluation.objects.get(player=youth, tournament__end_date=datetime.date(2026, 3, 1))
    assert first.dwz_new == first.dwz_old  # the draw between equals: no change to carry on
    as_adult = _coefficients(youth)
    rows[rows.index(dataclasses.replace(youth_row, birth_year=None))] = dataclasses.replace(
        youth_row, birth_year=2012
    )

    _import(generated, as_of=datetime.date(2026, 5, 1))

    as_youth = _coefficients(youth)
    assert as_youth.keys() == as_adult.keys() and len(as_youth) == 2
    assert all(as_youth[day] != as_adult[day] for day in as_adult)
    assert ratings_verify() == []


def _coefficients(player):
    """The player's coefficient (E) in each of his tournaments, by end date."""
    return dict(Evaluation.objects.filter(player=player).values_list("tournament__end_date", "coefficient"))


def _sort_keys_differing():
    """Players and clubs whose stored DIN 5007 key is not the key of their name (none, if kept)."""
    players = [
        key
        for key, surname, first, stored in Player.objects.values_list(
            "key", "surname", "first_name", "name_sort"
        )
        if stored != name_sort_key(surname, first)
    ]
    clubs = [
        zps
        for zps, name, stored in Club.objects.values_list("zps", "name", "name_sort")
        if stored != name_sort_key(name)
    ]
    return players, clubs


def test_the_import_writes_the_sort_keys_of_new_and_renamed_players_and_clubs():
    generated = generate(60, seed=5)
    generated.players[0] = dataclasses.replace(generated.players[0], surname="Öztürk-Öcal", first_name="Ümit")
    _import(generated)
    assert _sort_keys_differing() == ([], [])
    assert Player.objects.get(surname="Öztürk-Öcal").name_sort == "ozturk-ocal\x01umit\x01Öztürk-Öcal\x01Ümit"
    rows = generated.players
    club = next(c for c in generated.clubs if not c.zps.endswith("00"))
    newer = dataclasses.replace(generated)
    newer.players = [
        dataclasses.replace(rows[1], surname="Schäfer-Strauß"),  # the surname alone
        dataclasses.replace(rows[2], first_name="Jürgen-Öle"),  # the first name alone
        *rows[3:],
    ]
    newer.clubs = [
        dataclasses.replace(c, name="Schachfreunde Ärger") if c is club else c for c in generated.clubs
    ]
    report = _import(newer, as_of=datetime.date(2026, 9, 1))
    assert report.exit_code == 0 and report.players_updated >= 2
    assert (
        Player.objects.filter(surname="Schäfer-Strauß").exists()
        and Player.objects.filter(first_name="Jürgen-Öle").exists()
    )
    assert Club.objects.get(zps=club.zps).name_sort == "schachfreunde arger\x01Schachfreunde Ärger"
    assert _sort_keys_differing() == ([], [])
