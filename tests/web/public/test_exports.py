"""Exports are safe to open in a spreadsheet: text that would start a formula is neutralised, numbers stay.

A name typed by an officer such as ``=cmd|' /C calc'!A0`` must reach Excel or LibreOffice as text, not as a
live formula (OWASP "CSV injection").
"""

import csv
import datetime
import io
import json
import re

import openpyxl
import openpyxl.utils
import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings.exports import spreadsheet_safe
from tests.builders import make_player
from tests.factories import ClubFactory

FORMULA = "=cmd|' /C calc'!A0"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("=1+1", "'=1+1"),
        ("+49 711", "'+49 711"),
        ("-Meier", "'-Meier"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Müller, Hans", "Müller, Hans"),
        ("1802-45", "1802-45"),
        ("", ""),
        (-12, -12),
        (1802, 1802),
        (None, None),
    ],
)
def test_spreadsheet_safe_prefixes_text_that_starts_a_formula(value, expected):
    assert spreadsheet_safe(value) == expected


@pytest.fixture
def hostile(federation):
    club = ClubFactory(zps="C0599", name="@Schachfreunde", organisation=federation["bezirk"])
    return {
        "formula": make_player(
            surname=FORMULA, first_name="Eve", dwz=1900, index=7, birth_year=1999, club=club
        ),
        "plus": make_player(
            surname="+Plus", first_name="Paul", dwz=1700, index=3, birth_year=1988, club=club
        ),
        "tab": make_player(
            surname="\t=2*3", first_name="Tina", dwz=1600, index=4, birth_year=1977, club=club
        ),
        "plain": make_player(
            surname="Müller", first_name="Hans", dwz=1500, index=5, birth_year=1970, fide_elo=1650, club=club
        ),
    }


def _csv_rows(response):
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return _german_rows(response.getvalue())


def _german_rows(body: bytes):
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))


@pytest.mark.parametrize("url", ["/ranglisten/", "/spieler/", "/vereine/C0599/", "/verbaende/C05/"])
def test_csv_export_neutralises_formulas(client, hostile, url):
    rows = _csv_rows(client.get(url, {"_export": "csv"}))
    cells = [cell for row in rows for cell in row]
    assert f"'{FORMULA}, Eve" in cells
    assert "'+Plus, Paul" in cells
    assert "'\t=2*3, Tina" in cells
    assert "Müller, Hans" in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    if url != "/vereine/C0599/":  # the club page leaves out the club column
        assert "'@Schachfreunde" in cells


@pytest.mark.parametrize("url", ["/ranglisten/", "/vereine/C0599/"])
def test_xlsx_export_has_no_formula_and_keeps_numbers(client, hostile, url):
    response = client.get(url, {"_export": "xlsx"})
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert not [cell.coordinate for cell in cells if cell.data_type == "f"]
    values = [cell.value for cell in cells]
    assert f"'{FORMULA}, Eve" in values and "'+Plus, Paul" in values
    header = [cell.value for cell in next(sheet.iter_rows())]
    rows = sheet.iter_rows(values_only=True)
    plain = next(row for row in rows if row[header.index("Name")] == "Müller, Hans")
    # Numeric columns stay numbers, so the sheet can sort and sum them.
    assert plain[header.index("Jahrgang")] == 1970
    assert plain[header.index("Elo")] == 1650
    assert plain[header.index("DWZ")] == 1500 and plain[header.index("Index")] == 5
    assert "DWZ-Index" not in header
    assert isinstance(plain[header.index("Rang")], int)


def test_export_ratings_csv_neutralises_formulas(hostile):
    out = io.StringIO()
    call_command("export_ratings", "--format", "csv", stdout=out)
    rows = {row["name"]: row for row in csv.DictReader(io.StringIO(out.getvalue()))}
    assert f"'{FORMULA}, Eve" in rows and "'+Plus, Paul" in rows and "'\t=2*3, Tina" in rows
    assert rows["Müller, Hans"]["dwz"] == "1500"


def test_export_ratings_json_keeps_the_name_as_typed(hostile):
    out = io.StringIO()
    call_command("export_ratings", "--format", "json", stdout=out)
    assert f"{FORMULA}, Eve" in {row["name"] for row in json.loads(out.getvalue())}


@pytest.mark.parametrize("url", ["/ranglisten/", "/vereine/C0599/", "/verbaende/C05/"])
def test_csv_for_german_spreadsheets_and_for_scripts(client, hostile, url):
    german = client.get(url, {"_export": "csv"}).getvalue()  # streamed: read once
    assert german.startswith("\ufeff".encode())  # UTF-8 BOM: Excel reads the umlauts
    header, *rows = _german_rows(german)
    assert header[header.index("DWZ") + 1] == "Index"
    for column in ("Elo", "Titel", "FIDE-ID", "FIDE-Land"):
        assert column in header
    hans = next(r for r in rows if r[header.index("Name")] == "Müller, Hans")
    assert (hans[header.index("DWZ")], hans[header.index("Index")], hans[header.index("Elo")]) == (
        "1500",
        "5",
        "1650",
    )
    scripts = client.get(url, {"_export": "rfc4180"})
    assert scripts["Content-Disposition"].endswith('-rfc4180.csv"')
    body = scripts.getvalue()
    assert scripts.status_code == 200 and not body.startswith("\ufeff".encode())
    text = body.decode("utf-8")
    assert "\r\n" in text  # RFC 4180 line ends
    plain = list(csv.reader(io.StringIO(text)))
    assert plain[0] == header
    assert [int(v) for v in (plain[1 + rows.index(hans)][header.index("DWZ")],)] == [1500]
    assert "_export=rfc4180" in client.get(url).content.decode()


def test_german_cell_uses_a_decimal_comma():
    from decimal import Decimal

    from ratings.exports import german_cell

    assert german_cell(Decimal("2.5")) == "2,5" and german_cell(1500) == 1500 and german_cell("1.5") == "1.5"


def test_streamed_german_csv_keeps_negative_decimals_as_numbers():
    """A negative decimal is data: "-0,5" opens as a number, without the apostrophe that text starting a
    formula gets (the streamed lists and the tables' export agree)."""
    from decimal import Decimal

    from ratings.exports import _safe_rows

    rows = [[Decimal("-0.5"), -3, "-x", Decimal("1.5")]]
    assert list(_safe_rows(rows, german=True)) == [["-0,5", -3, "'-x", "1,5"]]
    assert list(_safe_rows(rows, german=False)) == [[Decimal("-0.5"), -3, "'-x", Decimal("1.5")]]


# A cell a German Excel opens as a date: "1958-5" (May 1958), "48/2025", "5/2026", "12.3".
DATE_LIKE = re.compile(r"[0-9]{1,4}[-/.][0-9]{1,4}([-/.][0-9]{1,4})?")


def test_evaluation_csv_keeps_dwz_and_index_apart(client, e2):
    """Issue 32: "1859-4" in one cell opened as a date; DWZ and index are numbers in columns of their own,
    as in the rating list's CSV."""
    url = reverse("ratings:tournament-evaluation-csv", args=[e2["tournament"].pk])
    header, *rows = _german_rows(client.get(url).content)
    assert header[header.index("DWZ alt") + 1] == "Index alt"
    assert header[header.index("DWZ neu") + 1] == "Index neu"
    hans = next(r for r in rows if r[header.index("Name")] == "Müller, Hans")
    assert [hans[header.index(c)] for c in ("DWZ alt", "Index alt", "DWZ neu", "Index neu", "±")] == [
        "1850",
        "3",
        "1859",
        "4",
        "+9",
    ]
    assert hans[header.index("We")] == "2,776"
    for row in rows:
        assert not [cell for cell in row if DATE_LIKE.fullmatch(cell)], row


def test_xlsx_export_has_dates_a_frozen_bold_header_a_filter_and_widths(client, e2):
    """Issue 32: dates are dates (a German date format), the header row is bold and frozen and carries an
    autofilter over the whole list, and every column is as wide as what it holds."""
    response = client.get("/ranglisten/", {"_export": "xlsx"})
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header = [cell.value for cell in sheet[1]]
    assert all(cell.font.bold for cell in sheet[1]) and not any(cell.font.bold for cell in sheet[2])
    assert sheet.freeze_panes == "A2"
    last_column = openpyxl.utils.get_column_letter(len(header))
    assert sheet.auto_filter.ref == f"A1:{last_column}{sheet.max_row}"
    assert sheet.max_row == 1 + 6  # Hans and his five opponents
    row = next(r for r in sheet.iter_rows(min_row=2) if r[header.index("Name")].value == "Müller, Hans")
    last = row[header.index("Letzte Auswertung")]
    assert last.is_date and last.value.date() == datetime.date(2019, 5, 12)
    assert last.number_format == "dd.mm.yyyy"
    widths = {name: sheet.column_dimensions[openpyxl.utils.get_column_letter(i)].width for i, name in
              enumerate(header, start=1)}  # fmt: skip
    assert widths["Name"] >= len("Müller, Hans") and widths["Letzte Auswertung"] >= len("Letzte Auswertung")
    assert all(6 <= w <= 45 for w in widths.values())
    # The CSV keeps the date as ISO text, which every spreadsheet reads as a date.
    header, *rows = _german_rows(client.get("/ranglisten/", {"_export": "csv"}).getvalue())
    hans = next(r for r in rows if r[header.index("Name")] == "Müller, Hans")
    assert hans[header.index("Letzte Auswertung")] == "2019-05-12"


def test_xlsx_of_an_empty_list_and_many_columns():
    """The writer alone: no rows still makes a valid sheet; column letters run past Z."""
    from ratings.exports import _column_letter, _xlsx_bytes

    assert [_column_letter(n) for n in (1, 26, 27, 52, 703)] == ["A", "Z", "AA", "AZ", "AAA"]
    book = openpyxl.load_workbook(io.BytesIO(_xlsx_bytes(["A", "B"], [], title="leer")))
    assert book.active.auto_filter.ref == "A1:B1" and book.active.freeze_panes == "A2"
    header = [f"c{i}" for i in range(30)]
    data = _xlsx_bytes(header, [[datetime.date(2026, 6, 8)] * 30], title="breit")
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    assert sheet.auto_filter.ref == "A1:AD2" and sheet["AD2"].value == datetime.datetime(2026, 6, 8)
