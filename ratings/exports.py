"""Spreadsheet-safe exports: text cells that a spreadsheet would run as a formula are neutralised.

A player's or club's name is typed by officers and admins; opened in Excel or LibreOffice, a CSV or XLSX cell
that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return before one) is taken as a formula
and can run commands or leak data (OWASP "CSV injection"). Such text gets a leading apostrophe, which the
spreadsheet shows as text. Numbers are left alone: a negative number is data, not a formula.
"""

from __future__ import annotations

from typing import Any

from django_tables2.export import TableExport

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """The cell value as a spreadsheet takes it literally: text that could start a formula gets a ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeTableExport(TableExport):
    """django-tables2's export with every text cell (headers included) passed through ``spreadsheet_safe``."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        safe = type(dataset)(
            *([spreadsheet_safe(cell) for cell in row] for row in dataset),
            headers=[spreadsheet_safe(header) for header in dataset.headers or []],
            title=dataset.title,
        )
        return safe
