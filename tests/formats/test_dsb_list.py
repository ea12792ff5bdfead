"""The DSB list reader and writer (spec/formats.md §3), without a database."""

from __future__ import annotations

import datetime
import io
import string
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.formats.dsb_list import (
    HEADERS,
    ListError,
    PlayerRow,
    read_list,
    read_list_bytes,
    without_line,
    write_players_csv,
    write_players_dos,
    write_zip,
)
from tests.conftest import examples
from tests.dsb_lists import generate

GEN_3B_HEADER = (
    'ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,Geburtsjahr,'
    '"Letzte Auswertung",DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,Vorname,Nachname,'
    "FIDE-Frauentitel,FIDE-Elozahl-Schnellschach,FIDE-Elozahl-Blitz"
)
HEADER_LINES = {
    "1": "ZPS,Mgl-Nr,Status,Spielername,Geschlecht,Spielberechtigung,Geburtsjahr,Letzte-Auswertung,DWZ,Index,"
    "FIDE-Elo,FIDE-Titel,FIDE-ID,FIDE-Land",
    "2": "ID,VKZ,Mgl-Nr,Status,Spielername,Geschlecht,Spielberechtigung,Geburtsjahr,Letzte-Auswertung,DWZ,"
    "Index,FIDE-Elo,FIDE-Titel,FIDE-ID,FIDE-Land",
    "3": 'ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,Geburtsjahr,'
    '"Letzte Auswertung",DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,Vorname,Nachname',
    "3b": GEN_3B_HEADER,
}


def _columns(rows, names):
    return [tuple(getattr(r, n) for n in names) for r in rows]


def _bare(rows):
    return [without_line(r) for r in rows]


def _players_file(lines: list[str], header: str = GEN_3B_HEADER) -> bytes:
    return "".join(line + "\r\n" for line in [header, *lines]).encode("cp1252")


GOOD_3B = 'NU4005017,C0505,1043,A,"Muster,Max",M,,1963,202611,1802,45,1850,FM,4711,GER,Max,Muster,,1790,1810'


def test_written_list_has_the_exact_header_crlf_and_cp1252():
    data = write_players_csv(generate(30).players)
    first, _, rest = data.partition(b"\r\n")
    assert first.decode("ascii") == GEN_3B_HEADER
    assert b"\n" not in rest.replace(b"\r\n", b"")
    assert "ü".encode("cp1252") in data or "ö".encode("cp1252") in data
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")


@pytest.mark.parametrize("generation", ["1", "2", "3", "3b"])
def test_every_header_generation_is_read_by_name(generation):
    generated = generate(60, seed=3, id_kind="none" if generation == "1" else "nu")
    data = write_players_csv(generated.players, generation)
    assert data.split(b"\r\n", 1)[0].decode() == HEADER_LINES[generation]
    result = read_list_bytes(data, "spieler.csv")
    assert result.generation == generation
    assert result.problems == []
    expected = generated.players
    assert [(r.zps, r.member_number, r.surname, r.first_name, r.dwz, r.index) for r in result.players] == [
        (r.zps, r.member_number, r.surname, r.first_name, r.dwz, r.index) for r in expected
    ]
    if generation == "1":
        assert all(r.person_id is None for r in result.players)


def test_columns_in_another_order_are_mapped_by_name():
    columns = list(HEADERS["3b"])
    row = GOOD_3B.replace('"Muster,Max"', "Muster|Max").split(",")
    row[4] = "Muster,Max"
    order = list(reversed(range(len(columns))))
    header = ",".join(f'"{columns[i]}"' for i in order)
    line = ",".join(f'"{row[i]}"' for i in order)
    result = read_list_bytes(_players_file([line], header), "spieler.csv")
    (player,) = result.players
    assert (player.person_id, player.zps, player.member_number, player.dwz, player.index) == (
        "NU4005017",
        "C0505",
        "1043",
        1802,
        45,
    )
    assert (player.surname, player.first_name, player.fide_rapid, player.fide_blitz) == (
        "Muster",
        "Max",
        1790,
        1810,
    )


def test_unknown_header_is_a_hard_error_naming_the_missing_columns():
    header = "ID,ZPS,Mitgliedsnummer,Status,Spieler,Geschlecht,Geburtsjahr,DWZ,Index"
    with pytest.raises(ListError) as error:
        read_list_bytes(_players_file([GOOD_3B], header), "spieler.csv")
    message = str(error.value)
    for column in ("Spielername", "Spielberechtigung", "Letzte-Auswertung", "FIDE-Elo", "FIDE-ID"):
        assert column in message
    assert "Geburtsjahr" not in message


def test_bad_rows_are_reported_with_line_and_reason_and_left_out():
    lines = [
        GOOD_3B,
        'NU1,C0505,1044,A,"",M,,1963,,1500,10,,,,,,,,,',  # missing name
        'NU2,C050,1045,A,"Muster,Max",M,,1963,,1500,10,,,,,Max,Muster,,,',  # 4-character ZPS
        'NU3,C0505,1046,A,"Muster,Max",M,,1963,,abc,10,,,,,Max,Muster,,,',  # DWZ "abc"
        'NU4,C0505,1047,A,"Muster,Max",M,,1963,,0,12,,,,,Max,Muster,,,',  # index without DWZ
        'NU5,C0505,1048,A,"Beispiel,Erika",W,,1990,,0,0,,,,,Erika,Beispiel,,,',  # no DWZ: fine
    ]
    result = read_list_bytes(_players_file(lines), "spieler.csv")
    assert [r.person_id for r in result.players] == ["NU4005017", "NU5"]
    assert [(p.line, p.message) for p in result.problems] == [
        (3, "Name fehlt."),
        (4, "ZPS „C050“ ist keine Vereinskennziffer (fünf Zeichen wie C0505)."),
        (5, "DWZ „abc“ ist keine Zahl."),
        (6, "Index 12 ohne DWZ."),
    ]
    assert str(result.problems[0]) == "spieler.csv, Zeile 3: Name fehlt."
    assert result.rows == 6
    assert result.players[1].dwz is None and result.players[1].index is None


def test_member_numbers_0000_and_0_are_no_member_numbers():
    lines = [
        GOOD_3B.replace(",1043,", ",0000,"),
        GOOD_3B.replace(",1043,", ",0,").replace("NU4005017", "NU9"),
    ]
    result = read_list_bytes(_players_file(lines), "spieler.csv")
    assert [r.member_number for r in result.players] == [None, None]
    assert result.problems == []


def test_duplicate_membership_rows_are_rejected():
    lines = [GOOD_3B, GOOD_3B.replace("NU4005017", "NU1"), GOOD_3B.replace(",1043,", ",1099,")]
    result = read_list_bytes(_players_file(lines), "spieler.csv")
    assert len(result.players) == 1
    assert [p.line for p in result.problems] == [3, 4]


def test_third_name_part_is_an_academic_title():
    line = 'PKZ,C0505,1043,A,"Schröder,Hans-Peter,Dr.",M,,1949,,1951,88,,,,'
    header = HEADER_LINES["2"]
    result = read_list_bytes(_players_file([line.replace("PKZ", "10123456")], header), "spieler.csv")
    (player,) = result.players
    assert (player.surname, player.first_name, player.academic_title) == ("Schröder", "Hans-Peter", "Dr.")
    assert player.person_id == "10123456"


def test_dos_line_of_the_spec_and_0_0():
    text = (
        "NU4005017|C0505|1043|A|Muster,Max|M||1963|202611|1802-45|1850|FM|4711|GER\r\n"
        "NU4005018|C0505|1044|P|Beispiel,Erika|W||2012||0-0||||\r\n"
        "NU4005019|C0505|1045|A|Kaputt,Karl|M||2012||1802|||||\r\n"
    )
    result = read_list_bytes(text.encode("cp850"), "SPIELER.TXT")
    assert result.generation == "dos"
    first, second = result.players
    assert (first.dwz, first.index, first.fide_elo, first.fide_title, first.fide_id) == (
        1802,
        45,
        1850,
        "FM",
        4711,
    )
    assert (second.dwz, second.index, second.status) == (None, None, "P")
    assert [(p.line, p.message) for p in result.problems] == [(3, "15 Felder statt 14.")]


def test_dos_zip_round_trip_in_cp850():
    generated = generate(120, seed=5)
    data = generated.zip_bytes(dos=True)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "SPIELER.TXT" in names and "VEREINE.TXT" in names
    result = read_list_bytes(data, "LV-0-dos.zip")
    assert result.generation == "dos"
    assert result.problems == []
    # CP850 has no š or ą: DOS names are transliterated, everything else is equal.
    read = [(r.person_id, r.zps, r.member_number, r.dwz, r.index, r.birth_year) for r in result.players]
    assert read == [
        (r.person_id, r.zps, r.member_number, r.dwz, r.index, r.birth_year) for r in generated.players
    ]
    assert "Šimek" not in {r.surname for r in result.players}
    assert {c.zps for c in result.clubs} == {c.zps for c in generated.clubs if not c.zps.endswith("00")}


def test_2026_dos_zip_that_is_a_cp850_copy_of_the_csv():
    generated = generate(40, seed=2)
    csv_text = write_players_csv(generated.players, "3").decode("cp1252")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("SPIELER.TXT", csv_text.encode("cp850", errors="replace"))
    result = read_list_bytes(buffer.getvalue(), "LV-0-dos.zip")
    assert result.generation == "dos-csv (3)"
    assert len(result.players) == 40


def test_zip_member_names_in_any_case_and_the_date_of_the_list(tmp_path):
    generated = generate(50, seed=7)
    data = generated.zip_bytes(date=datetime.date(2026, 3, 14))
    renamed = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(renamed, "w") as target:
        for info in source.infolist():
            info.filename = info.filename.upper()
            target.writestr(
                info, source.read(info.filename.lower() if info.filename != "README.TXT" else "README.txt")
            )
    path = tmp_path / "LV-0-csv.zip"
    path.write_bytes(renamed.getvalue())
    result = read_list(path)
    assert len(result.players) == 50
    assert result.date == datetime.date(2026, 3, 14)  # the zip's file date
    named = tmp_path / "LV-0-csv_20240627.zip"
    named.write_bytes(data)
    assert read_list(named).date == datetime.date(2024, 6, 27)  # the date in the name wins


def test_folder_with_the_three_files(tmp_path):
    generated = generate(50, seed=8)
    with zipfile.ZipFile(io.BytesIO(generated.zip_bytes())) as archive:
        archive.extractall(tmp_path)
    (tmp_path / "spieler.csv").rename(tmp_path / "Spieler.CSV")
    result = read_list(tmp_path)
    assert _bare(result.players) == generated.players
    assert {f.code for f in result.federations} >= {"000", "100", "101", "C00"}


def test_pseudo_clubs_become_federations_and_duplicate_federations_are_logged():
    generated = generate(50, seed=9)
    result = read_list_bytes(generated.zip_bytes(), "LV-0-csv.zip")
    assert not any(c.zps.endswith("00") and c.zps[:3] in {"100", "200", "300"} for c in result.clubs)
    assert {c.zps for c in result.clubs} == {c.zps for c in generated.clubs if not c.zps.endswith("000")} - {
        c.zps for c in generated.clubs if c.zps.endswith("00") and c.zps[3:] == "00" and c.line == 0
    }
    federations = (
        "Verbandnummer,Landesverband,UebergeordneterVerband,Verbandname\r\n"
        "000,,,DSB\r\nC00,C,000,Württemberg\r\nC01,C,C00,Bezirk A\r\nC01,C,C00,Kreis A\r\n"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("spieler.csv", _players_file([GOOD_3B]))
        archive.writestr("verbaende.csv", federations.encode("cp1252"))
        archive.writestr(
            "vereine.csv", b"ZPS,LV,Verband,Vereinname\r\nC0505,C,C05,SV Test\r\nC0000,C,000,Wuerttemberg\r\n"
        )
    result = read_list_bytes(buffer.getvalue(), "x.zip")
    assert [(f.code, f.parent, f.name) for f in result.federations] == [
        ("000", "", "DSB"),
        ("C00", "000", "Württemberg"),
        ("C01", "C00", "Bezirk A"),
    ]
    assert [w.line for w in result.warnings] == [5]
    assert [(c.zps, c.parent, c.name) for c in result.clubs] == [("C0505", "C05", "SV Test")]


def test_a_list_without_player_file_or_an_unreadable_zip_cannot_be_used(tmp_path):
    with pytest.raises(ListError):
        read_list_bytes(b"PK\x03\x04garbage", "LV-0-csv.zip")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README.txt", b"nothing")
    with pytest.raises(ListError, match=r"spieler\.csv"):
        read_list_bytes(buffer.getvalue(), "LV-0-csv.zip")
    with pytest.raises(ListError):
        read_list(tmp_path / "missing.zip")
    with pytest.raises(ListError):
        read_list_bytes(b"", "spieler.csv")


def test_utf8_file_is_recognised_with_a_warning():
    result = read_list_bytes(
        _players_file([GOOD_3B.replace("Muster", "Müller")]).decode("cp1252").encode("utf-8"), "spieler.csv"
    )
    assert result.players[0].surname == "Müller"
    assert "UTF-8" in result.warnings[0].message


# --- hypothesis: write → read gives the same rows ---------------------------------------------------------

_letters = st.sampled_from(list(string.ascii_letters + "äöüÄÖÜßéèçñ -'"))
_name = st.text(_letters, min_size=1, max_size=30).map(str.strip).filter(bool)
_rating = st.one_of(st.none(), st.integers(1, 3000))


@st.composite
def player_rows(draw, with_ids: bool = True):
    dwz = draw(_rating)
    return PlayerRow(
        line=0,
        person_id=draw(st.from_regex(r"NU[0-9]{7}|[0-9]{8}", fullmatch=True)) if with_ids else None,
        zps=draw(st.from_regex(r"[1-9A-HLM][0-9A-Z]{4}", fullmatch=True)),
        member_number=draw(st.one_of(st.none(), st.from_regex(r"[1-9][0-9]{3}", fullmatch=True))),
        status=draw(st.sampled_from(["A", "P", ""])),
        surname=draw(_name),
        first_name=draw(st.one_of(st.just(""), _name)),
        academic_title=draw(st.sampled_from(["", "Dr.", "Prof. Dr."])),
        sex=draw(st.sampled_from(["M", "W", ""])),
        birth_year=draw(st.one_of(st.none(), st.integers(1900, 2020))),
        last_evaluation=draw(st.sampled_from(["", "202611", "199952"])),
        dwz=dwz,
        index=None if dwz is None else draw(st.integers(0, 300)),
        fide_elo=draw(_rating),
        fide_title=draw(st.sampled_from(["", "GM", "WFM"])),
        fide_id=draw(st.one_of(st.none(), st.integers(1, 99_999_999))),
        fide_federation=draw(st.sampled_from(["", "GER", "AUT"])),
        women_title=draw(st.sampled_from(["", "WIM"])),
        fide_rapid=draw(_rating),
        fide_blitz=draw(_rating),
    )


def _unique(rows: list[PlayerRow]) -> list[PlayerRow]:
    seen, out = set(), []
    for r in rows:
        keys = {(r.zps, r.person_id)} | ({(r.zps, r.member_number)} if r.member_number else set())
        if not keys & seen:
            seen |= keys
            out.append(r)
    return out


@settings(max_examples=examples(30), deadline=None, derandomize=True)
@given(st.lists(player_rows(), max_size=15).map(_unique))
def test_round_trip_generation_3b(rows):
    result = read_list_bytes(write_players_csv(rows), "spieler.csv")
    assert result.problems == []
    assert _bare(result.players) == rows


@settings(max_examples=examples(20), deadline=None, derandomize=True)
@given(st.lists(player_rows(), max_size=15).map(_unique))
def test_round_trip_dos(rows):
    result = read_list_bytes(write_players_dos(rows), "SPIELER.TXT")
    assert result.problems == []
    # the DOS shape has no separate name columns and no 2026 columns
    names = ("person_id", "zps", "member_number", "status", "surname", "first_name", "academic_title", "dwz")
    assert _columns(result.players, (*names, "index", "fide_elo", "fide_id")) == _columns(
        rows, (*names, "index", "fide_elo", "fide_id")
    )


@settings(max_examples=examples(15), deadline=None, derandomize=True)
@given(st.lists(player_rows(with_ids=False), max_size=10).map(_unique), st.sampled_from(["1", "2"]))
def test_round_trip_dewis_generations(rows, generation):
    result = read_list_bytes(write_players_csv(rows, generation), "spieler.csv")
    assert result.problems == []
    names = ("zps", "member_number", "surname", "first_name", "academic_title", "dwz", "index")
    assert _columns(result.players, names) == _columns(rows, names)


def test_whole_zip_round_trip():
    generated = generate(300, seed=11)
    result = read_list_bytes(
        write_zip(generated.players, generated.clubs, generated.federations), "LV-0-csv.zip"
    )
    assert result.problems == [] and result.warnings == []
    assert _bare(result.players) == generated.players
    assert result.generation == "3b"


def test_the_formats_package_imports_no_django():
    import ast
    from pathlib import Path

    import ratings.formats

    for path in Path(ratings.formats.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        modules |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not any(m.split(".")[0] == "django" for m in modules), path


def test_a_club_parent_that_is_no_federation_code_falls_back_to_the_district():
    """Found by bench/fuzz.py: the parent went into the 3-character code column (PostgreSQL: DataError)."""
    generated = generate(30, seed=1)
    with zipfile.ZipFile(io.BytesIO(generated.zip_bytes())) as zf:
        files = {name: zf.read(name) for name in zf.namelist()}
    lines = files["vereine.csv"].split(b"\n")
    fields = lines[1].split(b",")
    zps = fields[0].decode()
    fields[2] = b"31.02.2026"
    lines[1] = b",".join(fields)
    files["vereine.csv"] = b"\n".join(lines)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, content in files.items():
            zf.writestr(name, content)
    dsb_list = read_list_bytes(out.getvalue(), "LV-x-csv.zip")
    club = next(c for c in dsb_list.clubs if c.zps == zps)
    assert club.parent == zps[:3]
