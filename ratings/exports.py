"""Spreadsheet-safe exports: text cells that a spreadsheet would run as a formula are neutralised.

A player's or club's name is typed by officers and admins; opened in Excel or LibreOffice, a CSV or XLSX cell
that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return before one) is taken as a formula
and can run commands or leak data (OWASP "CSV injection"). Such text gets a leading apostrophe, which the
spreadsheet shows as text. Numbers are left alone: a negative number is data, not a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

import openpyxl
from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django_tables2.export import TableExport

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """The cell value as a spreadsheet takes it literally: text that could start a formula gets a ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


# A second CSV for scripts: RFC 4180 (comma, UTF-8 without BOM); "csv" itself is for German spreadsheets.
RFC4180 = "rfc4180"


def german_cell(value: Any) -> Any:
    """A decimal number as German spreadsheets read it (decimal comma); everything else unchanged."""
    if isinstance(value, (Decimal, float)):
        return str(value).replace(".", ",")
    return value


class SafeTableExport(TableExport):
    """django-tables2's export with every text cell (headers included) passed through ``spreadsheet_safe``.

    ``csv`` opens in a German Excel as it is: ``;`` separator, decimal comma, UTF-8 with BOM. ``rfc4180`` is
    the plain CSV for scripts: ``,`` separator, decimal point, UTF-8 without BOM.
    """

    FORMATS = {**TableExport.FORMATS, RFC4180: "text/csv; charset=utf-8"}

    @classmethod
    def is_valid_format(cls, export_format):
        return export_format is not None and export_format in cls.FORMATS

    def export(self):
        if self.format == TableExport.CSV:
            german = type(self.dataset)(
                *([german_cell(cell) for cell in row] for row in self.dataset), headers=self.dataset.headers
            )
            return "\ufeff" + german.export("csv", delimiter=";")
        if self.format == RFC4180:
            return self.dataset.export("csv")
        return super().export()

    def response(self, filename=None):
        if filename and self.format == RFC4180:
            filename = filename.removesuffix(f".{RFC4180}") + "-rfc4180.csv"
        return super().response(filename=filename)

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        safe = type(dataset)(
            *([spreadsheet_safe(cell) for cell in row] for row in dataset),
            headers=[spreadsheet_safe(header) for header in dataset.headers or []],
            title=dataset.title,
        )
        return safe


class _Echo:
    """A file whose ``write`` hands the line back: ``csv.writer`` formats, the generator yields."""

    def write(self, value: str) -> str:
        return value


CHUNK_ROWS = 2000


def _csv_chunks(header: list[str], rows: Iterable[list[Any]], *, german: bool) -> Iterator[str]:
    writer = csv.writer(_Echo(), delimiter=";" if german else ",")
    cell = (lambda v: spreadsheet_safe(german_cell(v))) if german else spreadsheet_safe
    yield ("\ufeff" if german else "") + writer.writerow([spreadsheet_safe(h) for h in header])
    chunk: list[str] = []
    for row in rows:
        chunk.append(writer.writerow([cell(v) for v in row]))
        if len(chunk) >= CHUNK_ROWS:
            yield "".join(chunk)
            chunk = []
    yield "".join(chunk)


def _xlsx_bytes(header: list[str], rows: Iterable[list[Any]], *, title: str) -> bytes:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet(title=title[:31])
    sheet.append([spreadsheet_safe(h) for h in header])
    for row in rows:
        sheet.append([spreadsheet_safe(v) for v in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def list_response(
    export_format: str, header: list[str], rows: Iterable[list[Any]], *, filename: str
) -> HttpResponseBase:
    """A whole list as CSV (streamed row by row), RFC 4180 CSV (streamed) or XLSX (written in one pass,
    openpyxl's write-only mode): the plain cell values of ``rows``, made spreadsheet-safe as
    ``SafeTableExport`` does, without django-tables2's per-cell rendering."""
    content_type = SafeTableExport.FORMATS[export_format]
    response: HttpResponseBase
    if export_format == TableExport.XLSX:
        title = filename.rsplit(".", 1)[0]
        response = HttpResponse(_xlsx_bytes(header, rows, title=title), content_type=content_type)
    else:
        german = export_format == TableExport.CSV
        if not german:
            filename = filename.removesuffix(f".{RFC4180}") + "-rfc4180.csv"
        response = StreamingHttpResponse(_csv_chunks(header, rows, german=german), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
