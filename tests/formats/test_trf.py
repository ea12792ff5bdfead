"""The TRF reader and writer on the real files of tests/data/trf and on hand-made edge cases."""

import datetime
from decimal import Decimal
from pathlib import Path

import pytest

from ratings.formats.trf import (
    AmbiguousDateError,
    TrfError,
    TrfPlayer,
    national_line,
    person_id,
    read_trf,
    write_trf,
)
from tests.builders import ger_line, player_line, trf

DATA = Path(__file__).resolve().parent.parent / "data" / "trf"
KARL_MALA = DATA / "fide-example1-karl-mala-2005.trf"
LICHESS_2020 = DATA / "lichess-swiss-2020-06.trf"
LICHESS_2021 = DATA / "lichess-swiss-2021-03.trf"
REAL_FILES = sorted(DATA.glob("*.trf"))


def messages(exc_info) -> list[str]:
    return [str(p) for p in exc_info.value.problems]


# --- the real files -------------------------------------------------------------------------------------


def test_karl_mala_head_players_and_rounds():
    t = read_trf(KARL_MALA.read_bytes())
    h = t.head
    assert h.name == "9. Karl-Mala-Gedenkturnier"
    assert h.city == "Frankfurt (Main) /GER"
    assert (h.start_date, h.end_date) == (datetime.date(2005, 7, 28), datetime.date(2005, 7, 31))
    assert h.chief_arbiter == "Ralph Blum (SV Griesheim)"
    assert h.deputies == ["NSR Thomas Rondio, NSR Wolfgang Hettler"]
    assert h.federation == "" and h.round_dates == []
    # 284 player lines; the "spielfrei" pseudo-player is dropped with a warning.
    assert len(t.players) == 283 and [p.name for p in t.dropped] == ["spielfrei"]
    assert t.rounds == 7
    assert len(t.games) == 980 and len(t.forfeits) == 10
    assert sorted({b.code for b in t.byes}) == ["F", "Z"]
    assert any("spielfrei" in str(w) for w in t.warnings)


def test_karl_mala_player_fields():
    t = read_trf(KARL_MALA.read_bytes())
    vasquez = t.player(1)
    assert (vasquez.surname, vasquez.first_name) == ("Vasquez", "Rodrigo")
    assert vasquez.title == "GM"  # legacy "g" right-aligned in 11–13
    assert vasquez.fide_rating == 2558 and vasquez.fide_id == 3400042 and vasquez.federation == "CHI"
    assert vasquez.birth_date == datetime.date(1969, 12, 6) and vasquez.birth_year == 1969
    assert vasquez.points == Decimal("6.0") and vasquez.rank == 4
    assert t.player(2).title == "IM" and t.player(13).title == "FM"
    assert {p.title for p in t.players} >= {"GM", "IM", "FM", "WFM"}
    assert sum(1 for p in t.players if p.sex == "w") == 8  # sex "f" is female
    # A third comma part is a title, kept apart from the first name.
    kiese = next(p for p in t.players if p.surname == "Kiese")
    assert (kiese.first_name, kiese.name_suffix) == ("Matthias", "Dr.")


def test_karl_mala_withdrawn_player_and_forfeits():
    t = read_trf(KARL_MALA.read_bytes())
    bakhmatov = t.player(13)
    assert bakhmatov.rank == 0 and bakhmatov.points == Decimal(0)
    forfeit = next(g for g in t.games if 13 in (g.white, g.black))
    assert (forfeit.round, forfeit.white, forfeit.black) == (1, 13, 153)
    assert (forfeit.white_code, forfeit.black_code, forfeit.colour_known) == ("-", "+", False)
    # His blank rounds 2–7 are zero-point byes (a blank block is 0000 - Z).
    assert sorted(b.round for b in t.byes if b.player == 13) == [2, 3, 4, 5, 6, 7]
    # "0000 - +" without an opponent: a full-point bye, with a warning naming the line.
    assert [(b.round, b.code) for b in t.byes if b.player == 282] == [(5, "F")]
    assert any(str(w).startswith("Zeile 295, Spalten 132–139") for w in t.warnings)


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
def test_points_in_real_files_agree_with_the_results(path):
    t = read_trf(path.read_bytes())
    assert all(p.points == p.computed_points for p in t.players)
    assert not [w for w in t.warnings if "Punkte" in w.template]


def test_lichess_2020_byes_absence_and_trfx():
    t = read_trf(LICHESS_2020.read_bytes())
    assert t.head.start_date == t.head.end_date == datetime.date(2020, 5, 29)
    assert t.head.rounds == 10 and t.head.initial_colour == "w"
    assert t.kept_lines == ["XXR 10", "XXC white1"]
    assert len(t.players) == 13 and t.rounds == 10
    p1 = t.player(1)
    assert p1.surname == "mattderkuerschner" and p1.first_name == "" and p1.fide_rating is None
    byes = {(b.player, b.round): b.code for b in t.byes}
    assert byes[(5, 1)] == "H" and byes[(5, 2)] == "Z"  # "       -": absence, not a forfeit
    assert byes[(6, 2)] == "U"  # blank opponent and colour
    assert [r for (p, r), c in byes.items() if p == 13] == [4, 5, 6, 7, 8, 9, 10]
    assert t.player(8).computed_points == Decimal("4.5")


def test_lichess_2021_black_first():
    t = read_trf(LICHESS_2021.read_bytes())
    assert t.head.end_date == datetime.date(2020, 6, 26)
    assert t.head.initial_colour == "b" and t.rounds == 9
    assert len(t.games) == 36 and [b.code for b in t.byes] == ["U"] * 9


# --- writer and round trip -----------------------------------------------------------------------------


def _essence(t):
    return (
        [(p.start_rank, p.name, p.sex, p.title, p.fide_rating, p.fide_id, p.birth_year) for p in t.players],
        sorted((g.round, g.white, g.black, g.white_code, g.black_code, g.colour_known) for g in t.games),
        sorted((b.round, b.player, b.code) for b in t.byes),
        {p.start_rank: p.computed_points for p in t.players},
    )


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
def test_round_trip_of_real_files(path):
    t = read_trf(path.read_bytes())
    text = write_trf(t)
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    again = read_trf(text.encode("utf-8"))
    assert _essence(again) == _essence(t)
    assert (again.head.start_date, again.head.end_date, again.head.name) == (
        t.head.start_date,
        t.head.end_date,
        t.head.name,
    )
    assert again.warnings == []


def test_writer_columns_and_ger_lines():
    t = read_trf(
        trf(
            player_line(
                1,
                "Muster, Max",
                [(2, "w", "1")],
                sex="m",
                title="FM",
                rating="2105",
                fed="GER",
                fide_id="4612345",
                birth="1963/05/17",
                points="1.0",
                place="1",
            ),
            ger_line(1, "1802", "NU4005017", "45"),
            player_line(
                2,
                "Beispiel, Erika",
                [(1, "b", "0")],
                sex="w",
                title="WIM",
                birth="1990/00/00",
                points="0.0",
                place="2",
            ),
        )
    )
    assert t.player(1).dwz == 1802 and t.player(1).dwz_index == 45 and t.player(1).person_id == "NU4005017"
    assert t.player(2).birth_date is None and t.player(2).birth_year == 1990
    lines = write_trf(t).split("\r\n")
    one = next(line for line in lines if line.startswith("001    1"))
    assert one[9] == "m" and one[10:13] == " FM" and one[14:25] == "Muster, Max"
    assert one[48:52] == "2105" and one[53:56] == "GER" and one[57:68] == "    4612345"
    assert one[69:79] == "1963/05/17" and one[80:84] == " 1.0" and one[91:99] == "   2 w 1"
    ger = lines[lines.index(one) + 1]
    assert ger == national_line(t.player(1))
    assert (
        ger[:8] == "GER    1" and ger[10:13] == " 45" and ger[48:52] == "1802" and ger[57:68] == "  NU4005017"
    )
    two = next(line for line in lines if line.startswith("001    2"))
    assert two[9:13] == "wWIM" and two[69:79] == "1990/00/00"
    assert "172 GER NIDOF" in lines and "042 2024/03/01" in lines and "XXR 1" in lines


def test_writer_fills_missing_rounds_with_zero_point_byes():
    t = read_trf(trf(player_line(1, "A", [(2, "w", "1")]), player_line(2, "B", [(1, "b", "0")])))
    t.rounds = 2
    lines = write_trf(t).split("\r\n")
    assert lines[-3].endswith("0000 - Z") and lines[-2].endswith("0000 - Z")


# --- hand-made edge cases ------------------------------------------------------------------------------

A_B = (player_line(1, "Anton, A", [(2, "w", "1")]), player_line(2, "Berta, B", [(1, "b", "0")]))


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_line_ends(newline):
    data = trf(*A_B).replace(b"\n", newline)
    t = read_trf(data)
    assert len(t.games) == 1 and t.head.name == "Test-Open"


def test_utf8_bom_and_umlauts():
    data = b"\xef\xbb\xbf" + trf(
        player_line(1, "Müller, Jürgen", [(2, "w", "=")]), player_line(2, "Groß, Öz", [(1, "b", "=")])
    )
    t = read_trf(data)
    assert t.encoding == "UTF-8" and t.warnings == []
    assert t.player(1).surname == "Müller" and t.player(2).name == "Groß, Öz"


def test_windows_1252_with_a_warning():
    data = trf(player_line(1, "Müller, Jürgen", [(2, "w", "=")]), player_line(2, "Weiß, Ä", [(1, "b", "=")]))
    t = read_trf(data.decode().encode("cp1252"))
    assert t.encoding == "Windows-1252" and t.player(2).surname == "Weiß"
    assert any("Windows-1252" in w.template for w in t.warnings)


def test_bytes_neither_utf8_nor_cp1252():
    with pytest.raises(TrfError) as exc:
        read_trf(trf(*A_B) + b"012 \x81\n")
    assert messages(exc) == ["Zeile 6: Byte 0x81 ist weder UTF-8 noch Windows-1252."]


def test_every_result_code_in_either_case():
    lines = [
        player_line(1, "A", [(2, "w", "1"), (3, "b", "="), (0, "-", "H"), (4, "w", "w"), (0, "-", "f")]),
        player_line(2, "B", [(1, "b", "0"), (4, "w", "+"), (3, "w", "D"), (0, "-", "U"), (3, "b", "l")]),
        player_line(3, "C", [(4, "w", "-"), (1, "w", "="), (2, "b", "d"), (0, "-", "z"), (2, "w", "W")]),
        player_line(4, "D", [(3, "b", "-"), (2, "b", "-"), ("", " ", " "), (1, "b", "l"), ("", " ", " ")]),
    ]
    t = read_trf(trf(*lines))
    codes = {(g.round, g.white, g.black): (g.white_code, g.black_code) for g in t.games}
    assert codes == {
        (1, 1, 2): ("1", "0"),
        (1, 3, 4): ("-", "-"),
        (2, 2, 4): ("+", "-"),
        (2, 3, 1): ("=", "="),
        (3, 2, 3): ("D", "D"),
        (4, 1, 4): ("W", "L"),
        (5, 3, 2): ("W", "L"),
    }
    byes = {(b.round, b.player): b.code for b in t.byes}
    assert byes == {(3, 1): "H", (3, 4): "Z", (4, 2): "U", (4, 3): "Z", (5, 1): "F", (5, 4): "Z"}
    points = {p.start_rank: p.computed_points for p in t.players}
    assert points == {1: Decimal("4.0"), 2: Decimal("2.5"), 3: Decimal("2.0"), 4: Decimal("0")}
    assert [g for g in t.games if g.rated_result] == [g for g in t.games if g.white_code in "1=0"]


def test_titles_one_to_three_letters():
    lines = [
        player_line(1, "A", [(2, "w", "=")], title="g"),
        player_line(2, "B", [(1, "b", "=")], title="wf"),
        player_line(3, "C", [], title="WGM"),
        player_line(4, "D", [], title="cm"),
    ]
    t = read_trf(trf(*lines))
    assert [p.title for p in t.players] == ["GM", "WFM", "WGM", "CM"]


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        ("2024/03/01", "2024/03/03", (datetime.date(2024, 3, 1), datetime.date(2024, 3, 3))),
        ("2024-03-01", "2024.03.03", (datetime.date(2024, 3, 1), datetime.date(2024, 3, 3))),
        ("01.03.2024", "3. 3. 2024", (datetime.date(2024, 3, 1), datetime.date(2024, 3, 3))),
        ("28. 07. 2005", "31. 07. 2005", (datetime.date(2005, 7, 28), datetime.date(2005, 7, 31))),
        ("May 29, 2020", "Jun 26, 2020", (datetime.date(2020, 5, 29), datetime.date(2020, 6, 26))),
        ("13/04/2018", "08/06/2018", (datetime.date(2018, 4, 13), datetime.date(2018, 6, 8))),
        ("04/13/2018", "06/08/2018", (datetime.date(2018, 4, 13), datetime.date(2018, 6, 8))),
    ],
)
def test_head_date_forms(start, end, expected):
    t = read_trf(trf(*A_B, head=("012 T", f"042 {start}", f"052 {end}")))
    assert (t.head.start_date, t.head.end_date) == expected


@pytest.mark.parametrize("start", ["2026/02/30", "31.04.2026", "Feb 29, 2025", "2026/13/01"])
def test_a_day_that_does_not_exist_is_an_error_not_a_crash(start):
    """Each form's digits pass its pattern; only the calendar says no."""
    assert _error(*A_B, head=("012 T", f"042 {start}", "052 2026/05/03")) == [
        f"Zeile 2, Spalten 5–{4 + len(start)}: Datum „{start}“ nicht lesbar."
    ]


def test_dd_mm_ambiguity_resolved_by_round_dates():
    rounds = "132" + " " * 88 + "18/04/08  18/05/13  18/06/10"
    t = read_trf(trf(*A_B, head=("012 T", "042 08/04/2018", "052 10/06/2018", rounds)))
    assert (t.head.start_date, t.head.end_date) == (datetime.date(2018, 4, 8), datetime.date(2018, 6, 10))
    assert t.head.date_order == "dmy"
    assert t.head.round_dates[1] == datetime.date(2018, 5, 13)


def test_dd_mm_ambiguity_resolved_by_a_birth_date():
    lines = [player_line(1, "A", [(2, "w", "1")], birth="25/12/1980"), player_line(2, "B", [(1, "b", "0")])]
    t = read_trf(trf(*lines, head=("012 T", "042 08/04/2018", "052 10/04/2018")))
    assert t.head.start_date == datetime.date(2018, 4, 8) and t.player(1).birth_date == datetime.date(
        1980, 12, 25
    )


def test_dd_mm_ambiguity_unresolved_asks_the_user():
    data = trf(*A_B, head=("012 T", "042 08/04/2018", "052 10/04/2018"))
    with pytest.raises(AmbiguousDateError) as exc:
        read_trf(data)
    assert messages(exc)[0] == (
        "Zeile 2, Spalten 5–14: Datum „08/04/2018“ ist mehrdeutig (08.04.2018 oder 04.08.2018); bitte "
        "angeben, ob die Datei TT/MM/JJJJ oder MM/TT/JJJJ schreibt."
    )
    assert read_trf(data, date_order="mdy").head.start_date == datetime.date(2018, 8, 4)
    assert read_trf(data, date_order="dmy").head.start_date == datetime.date(2018, 4, 8)


def test_end_date_from_the_last_round_when_052_is_missing():
    rounds = "132" + " " * 88 + "26/03/06  26/03/07  26/03/08"
    t = read_trf(trf(*A_B, head=("012 T", rounds)))
    assert (t.head.start_date, t.head.end_date) == (datetime.date(2026, 3, 6), datetime.date(2026, 3, 8))


def test_birth_dates_and_unrated_zero():
    lines = [
        player_line(1, "A", [(2, "w", "1")], birth="1981", rating="0", fide_id="0"),
        player_line(2, "B", [(1, "b", "0")], birth="1990/00/00", rating="1500"),
    ]
    t = read_trf(trf(*lines))
    a, b = t.players
    assert (a.birth_year, a.birth_date, a.fide_rating, a.fide_id) == (1981, None, None, None)
    assert (b.birth_year, b.birth_date, b.fide_rating) == (1990, None, 1500)


def test_trf26_comments_scoring_tiebreaks_and_national_records():
    head = (
        "###      1         2         3",
        "012 Open",
        "042 2026/03/06",
        "052 2026/03/08",
        "142 2",
        "162  W 3.0    D 1.0    L 0.0",
        "172 GER NIDOF",
        "202 BH/C1,SB",
    )
    lines = [
        player_line(1, "A", [(2, "w", "1"), (0, "-", "H")], points="4.0"),
        ger_line(1, "1802", "NU4005017"),
        player_line(2, "B", [(1, "b", "0"), (0, "-", "U")], points="3.0"),
        ger_line(2, "", "C0505-1043"),
        "XXZ 3",
        "DAT    1 1 something",
    ]
    t = read_trf(trf(*lines, head=head))
    assert (
        t.head.rounds == 2 and t.head.tiebreaks == ["BH/C1", "SB"] and t.head.start_rank_method == "GER NIDOF"
    )
    assert t.player(1).computed_points == Decimal(4) and t.player(2).computed_points == Decimal(
        3
    )  # U = W = 3
    assert t.player(1).dwz == 1802 and t.player(2).dwz is None and t.player(2).person_id == "C0505-1043"
    assert t.kept_lines == ["XXZ 3", "DAT    1 1 something"] and t.warnings == []


def test_person_ids():
    assert person_id("NU4005017").kind == "nu"
    member = person_id("c0505-1043")
    assert (member.kind, member.zps, member.member_number) == ("member", "C0505", "1043")
    assert person_id("  10012345").value == "10012345" and person_id("10012345").kind == "pkz"
    assert person_id("abc").kind == "raw" and person_id("   ") is None


def test_unknown_records_are_warnings():
    t = read_trf(trf(*A_B, "999 whatever", "abc lower case"))
    assert [str(w) for w in t.warnings] == [
        "Zeile 6, Spalten 1–3: Unbekannter Satz „999“ – nicht ausgewertet.",
        "Zeile 7, Spalten 1–3: Unbekannter Satz „abc“ – nicht ausgewertet.",
    ]


def test_points_mismatch_is_a_warning():
    lines = [player_line(1, "A", [(2, "w", "1")], points="0.5"), player_line(2, "B", [(1, "b", "0")])]
    t = read_trf(trf(*lines))
    assert [str(w) for w in t.warnings] == [
        "Zeile 4, Spalten 81–84: Punkte 0.5 in der Datei, aus den Ergebnissen 1.0."
    ]


# --- errors name line and columns ----------------------------------------------------------------------


def _error(*lines, head=("012 T", "042 2024/03/01", "052 2024/03/03")):
    with pytest.raises(TrfError) as exc:
        read_trf(trf(*lines, head=head))
    return messages(exc)


def test_opponent_not_in_the_list():
    lines = [
        player_line(i, f"P{i}", [(i + 1 if i % 2 else i - 1, "w" if i % 2 else "b", "=")])
        for i in range(1, 14)
    ]
    lines[12] = player_line(13, "P13", [(287, "w", "1")])
    errors = _error(*lines, head=("012 T", "022 Ort", "042 2024/03/01", "052 2024/03/03"))
    assert "Zeile 17, Spalten 92–95: Gegner 0287 steht nicht in der Teilnehmerliste." in errors


def test_pairings_must_agree_from_both_sides():
    assert _error(
        player_line(1, "A", [(2, "w", "1")]),
        player_line(2, "B", [(3, "b", "0")]),
        player_line(3, "C", [(2, "w", "1")]),
    ) == [
        "Zeile 4, Spalten 92–95: Runde 1: Gegner 0002 nennt in dieser Runde nicht 0001 (Zeile 5).",
    ]
    assert _error(player_line(1, "A", [(2, "w", "1")]), player_line(2, "B", [(1, "w", "0")])) == [
        "Zeile 4, Spalte 97: Runde 1: Farben passen nicht zu Gegner 0002 (Zeile 5)."
    ]
    assert _error(player_line(1, "A", [(2, "w", "1")]), player_line(2, "B", [(1, "b", "=")])) == [
        "Zeile 4, Spalte 99: Runde 1: Ergebnis „1“ passt nicht zu „=“ von Gegner 0002 (Zeile 5)."
    ]


def test_byes_and_played_codes_need_the_right_opponent_field():
    assert _error(player_line(1, "A", [(2, "w", "H")]), player_line(2, "B", [(1, "b", "H")])) == [
        "Zeile 4, Spalten 92–99: Runde 1: Freilos „H“ mit Gegner 0002.",
        "Zeile 5, Spalten 92–99: Runde 1: Freilos „H“ mit Gegner 0001.",
    ]
    assert _error(player_line(1, "A", [(0, "-", "1")])) == [
        "Zeile 4, Spalten 92–99: Runde 1: Ergebnis „1“ ohne Gegner."
    ]
    assert _error(player_line(1, "A", [(2, "w", " ")]), player_line(2, "B", [(1, "b", " ")]))[0] == (
        "Zeile 4, Spalten 92–99: Runde 1: Ergebnis gegen 0002 fehlt."
    )


def test_bad_fields_name_their_columns():
    errors = _error(
        player_line(1, "A", [(2, "x", "1")]),
        player_line(2, "B", [("1a", "b", "0")]),
        player_line(3, "C", [(0, "-", "Q")], rating="20x5", birth="17.17.1990"),
        player_line(3, "D", []),
        "001 " + " " * 4 + " m    E",
    )
    assert errors == [
        "Zeile 4, Spalte 97: Runde 1: Farbe „x“ – erlaubt sind w, b und -.",
        "Zeile 5, Spalten 92–95: Runde 1: Gegner „1a“ ist keine Startnummer.",
        "Zeile 6, Spalten 49–52: Elo „20x5“ ist keine Zahl.",
        "Zeile 6, Spalten 70–79: Geburtsdatum „17.17.1990“ nicht lesbar.",
        "Zeile 6, Spalte 99: Runde 1: unbekanntes Ergebnis „Q“.",
        "Zeile 8, Spalten 5–8: Startnummer fehlt oder ist 0.",
    ]
    assert _error(*A_B, player_line(2, "C", [])) == [
        "Zeile 6, Spalten 5–8: Startnummer 0002 doppelt (auch Zeile 5)."
    ]


def test_shifted_columns_are_an_error():
    line = player_line(2, "B", [(1, "b", "0")])
    errors = _error(player_line(1, "A", [(2, "w", "1")]), line[:4] + " " + line[4:])
    assert (
        errors[0] == "Zeile 5, Spalte 9: Hier muss ein Leerzeichen stehen, nicht „2“ (Spalten verschoben?)."
    )
    assert all(e.startswith("Zeile 5") for e in errors)


def test_control_characters_and_foreign_files():
    assert _error(*A_B, "012 bad\x00name") == ["Zeile 6, Spalte 8: Steuerzeichen U+0000 im Text."]
    with pytest.raises(TrfError) as exc:
        read_trf(b"Nr|Name|Elo\n1|Muster|2100\n")
    assert messages(exc) == [
        "Keine TRF-Datei: die Datei sieht aus wie eine CSV-Tabelle (Spalten getrennt durch „|“, erste Zeile "
        "„Nr|Name|Elo“). TRF-Sätze beginnen mit einer Satzkennung wie 001 (Spieler) oder 012 (Turniername)."
    ]
    with pytest.raises(TrfError) as exc:  # a TRF head without players is a TRF file without players
        read_trf(b"012 Nur der Kopf\n")
    assert messages(exc) == ["Keine Spielersätze (001) gefunden – ist das eine TRF-Datei?"]


def test_a_csv_file_is_no_trf_file_not_line_977():
    """Issue 32: the DeWIS organisation CSV uploaded as TRF said "Zeile 977 … Rundenzahl" (a line starting
    with 142, the TRF code of the round count); it is no TRF file at all, and looks like a CSV table."""
    data = (Path(__file__).resolve().parents[1] / "data" / "dewis-organizations-2019-08-02.csv").read_bytes()
    with pytest.raises(TrfError) as exc:
        read_trf(data)
    assert len(exc.value.problems) == 1
    problem = exc.value.problems[0]
    assert problem.line is None
    assert problem.message.startswith("Keine TRF-Datei: die Datei sieht aus wie eine CSV-Tabelle")
    assert "„,“" in problem.message and "dewis_id,vkz,name" in problem.message
    with pytest.raises(TrfError) as exc:  # the same as text, with semicolons
        read_trf(data.decode().replace(",", ";"))
    assert "„;“" in exc.value.problems[0].message


@pytest.mark.parametrize(
    ("data", "start"),
    [
        (b"PK\x03\x04\x14\x00rest", "Keine TRF-Datei: die Datei ist ein ZIP-Archiv"),
        (b"%PDF-1.7\n%\xe2\xe3", "Keine TRF-Datei: die Datei ist ein PDF-Dokument"),
        (b"<html><body>Turnier</body></html>\n", "Keine TRF-Datei: die Datei sieht aus wie XML oder HTML"),
        (b"", "Keine TRF-Datei: keine Zeile beginnt mit einer TRF-Satzkennung"),
        (b"Liebe Schachfreunde,\nanbei das Turnier.\n", "Keine TRF-Datei: keine Zeile beginnt"),
    ],
)
def test_foreign_files_say_what_they_look_like(data, start):
    with pytest.raises(TrfError) as exc:
        read_trf(data)
    assert [p.line for p in exc.value.problems] == [None]
    assert exc.value.problems[0].message.startswith(start)


def test_a_player_only_once_per_round():
    errors = _error(
        player_line(1, "A", [(2, "w", "1")]),
        player_line(2, "B", [(1, "b", "0")]),
        player_line(3, "C", [(2, "w", "1")]),
    )
    assert errors == [
        "Zeile 6, Spalten 92–95: Runde 1: Gegner 0002 nennt in dieser Runde nicht 0003 (Zeile 5)."
    ]


def test_player_dataclass_defaults():
    p = TrfPlayer(start_rank=1, name="X", surname="X")
    assert p.dwz is None and p.person_id == "" and p.ger is None
