"""Lists out: the DSB shape (3b CSV, DOS) and Swiss-Chess, for a club, a federation or all; round trips."""

from __future__ import annotations

import datetime
import io
import struct
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings.formats import swiss_chess
from ratings.formats.dsb_list import HEADERS, read_list_bytes
from ratings.models import Club, Membership, OfficialRating, Organisation, Player
from ratings.models.officer import OfficerScope
from ratings.selectors.dsb_list import list_rows, list_zip, swiss_chess_files
from ratings.services.dsb_list import dsb_list_import
from tests.dsb_lists import generate

pytestmark = pytest.mark.django_db
AS_OF = datetime.date(2026, 3, 1)


def _imported(rows=120, seed=1):
    generated = generate(rows, seed=seed)
    dsb_list_import(dsb_list=read_list_bytes(generated.zip_bytes(), "x.zip"), as_of=AS_OF)
    return generated


def _state():
    players = sorted(
        Player.objects.values_list(
            "dsb_id",
            "surname",
            "first_name",
            "sex",
            "birth_year",
            "dwz",
            "index",
            "fide_id",
            "fide_elo",
            "fide_title",
            "status",
        )
    )
    memberships = sorted(
        Membership.objects.values_list(
            "player__dsb_id", "club__zps", "member_number", "status", "valid_until"
        )
    )
    clubs = sorted(Club.objects.values_list("zps", "name", "organisation__code"))
    return players, memberships, clubs


@pytest.mark.parametrize("dos", [False, True])
def test_the_whole_list_reimports_into_an_empty_database(dos):
    _imported()
    before = _state()
    data = list_zip(dos=dos, date=AS_OF)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert ("SPIELER.TXT" if dos else "spieler.csv") in names
    if not dos:
        header = zipfile.ZipFile(io.BytesIO(data)).read("spieler.csv").split(b"\r\n", 1)[0].decode("cp1252")
        assert header.replace('"', "").split(",")[:4] == list(HEADERS["3b"])[:4]
        assert len(header.split(",")) == 21
    for model in (OfficialRating, Membership):
        model.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    report = dsb_list_import(dsb_list=read_list_bytes(data, "LV-0.zip"), as_of=AS_OF)
    assert report.exit_code == 0
    after = _state()
    if dos:  # CP850 transliterates what it lacks; compare the rest
        assert [p[:1] + p[5:] for p in after[0]] == [p[:1] + p[5:] for p in before[0]]
    else:
        assert after == before


def test_a_club_and_a_federation_list():
    generated = _imported()
    zps = generated.players[0].zps
    club = Club.objects.get(zps=zps)
    players, clubs, federations = list_rows(club=club)
    assert {r.zps for r in players} == {zps} and [c.zps for c in clubs] == [zps]
    assert federations[0].code == "000" and zps[:3] in {f.code for f in federations}
    lv = Organisation.objects.get(code=zps[0] + "00")
    players, clubs, _ = list_rows(organisation=lv)
    assert {r.zps[0] for r in players} == {zps[0]}
    assert len(players) == Membership.objects.filter(club__zps__startswith=zps[0]).count()


def test_ended_memberships_are_not_in_the_list():
    _imported()
    m = Membership.objects.order_by("pk").first()
    m.valid_until = AS_OF
    m.save()
    players, _, _ = list_rows()
    assert len(players) == Membership.objects.count() - 1


def test_swiss_chess_files():
    _imported(60)
    lst, swx = swiss_chess_files()
    lines = lst.decode("cp437").split("\r\n")[:-1]
    assert len(lines) == Player.objects.filter(memberships__valid_until__isnull=True).distinct().count()
    assert all(len(line.split(";")) == 29 and line.endswith(';"') for line in lines)
    assert len(swx) == 702 * 8
    records = [struct.unpack_from("<II", swx, 8 * i) for i in range(702)]
    assert records[0] == (0, 0xFFFFFE44) and records[701] == (len(lst), 0x01000000)
    keys = [swiss_chess.search_key(line.split(";")[0].split(",")[0]) for line in lines]
    assert [swiss_chess.bucket(k) for k in keys] == sorted(swiss_chess.bucket(k) for k in keys)


def test_swiss_chess_hand_built_example():
    players = [
        swiss_chess.SwissChessPlayer(
            surname="Bauer",
            first_name="Uwe",
            dwz=1500,
            club="SC A",
            zps="C0501",
            status="A",
            member_number="0012",
            birth_year=1970,
            sex="M",
        ),
        swiss_chess.SwissChessPlayer(
            surname="Ärger",
            first_name="Änne",
            dwz=1400,
            title="WFM",
            elo=2010,
            person_id="NU1",
            fide_id=4711,
            nation="GER",
        ),
        swiss_chess.SwissChessPlayer(surname="Abel", first_name="Udo"),
    ]
    lst, swx = swiss_chess.write(players)
    text = lst.decode("cp437")
    first, second, third = text.split("\r\n")[:3]
    # buckets: ABEL → A,B = 0*27+2 = 2; AERGER → A,E = 5; BAUER → B,A = 28
    assert first.startswith("Abel,Udo;")
    assert second == 'Ärger,Änne;;GER;2010;1400;8;;NU1;4711;;;;;;;"WFM;;;;2010;;;;;;;;;"'
    assert third == 'Bauer,Uwe;SC A;;;1500;;1970;;;0012;M;C0501;C;0012;A;";;;;;;;;;;;;;"'
    records = [struct.unpack_from("<II", swx, 8 * i) for i in range(702)]
    size1, size2 = len(first) + 2, len(second.encode("cp437")) + 2
    assert records[2] == (0, 0)
    assert records[5] == (size1, 0)  # the previous bucket (2) has 1 line: 1 - 1 = 0
    assert records[28] == (size1 + size2, 0)
    assert sum(1 for r in records[1:701] if r != (0, 0)) == 2  # bucket 2 starts at offset 0: (0, 0)


def test_export_command(tmp_path):
    generated = _imported(60)
    target = tmp_path / "liste.zip"
    call_command(
        "export_dsb_list", "-o", str(target), "--club", generated.players[0].zps, stdout=io.StringIO()
    )
    assert read_list_bytes(target.read_bytes(), target.name).problems == []
    call_command(
        "export_dsb_list", "-o", str(tmp_path / "sc"), "--format", "swiss-chess", stdout=io.StringIO()
    )
    assert sorted(p.suffix for p in (tmp_path / "sc").iterdir()) == [".LST", ".SWX"]


def test_downloads_for_officers_in_scope_only(client, django_user_model):
    generated = _imported(60)
    zps = generated.players[0].zps
    club = Club.objects.get(zps=zps)
    url = reverse("ratings:dsb-list-download", args=["verein", zps, "csv"])
    assert client.get(url).status_code == 302  # to the login
    officer = django_user_model.objects.create_user("referent", password="geheim-123")
    OfficerScope.objects.create(user=officer, club=club)
    client.force_login(officer)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert read_list_bytes(response.content, "x.zip").players
    other = Club.objects.exclude(pk=club.pk).first()
    assert (
        client.get(reverse("ratings:dsb-list-download", args=["verein", other.zps, "dos"])).status_code == 403
    )
    assert client.get(reverse("ratings:dsb-list-download", args=["alle", "000", "csv"])).status_code == 403
    page = client.get(reverse("ratings:club-detail", args=[zps])).content.decode()
    assert 'id="dsb-list-links"' in page
    client.logout()
    assert (
        'id="dsb-list-links"' not in client.get(reverse("ratings:club-detail", args=[zps])).content.decode()
    )
    staff = django_user_model.objects.create_user("chef", password="geheim-123", is_staff=True)
    client.force_login(staff)
    response = client.get(reverse("ratings:dsb-list-download", args=["alle", "000", "swiss-chess"]))
    assert response.status_code == 200
    assert sorted(zipfile.ZipFile(io.BytesIO(response.content)).namelist())[0].endswith(".LST")


def test_a_name_that_looks_like_a_formula_stays_text():
    _imported(30)
    player = Player.objects.filter(memberships__isnull=False).first()
    player.surname = '=HYPERLINK("http://x")'
    player.save()
    players, _, _ = list_rows()
    assert '\'=HYPERLINK("http://x")' in {r.surname for r in players}
