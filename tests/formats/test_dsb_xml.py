"""The DSB tournament report XML 2.5 (formats.md §3.10): both writers' samples, the writer, the checks."""

import dataclasses
import datetime
import uuid
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from ratings.folding import search_key
from ratings.formats import dsb_xml
from ratings.formats.dsb_xml import (
    DsbXmlError,
    Game,
    Header,
    Player,
    Report,
    Tournament,
    check,
    check_problems,
    parse,
    write,
)

DATA = Path(__file__).resolve().parent.parent / "data" / "dsb-xml"
CLM = DATA / "clm-style.xml"
NSV = DATA / "nsv-style.xml"
XSD = DATA / "DSB_DWZ_TournamentReport-2.5.xsd"
NS = "{http://www.schachbund.de/XMLSchema}"
UTC2 = datetime.timezone(datetime.timedelta(hours=2))


@pytest.fixture(scope="module")
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD)))


def assert_valid(schema: etree.XMLSchema, data: bytes) -> None:
    doc = etree.fromstring(data)
    assert schema.validate(doc), [f"{e.line}: {e.message}" for e in schema.error_log]


def messages(exc_info: pytest.ExceptionInfo[DsbXmlError]) -> list[str]:
    return [str(p) for p in exc_info.value.problems]


def line_of(text: str, marker: str, occurrence: int = 1) -> int:
    at = -1
    for _ in range(occurrence):
        at = text.index(marker, at + 1)
    return text[:at].count("\n") + 1


# --- a minimal report to vary --------------------------------------------------------------------------

PLAYER_1 = """    <player>
      <tournamentPlayerNumber>1</tournamentPlayerNumber>
      <surname>Müller</surname>
      <forename>Jörg</forename>
      <dobYear>1970</dobYear>
    </player>
"""
PLAYER_2 = """    <player>
      <tournamentPlayerNumber>2</tournamentPlayerNumber>
      <surname>Weiß</surname>
      <forename>Anna</forename>
      <dobYear>1990</dobYear>
    </player>
"""
GAME = """    <game>
      <round>1</round>
      <date>2026-05-02</date>
      <tournamentPlayerNumberWhite>1</tournamentPlayerNumberWhite>
      <tournamentPlayerNumberBlack>2</tournamentPlayerNumberBlack>
      <pointWhite>1</pointWhite>
      <pointBlack>0</pointBlack>
    </game>
"""


def doc(
    *,
    players: str = PLAYER_1 + PLAYER_2,
    games: str = GAME,
    start: str = "2026-05-02",
    created: str = "2026-05-03T10:00:00+02:00",
    root: str = 'DSB_DWZ_TournamentReport xmlns="http://www.schachbund.de/XMLSchema" version="2.5"',
    tournament_extra: str = "",
) -> str:
    root_name = root.split()[0]
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<{root}>
  <header>
    <creationDate>{created}</creationDate>
    <sender>Bezirk Süd - Eva Schulz</sender>
    <system>dwzsite 1.0</system>
    <fileUUID>11111111-2222-4333-8444-555555555555</fileUUID>
  </header>
  <tournament>
    <tournamentUUID>aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee</tournamentUUID>
    <label>Maiturnier</label>
    <tournamentType>SW</tournamentType>
    <rounds>1</rounds>
    <startDate>{start}</startDate>
    <endDate>2026-05-02</endDate>
    <location>Ulm</location>{tournament_extra}
  </tournament>
  <players>
{players}  </players>
  <games>
{games}  </games>
</{root_name}>
"""


def test_minimal_document_reads():
    r = parse(doc().encode())
    assert r.tournament.label == "Maiturnier" and [p.name for p in r.players] == [
        "Müller, Jörg",
        "Weiß, Anna",
    ]
    assert r.games == (Game(1, 1, 2, "1", "0", datetime.date(2026, 5, 2)),)
    assert r.warnings == () and r.encoding == "UTF-8" and r.version == "2.5"


# --- the two writers' files -----------------------------------------------------------------------------


def test_clm_sample_every_field():
    r = parse(CLM.read_bytes())
    assert r.encoding == "Windows-1252"
    assert r.header == Header(
        creation_date=datetime.datetime(2026, 7, 1, 20, 15),  # CLM writes no offset
        sender="Ergebnisdienst Bezirk Oberbayern - Kurt Weiss",
        system="ChessLeagueManager 5.0.1",
        file_uuid=uuid.UUID("3f2b8c1e-6a4d-4e9b-8f0a-1c2d3e4f5a6b"),
    )
    assert r.tournament == Tournament(
        uuid=uuid.UUID("9a8b7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d"),
        label="Vereinsmeisterschaft 2026 SC Muenchen-Sued",
        type="SR",
        rounds=3,
        start_date=datetime.date(2026, 6, 10),
        end_date=datetime.date(2026, 7, 1),
        location="München",  # a Latin-1 byte under the UTF-8 declaration, read as Windows-1252
        time_control="90 min/40 Züge + 30 min, 30 s/Zug",
        notes="ChessLeagueManager 5.0.1 - Ergebnisdienst Bezirk Oberbayern - Kurt Weiss",
    )
    assert r.players == (
        Player(
            number=1,
            surname="Mueller",
            forename="Joerg",
            birth_year=1968,
            dsb_id="NU1234567",
            vkz="21001",
            member_number=17,
            club="SC Muenchen-Sued",
            fide_id=24612345,
            fide_rating=2105,
            sex="m",
        ),
        Player(
            number=2,
            surname="Weiss",
            forename="Kurt",
            birth_year=1955,
            dsb_id="10234567",
            birth_date=datetime.date(1955, 3, 14),
            vkz="21001",
            member_number=3,
            club="SC Muenchen-Sued",
            sex="m",
        ),
        Player(3, "Schroeder", "Baerbel", 2009, vkz="21001", club="SC Muenchen-Sued", sex="w"),
        Player(4, "Koenig", "Hans-Juergen", 1979, dsb_id="FI4611004", fide_id=4611004, sex="m"),
    )
    d = datetime.date
    assert r.games == (
        Game(1, 1, 4, "1", "0", d(2026, 6, 10)),
        Game(1, 2, 3, "0.5", "0.5", d(2026, 6, 10)),
        Game(2, 4, 3, "0", "0", d(2026, 6, 17)),
        Game(2, 1, 2, "0.5", "0", d(2026, 6, 17)),
        Game(3, 2, 4, "+", "-", None),
        Game(3, 3, 1, "0", "1", d(2026, 7, 1)),
    )
    assert [g.kind for g in r.games] == ["played", "played", "arbiter", "arbiter", "forfeit", "played"]
    assert r.rated_games == [r.games[0], r.games[1], r.games[5]]
    text = CLM.read_bytes().decode("cp1252")
    assert [p.line for p in r.players] == [line_of(text, "<player>", i) for i in (1, 2, 3, 4)]
    assert r.games[2].line == line_of(text, "<game>", 3)
    assert [str(w) for w in r.warnings] == [
        f"Zeile {line_of(text, '<timecontrol>')}: Die Datei ist als UTF-8 erklärt, enthält aber andere "
        "Bytes; sie wurde als Windows-1252 gelesen. Bitte Umlaute prüfen.",
        f"Zeile {r.games[2].line}, <game>: Runde 2: 0–0 ergibt nicht einen Punkt (Schiedsrichterentscheid) "
        "– übernommen, nicht gewertet.",
        f"Zeile {r.games[3].line}, <game>: Runde 2: 0.5–0 ergibt nicht einen Punkt (Schiedsrichterentscheid) "
        "– übernommen, nicht gewertet.",
    ]
    assert check(r) == []


def test_nsv_sample_every_field():
    r = parse(NSV.read_bytes())
    assert r.encoding == "UTF-8"
    assert r.header == Header(
        creation_date=datetime.datetime(2026, 7, 1, 20, 15, tzinfo=UTC2),
        sender="Norddeutscher Schachverband - Jürgen Weiß",
        system="NSV Ligamanager",
        file_uuid=uuid.UUID("0b5e1a52-7c0f-4d6e-a1b2-c3d4e5f60718"),
    )
    assert r.header.creation_date.utcoffset() == datetime.timedelta(hours=2)
    assert r.tournament == Tournament(
        uuid=uuid.UUID("5c7e9f10-2b3a-4c5d-8e6f-7a8b9c0d1e2f"),
        label="Jugendlandesliga Nord 2025/26 Staffel A",
        type="TR",
        rounds=2,
        start_date=datetime.date(2026, 3, 8),
        end_date=datetime.date(2026, 4, 19),
        location="Lüneburg",
        time_control="90 min + 30 s/Zug",
        url="https://nsv.example/liga/jln-2025-26-a",
        age_class="U20",
    )
    assert r.players == (
        Player(
            1,
            "Müller",
            "Jörg",
            2008,
            vkz="N0102",
            member_number=245,
            club="SK Lüneburg 1",
            fide_rating=1874,
            sex="m",
        ),
        Player(
            2,
            "Weiß",
            "Lara",
            2010,
            birth_date=datetime.date(2010, 11, 2),
            vkz="N0102",
            member_number=311,
            club="SK Lüneburg 1",
            sex="w",
        ),
        Player(3, "Özdemir", "Can", 2007, vkz="N0210", member_number=58, club="Lübecker SV 2", sex="m"),
        Player(4, "Jäger", "Finn", 2009, vkz="N0210", member_number=61, club="Lübecker SV 2", sex="m"),
        Player(5, "Brandt", "Merle", 2011, vkz="N0301", member_number=1203, club="Hamburger SK 3", sex="w"),
        Player(6, "Hoffmann", "Ole", 2008, vkz="N0301", member_number=1177, club="Hamburger SK 3", sex="m"),
        Player(7, "Krüger", "Paul", 2012, vkz="N0102", member_number=402, club="SK Lüneburg 1", sex="m"),
    )
    assert all(p.dsb_id == "" and p.fide_id is None for p in r.players)  # the NSV writes neither
    d = datetime.date
    assert r.games == (
        Game(1, 1, 3, "0.5", "0.5", d(2026, 3, 8)),
        Game(1, 4, 2, "0", "0", d(2026, 3, 8)),
        Game(2, 1, 5, "0.5", "0", d(2026, 4, 12)),
        Game(2, 6, 2, "1", "0", d(2026, 4, 19)),  # postponed: its own day
        Game(2, None, 7, "-", "+", d(2026, 4, 12)),  # empty board
    )
    assert [g.kind for g in r.games] == ["played", "arbiter", "arbiter", "played", "bye"]
    assert dsb_xml.last_game_day(r.games) == r.tournament.end_date
    assert len(r.warnings) == 2 and all("Schiedsrichterentscheid" in str(w) for w in r.warnings)
    assert check(r) == []


def test_nsv_sample_validates_against_the_schema(schema):
    assert_valid(schema, NSV.read_bytes())


def test_clm_names_fold_to_the_umlaut_names():
    """The importer matches CLM's names with ratings.folding's search key (ä = ae, ß = ss)."""
    assert search_key("Mueller, Joerg") == search_key("Müller, Jörg") == "muller, jorg"
    clm = parse(CLM.read_bytes()).players
    pairs = [
        (clm[0].name, "Müller, Jörg"),
        (clm[1].name, "Weiß, Kurt"),
        (clm[2].name, "Schröder, Bärbel"),
        (clm[3].name, "König, Hans-Jürgen"),
        ("SC Muenchen-Sued", "SC München-Süd"),
    ]
    for written, real in pairs:
        assert search_key(written) == search_key(real), (written, real)
    assert search_key(clm[0].name) == search_key(parse(NSV.read_bytes()).players[0].name)
    assert search_key("Mueller, Joerg") != search_key("Müller, Jürgen")


# --- writing --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [CLM, NSV], ids=lambda p: p.name)
def test_round_trip_of_the_samples(path, schema):
    r = parse(path.read_bytes())
    out = write(r)
    assert_valid(schema, out)
    assert dsb_xml.schema_problems(out, XSD.read_bytes()) == []
    back = parse(out)
    # url and ageClass are never written (formats.md §3.10: their place is unconfirmed).
    assert back == dataclasses.replace(r, tournament=dataclasses.replace(r.tournament, url="", age_class=""))
    assert back.encoding == "UTF-8" and all("UTF-8" not in str(w) for w in back.warnings)
    assert write(back) == out


def test_written_file_head_and_element_order():
    r = parse(CLM.read_bytes())
    out = write(r)
    assert out.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<DSB_DWZ_TournamentReport ')
    assert "Müller".encode() not in out and "München".encode() in out  # UTF-8, names as given
    root = etree.fromstring(out)
    assert root.tag == f"{NS}DSB_DWZ_TournamentReport" and root.get("version") == "2.5"
    assert root.get("{http://www.w3.org/2001/XMLSchema-instance}schemaLocation") == (
        "http://www.schachbund.de/XMLSchema "
        "https://www.schachbund.de/files/wertungsportal/XMLSchema/2026/DSB_DWZ_Tounament_2_5.xsd"
    )

    def names(el):
        return [etree.QName(c).localname for c in el]

    assert names(root) == ["header", "tournament", "players", "games"]
    assert names(root.find(f"{NS}header")) == ["creationDate", "sender", "system", "fileUUID"]
    assert root.findtext(f"{NS}header/{NS}creationDate") == "2026-07-01T20:15:00"  # ISO 8601
    assert names(root.find(f"{NS}tournament")) == [
        "tournamentUUID",
        "label",
        "tournamentType",
        "timecontrol",
        "rounds",
        "startDate",
        "endDate",
        "location",
        "notes",
    ]
    players = root.findall(f"{NS}players/{NS}player")
    assert names(players[0]) == [
        "tournamentPlayerNumber",
        "dsbId",
        "surname",
        "forename",
        "dobYear",
        "vkz",
        "numberClubMember",
        "club",
        "fideId",
        "fideRating",
        "sex",
    ]
    assert names(players[1])[4:6] == ["dobYear", "dobDate"]
    games = root.findall(f"{NS}games/{NS}game")
    assert names(games[0]) == [
        "round",
        "date",
        "tournamentPlayerNumberWhite",
        "tournamentPlayerNumberBlack",
        "pointWhite",
        "pointBlack",
    ]
    assert names(games[4]) == [
        "round",
        "tournamentPlayerNumberWhite",
        "tournamentPlayerNumberBlack",
        "pointWhite",
        "pointBlack",
    ]
    # every written element in the order of the module's tables (which are §3.10's)
    for el, order in (
        (root.find(f"{NS}tournament"), dsb_xml.TOURNAMENT_ELEMENTS),
        *((p, dsb_xml.PLAYER_ELEMENTS) for p in players),
        *((g, dsb_xml.GAME_ELEMENTS) for g in games),
    ):
        positions = [order.index(n) for n in names(el)]
        assert positions == sorted(positions)


def test_writer_never_writes_url_and_age_class_and_writes_the_empty_board(schema):
    r = parse(NSV.read_bytes())
    out = write(r)
    assert b"<url>" not in out and b"<ageClass>" not in out and b"<dsbId>" not in out
    assert b"<noneWhitePlayer>true</noneWhitePlayer>" in out
    assert_valid(schema, out)


def test_writer_refuses_a_report_that_is_not_exportable():
    r = parse(NSV.read_bytes())
    players = (dataclasses.replace(r.players[0], birth_year=None), *r.players[1:])
    with pytest.raises(DsbXmlError) as exc:
        write(dataclasses.replace(r, players=players))
    line = line_of(NSV.read_text(encoding="utf-8"), "<player>")
    assert messages(exc) == [f"Zeile {line}, <dobYear>: Müller, Jörg (Startnummer 1) hat kein Geburtsjahr."]


# --- hypothesis: generated reports round-trip and validate ----------------------------------------------

_text = st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), max_size=30).map(str.strip)
_some_text = _text.filter(bool)
_dates = st.dates(datetime.date(1990, 1, 1), datetime.date(2099, 12, 31))
_zones = st.none() | st.integers(-14 * 60, 14 * 60).map(
    lambda m: datetime.timezone(datetime.timedelta(minutes=m))
)


@st.composite
def reports(draw: st.DrawFn) -> Report:
    start = draw(_dates)
    end = start + datetime.timedelta(days=draw(st.integers(0, 400)))
    rounds = draw(st.integers(1, 15))
    tournament = Tournament(
        uuid=draw(st.uuids()),
        label=draw(_some_text),
        type=draw(st.sampled_from(dsb_xml.TOURNAMENT_TYPES)),
        rounds=rounds,
        start_date=start,
        end_date=end,
        location=draw(_text),
        time_control=draw(_text),
        notes=draw(_text),
    )
    header = Header(
        creation_date=draw(
            st.datetimes(datetime.datetime(1990, 1, 1), datetime.datetime(2099, 12, 31), timezones=_zones)
        ),
        sender=draw(_text),
        system=draw(_text),
        file_uuid=draw(st.uuids()),
    )
    numbers = draw(st.lists(st.integers(1, 9999), min_size=1, max_size=8, unique=True))
    players = tuple(
        Player(
            number=n,
            surname=draw(_some_text),
            forename=draw(_text),
            birth_year=draw(st.integers(1900, 2026)),
            dsb_id=draw(st.just("") | st.from_regex(r"(NU|FI)[0-9]{1,9}|[0-9]{1,9}", fullmatch=True)),
            birth_date=draw(st.none() | st.dates(datetime.date(1900, 1, 1), datetime.date(2026, 12, 31))),
            vkz=draw(st.just("") | st.from_regex(r"[0-9A-Z]{5}", fullmatch=True)),
            member_number=draw(st.none() | st.integers(1, 99999)),
            club=draw(_text),
            fide_id=draw(st.none() | st.integers(1, 10**9)),
            fide_rating=draw(st.none() | st.integers(1, 5000)),
            sex=draw(st.sampled_from(["", "m", "w"])),
        )
        for n in numbers
    )
    side = st.none() | st.sampled_from(numbers)
    games = []
    for _ in range(draw(st.integers(0, 10))):
        white, black = draw(side), draw(side)
        if white is not None and white == black:
            black = None
        games.append(
            Game(
                round=draw(st.integers(1, rounds)),
                white=white,
                black=black,
                point_white=draw(st.sampled_from(dsb_xml.POINTS)),
                point_black=draw(st.sampled_from(dsb_xml.POINTS)),
                date=draw(st.none() | _dates),
            )
        )
    return Report(header, tournament, players, tuple(games))


@settings(max_examples=60, deadline=None)
@given(reports())
def test_generated_reports_round_trip_and_validate(schema, report):
    out = write(report)
    assert_valid(schema, out)
    assert parse(out) == report
    assert write(parse(out)) == out


# --- errors name the element and the line ---------------------------------------------------------------


def test_not_xml():
    with pytest.raises(DsbXmlError) as exc:
        parse(b"Name;Vorname;Geburtsjahr\nM\xfcller;J\xf6rg;1970\n")
    [problem] = exc.value.problems
    assert problem.line == 1 and str(problem).startswith("Zeile 1: Keine gültige XML-Datei (")
    with pytest.raises(DsbXmlError) as exc:
        parse(b"<?xml version='1.0'?>\n<DSB_DWZ_TournamentReport>\n  <header>\n</DSB_DWZ_TournamentReport>\n")
    [problem] = exc.value.problems
    assert problem.line == 4 and "Keine gültige XML-Datei" in problem.message
    with pytest.raises(DsbXmlError) as exc:
        parse(b"  \n")
    assert messages(exc) == ["Die Datei ist leer – keine XML-Datei."]


def test_wrong_root():
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n\n<tournamentReport version="2.5"><x/></tournamentReport>\n'
    )
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [
        "Zeile 3, <tournamentReport>: Kein DSB-Turnierbericht: das Wurzelelement ist <tournamentReport>, "
        "nicht <DSB_DWZ_TournamentReport>."
    ]


def test_missing_required_elements_all_at_once():
    text = doc(players=PLAYER_1.replace("      <dobYear>1970</dobYear>\n", "") + PLAYER_2)
    text = text.replace("    <location>Ulm</location>", "")
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [
        f"Zeile {line_of(text, '<tournament>')}, <tournament>: "
        "Pflichtelement <location> fehlt in <tournament>.",
        f"Zeile {line_of(text, '<player>')}, <player>: Pflichtelement <dobYear> fehlt in <player>.",
    ]
    problem = exc.value.problems[1]
    assert (problem.element, problem.params["name"]) == ("player", "dobYear")


def test_missing_part_and_empty_players():
    text = doc(players="")
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [
        f"Zeile {line_of(text, '<players>')}, <players>: <players> enthält keinen <player>.",
        f"Zeile {line_of(text, '<tournamentPlayerNumberWhite>')}, <tournamentPlayerNumberWhite>: "
        "Startnummer 1 ist in <players> nicht aufgeführt.",
        f"Zeile {line_of(text, '<tournamentPlayerNumberBlack>')}, <tournamentPlayerNumberBlack>: "
        "Startnummer 2 ist in <players> nicht aufgeführt.",
    ]
    start, end = text.index("  <header>"), text.index("  <tournament>")
    with pytest.raises(DsbXmlError) as exc:
        parse((text[:start] + text[end:]).encode())
    assert messages(exc)[0] == (
        "Zeile 2, <DSB_DWZ_TournamentReport>: Pflichtelement <header> fehlt in <DSB_DWZ_TournamentReport>."
    )


@pytest.mark.parametrize(
    ("start", "created", "element", "message"),
    [
        ("2026-02-30", None, "startDate", "„2026-02-30“ ist kein Datum (JJJJ-MM-TT)."),
        ("Mai 2026", None, "startDate", "„Mai 2026“ ist kein Datum (JJJJ-MM-TT)."),
        (
            None,
            "gestern",
            "creationDate",
            "„gestern“ ist kein Zeitpunkt (erwartet 2026-07-01T20:15:00+02:00 oder 01.07.2026T20:15:00).",
        ),
        (
            None,
            "32.07.2026T20:15:00",
            "creationDate",
            "„32.07.2026T20:15:00“ ist kein Zeitpunkt (erwartet 2026-07-01T20:15:00+02:00 oder "
            "01.07.2026T20:15:00).",
        ),
    ],
)
def test_bad_dates(start, created, element, message):
    kwargs = {"start": start} if start else {"created": created}
    text = doc(**kwargs)
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [f"Zeile {line_of(text, f'<{element}>')}, <{element}>: {message}"]


def test_end_before_start():
    text = doc(start="2026-05-09")
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [
        f"Zeile {line_of(text, '<endDate>')}, <endDate>: Das Ende 2026-05-02 liegt vor dem Beginn 2026-05-09."
    ]


@pytest.mark.parametrize("score", ["2", "remis", "1:0", "", "sNaN", "Infinity"])
def test_bad_score(score):
    text = doc(games=GAME.replace("<pointBlack>0</pointBlack>", f"<pointBlack>{score}</pointBlack>"))
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [
        f"Zeile {line_of(text, '<pointBlack>')}, <pointBlack>: Ergebnis „{score}“ ist ungültig; "
        "erlaubt sind 1, 0.5, 0, + und -."
    ]


def test_game_naming_an_unknown_start_number():
    text = doc(
        games=GAME + GAME.replace("<tournamentPlayerNumberBlack>2<", "<tournamentPlayerNumberBlack>9<")
    )
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [
        f"Zeile {line_of(text, '<tournamentPlayerNumberBlack>', 2)}, <tournamentPlayerNumberBlack>: "
        "Startnummer 9 ist in <players> nicht aufgeführt."
    ]


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (
            ("<tournamentPlayerNumberWhite>1</tournamentPlayerNumberWhite>", ""),
            "Zeile {game}, <game>: Pflichtelement <tournamentPlayerNumberWhite> oder <noneWhitePlayer> "
            "fehlt in <game>.",
        ),
        (
            (
                "<pointWhite>1</pointWhite>",
                "<noneWhitePlayer>true</noneWhitePlayer><pointWhite>1</pointWhite>",
            ),
            "Zeile {point}, <noneWhitePlayer>: <tournamentPlayerNumberWhite> und <noneWhitePlayer> schließen "
            "einander aus.",
        ),
        (
            ("<tournamentPlayerNumberBlack>2<", "<tournamentPlayerNumberBlack>1<"),
            "Zeile {black}, <tournamentPlayerNumberBlack>: Startnummer 1 spielt gegen sich selbst.",
        ),
        (
            ("<round>1</round>", "<round>eins</round>"),
            "Zeile {round}, <round>: „eins“ ist keine ganze Zahl.",
        ),
        (
            ("<round>1</round>", "<round>1</round><round>2</round>"),
            "Zeile {round}, <round>: <round> steht mehrfach in <game> (zuerst Zeile {round}).",
        ),
    ],
)
def test_bad_games(replace, message):
    text = doc(games=GAME.replace(*replace))
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    lines = {
        "game": line_of(text, "<game>"),
        "point": line_of(text, "<pointWhite>"),
        "black": line_of(text, "<tournamentPlayerNumberBlack>"),
        "round": line_of(text, "<round>"),
    }
    assert messages(exc) == [message.format(**lines)]


@pytest.mark.parametrize(
    ("replace", "element", "message"),
    [
        (("<dobYear>1970<", "<dobYear>70<"),
         "dobYear", "Geburtsjahr „70“ ist keine vierstellige Jahreszahl."),
        (("<dobYear>1970</dobYear>", "<dobYear>1970</dobYear><numberClubMember>0</numberClubMember>"),
         "numberClubMember", "0 liegt nicht zwischen 1 und 99999."),
        (("<dobYear>1970</dobYear>", "<dobYear>1970</dobYear><fideRating>9000</fideRating>"),
         "fideRating", "9000 liegt nicht zwischen 1 und 5000."),
        (("<dobYear>1970</dobYear>", "<dobYear>1970</dobYear><fideId>-4</fideId>"),
         "fideId", "„-4“ ist keine ganze Zahl."),
        (("<surname>Müller<", "<surname> <"), "surname", "<surname> ist leer."),
    ],
)  # fmt: skip
def test_bad_player_fields(replace, element, message):
    text = doc(players=PLAYER_1.replace(*replace) + PLAYER_2)
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [f"Zeile {line_of(text, f'<{element}>')}, <{element}>: {message}"]


def test_duplicate_start_number_and_bad_header_values():
    text = doc(players=PLAYER_1 + PLAYER_1, games="")
    text = text.replace("<tournamentType>SW<", "<tournamentType>XY<").replace(
        "<fileUUID>11111111-2222-4333-8444-555555555555<", "<fileUUID>keine<"
    )
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert messages(exc) == [
        f"Zeile {line_of(text, '<fileUUID>')}, <fileUUID>: „keine“ ist keine UUID.",
        f"Zeile {line_of(text, '<tournamentType>')}, <tournamentType>: Turnierart „XY“ ist unbekannt; "
        "erlaubt sind SW, SR, SC, TR, TW, TC.",
        f"Zeile {line_of(text, '<player>', 2)}, <tournamentPlayerNumber>: Startnummer 1 doppelt "
        f"(auch Zeile {line_of(text, '<player>')}).",
    ]


@pytest.mark.parametrize(
    "prolog",
    [
        # XXE: an external entity reading a local file
        '<!DOCTYPE DSB_DWZ_TournamentReport [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
        # billion laughs
        '<!DOCTYPE DSB_DWZ_TournamentReport [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY xxe "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>',
        '<!DOCTYPE DSB_DWZ_TournamentReport SYSTEM "http://127.0.0.1:9/report.dtd">',
    ],
)
def test_doctype_and_entities_are_refused(prolog):
    text = doc().replace("<label>Maiturnier</label>", "<label>&xxe;</label>")
    text = text.replace("?>\n", f"?>\n{prolog}\n", 1)
    with pytest.raises(DsbXmlError) as exc:
        parse(text.encode())
    assert "root:" not in str(exc.value) and "aaaa" not in str(exc.value)
    assert messages(exc) == [
        "Zeile 1: Eine DOCTYPE-Deklaration ist in einem DSB-Turnierbericht nicht erlaubt."
    ]


# --- what the reader accepts ----------------------------------------------------------------------------


def test_reader_leniency():
    text = doc(
        root='DSB_DWZ_TournamentReport version="2.5"',  # no namespace
        created="01.07.2026 20:15",
        players=PLAYER_1.replace(
            "<dobYear>1970</dobYear>", "<dobYear></dobYear><sex>f</sex><rating>1800</rating>"
        )
        + PLAYER_2.replace("<dobYear>1990</dobYear>", "<dobYear>1990</dobYear><vkz>c0327</vkz>"),
        games=GAME.replace("<pointWhite>1</pointWhite>", "<pointWhite>0,5</pointWhite>").replace(
            "<pointBlack>0</pointBlack>", "<pointBlack>0.50</pointBlack>"
        ),
        tournament_extra="\n    <notes>a</notes>\n    <ageClass>U12</ageClass>",  # any order
    )
    r = parse(text.encode())
    assert r.header.creation_date == datetime.datetime(2026, 7, 1, 20, 15)
    assert (r.players[0].birth_year, r.players[0].sex) == (None, "w")
    assert r.players[1].vkz == "C0327"
    assert r.games[0].point_white == r.games[0].point_black == "0.5" and r.games[0].is_rated
    assert (r.tournament.notes, r.tournament.age_class) == ("a", "U12")
    assert [str(w) for w in r.warnings] == [
        f"Zeile {line_of(text, '<rating>')}, <rating>: Unbekanntes Element <rating> in <player> – nicht "
        "ausgewertet.",
        f"Zeile {line_of(text, '<dobYear>')}, <dobYear>: Kein Geburtsjahr bei Müller, Jörg.",
    ]
    assert [str(p) for p in check_problems(r)] == [
        f"Zeile {r.players[0].line}, <dobYear>: Müller, Jörg (Startnummer 1) hat kein Geburtsjahr."
    ]


def test_declared_latin1_is_read_without_warning():
    text = doc().replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
    r = parse(text.encode("latin-1"))
    assert r.players[0].name == "Müller, Jörg" and r.warnings == () and r.encoding == "ISO-8859-1"
    with pytest.raises(DsbXmlError) as exc:
        parse(text.replace("ISO-8859-1", "KOI-99").encode("latin-1"))
    assert messages(exc) == ["Zeile 1: Unbekannte Zeichenkodierung „KOI-99“ in der XML-Deklaration."]


def test_utf8_with_bom_and_a_foreign_version():
    r = parse(b"\xef\xbb\xbf" + doc().replace('version="2.5"', 'version="2.6"').encode())
    assert r.version == "2.6" and [p.template for p in r.warnings] == [
        "Version %(version)s; gelesen wie %(expected)s."
    ]


def test_game_kinds():
    def game(w, b, white=1, black=2):
        return Game(1, white, black, w, b)

    assert game("1", "0").kind == game("0.5", "0.5").kind == game("0", "1").kind == "played"
    assert game("0", "0").kind == game("0.5", "0").kind == game("0", "0.5").kind == "arbiter"
    assert (
        game("+", "-").kind
        == game("-", "-").kind
        == game("0.5", "-").kind
        == game("0", "-").kind
        == "forfeit"
    )
    assert game("+", "-", black=None).kind == game("-", "+", white=None).kind == "bye"
    assert [
        g.is_rated for g in (game("1", "0"), game("0", "0"), game("+", "-"), game("1", "0", black=None))
    ] == [
        True,
        False,
        False,
        False,
    ]


# --- checks before an export ----------------------------------------------------------------------------


def _report(**changes) -> Report:
    """The minimal report as an exporter builds it: no line numbers."""
    r = parse(doc().encode())
    players = tuple(dataclasses.replace(p, line=None) for p in r.players)
    games = tuple(dataclasses.replace(g, line=None) for g in r.games)
    return dataclasses.replace(r, players=players, games=games, **changes)


def test_check_of_an_exportable_report_is_empty():
    assert check(_report()) == [] and check(parse(CLM.read_bytes())) == []


def test_check_lists_every_problem():
    r = _report()
    p1, p2 = r.players
    players = (
        dataclasses.replace(p1, birth_year=None, dsb_id="NU42"),
        dataclasses.replace(p2, dsb_id="NU42"),
        Player(2, "Schulz", "Eva", 1980),
    )
    games = (*r.games, Game(1, 2, 7, "0", "1", datetime.date(2026, 5, 9)))
    assert check(dataclasses.replace(r, players=players, games=games)) == [
        "<dobYear>: Müller, Jörg (Startnummer 1) hat kein Geburtsjahr.",
        "<tournamentPlayerNumber>: Startnummer 2 ist doppelt vergeben (Weiß, Anna und Schulz, Eva).",
        "<tournamentPlayerNumberBlack>: Runde 1: Startnummer 7 ist nicht in der Spielerliste.",
        "<dsbId>: Müller, Jörg und Weiß, Anna haben dieselbe DSB-ID NU42.",
        "<date>: Runde 1: das Datum 2026-05-09 liegt nicht zwischen 2026-05-02 und 2026-05-02.",
        "<endDate>: Das Ende 2026-05-02 ist nicht der Tag der letzten Partie (2026-05-09).",
    ]
    with pytest.raises(DsbXmlError) as exc:
        write(dataclasses.replace(r, players=players, games=games))
    assert len(exc.value.problems) == 3 and len(exc.value.warnings) == 3


def test_check_advice_does_not_block_the_writer():
    r = _report(tournament=dataclasses.replace(_report().tournament, end_date=datetime.date(2026, 5, 3)))
    assert check(r) == ["<endDate>: Das Ende 2026-05-03 ist nicht der Tag der letzten Partie (2026-05-02)."]
    assert parse(write(r)) == r


# --- helpers for the exporter ---------------------------------------------------------------------------


def test_exporter_helpers():
    assert dsb_xml.tournament_type("swiss") == "SW" and dsb_xml.tournament_type("rr") == "SR"
    assert (
        dsb_xml.tournament_type("rr", team=True) == "TR"
        and dsb_xml.tournament_type("swiss", team=True) == "TW"
    )
    with pytest.raises(ValueError, match="blitz"):
        dsb_xml.tournament_type("blitz")
    first = dsb_xml.tournament_uuid("tournament:42")
    assert first == dsb_xml.tournament_uuid("tournament:42") != dsb_xml.tournament_uuid("tournament:43")
    portal = "019f75b9-af1b-77c0-8e1a-3c5d2b7f9a10"
    assert dsb_xml.tournament_uuid("tournament:42", portal) == uuid.UUID(portal)
    assert dsb_xml.tournament_uuid("tournament:42", "C524-C05-VM1") == first  # a DSB code is no UUID
    assert dsb_xml.system_text("1.4.0") == "dwzsite 1.4.0"
    assert dsb_xml.sender_text("Schachbezirk Ulm", "Eva Schulz") == "Schachbezirk Ulm - Eva Schulz"
    assert dsb_xml.sender_text("", "Eva Schulz") == "Eva Schulz"
    assert dsb_xml.last_game_day(()) is None


def test_check_game_date_outside_the_tournament_and_control_characters():
    r = _report()
    games = (dataclasses.replace(r.games[0], date=datetime.date(2026, 4, 30)),)
    assert check(dataclasses.replace(r, games=games)) == [
        "<date>: Runde 1: das Datum 2026-04-30 liegt nicht zwischen 2026-05-02 und 2026-05-02.",
        "<endDate>: Das Ende 2026-05-02 ist nicht der Tag der letzten Partie (2026-04-30).",
    ]
    bad = dataclasses.replace(r, tournament=dataclasses.replace(r.tournament, label="Mai\x0bturnier"))
    assert check(bad) == ["<label>: „Mai?turnier“ enthält Zeichen, die XML nicht erlaubt (Steuerzeichen)."]
    with pytest.raises(DsbXmlError):
        write(bad)


def test_bye_and_forfeit_dates_count_for_the_end_date():
    r = _report()
    games = (*r.games, Game(1, 1, None, "+", "-", datetime.date(2026, 5, 2)))
    assert dsb_xml.last_game_day(games) == datetime.date(2026, 5, 2) and check(r) == []
