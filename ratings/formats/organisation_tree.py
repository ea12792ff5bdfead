"""The DSB's organisation tree as DeWIS gives it (``tests/data/dewis-organizations-2019-08-02.csv``).

Pure Python. One CSV with a header naming at least ``vkz``, ``name`` and ``parent_vkz`` (DeWIS' own columns:
``dewis_id, vkz, name, parent_vkz, has_rating_officer, is_leaf``): a three-character VKZ is a federation (DSB,
Landesverband, Bezirk, Kreis), a five-character one a club hanging on ``parent_vkz``. UTF-8 (with or without
BOM; a file re-saved as Windows-1252 is read too), ``,`` or ``;``. The result is a ``DsbList`` without
players, so that the list import's service, report and admin pages take it as they are (formats.md §5). A
bad row becomes a :class:`Problem` and is left out; a file that is no such tree is a :class:`ListError`.
"""

from __future__ import annotations

import csv
import io

from ratings.formats.dsb_list import (
    CLUB_NAME_MAX,
    CLUB_ZPS_RE,
    ORGANISATION_CODE_RE,
    ClubRow,
    DsbList,
    FederationRow,
    ListError,
    Problem,
    gettext_noop,
)

GENERATION = "verbandsbaum"  # ``DsbList.generation`` (and ``ListImport.generation``) of a tree
REQUIRED = ("vkz", "name", "parent_vkz")
FILE = "Verbandsbaum"


def _text(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _header(first_line: str) -> tuple[str, list[str]]:
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    return delimiter, [c.strip().strip('"').lower() for c in first_line.split(delimiter)]


def is_organisation_tree(data: bytes) -> bool:
    """Whether ``data`` starts with the header of an organisation tree (``vkz``, ``name``, ``parent_vkz``)."""
    first = _text(data[:2000]).splitlines()[:1]
    if not first:
        return False
    _delimiter, columns = _header(first[0])
    return all(c in columns for c in REQUIRED)


def _parent(code: str, given: str) -> str:
    """The parent federation of a federation: as given if it is a code, else the Landesverband or the DSB."""
    if given and given != code and ORGANISATION_CODE_RE.fullmatch(given):
        return given
    return "000" if code.endswith("00") else code[0] + "00"


def read_organisation_tree(data: bytes, name: str = "") -> DsbList:
    """The federations and clubs of an organisation tree. Raises :class:`ListError` when ``data`` is no
    such tree or holds not one usable row."""
    text = _text(data)
    lines = text.splitlines()
    if not lines or not is_organisation_tree(data):
        raise ListError(
            gettext_noop(
                "%(name)s ist kein Verbandsbaum: erwartet wird eine CSV-Datei mit den Spalten vkz, name und "
                "parent_vkz (wie der DeWIS-Export)."
            ),
            name=name or FILE,
        )
    delimiter, columns = _header(lines[0])
    at = {c: columns.index(c) for c in REQUIRED}
    result = DsbList(generation=GENERATION)
    seen: dict[str, int] = {}
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    next(reader)
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            result.rows += 1
            _row(reader.line_num, cells, at, seen, result)
    except csv.Error as exc:  # a NUL byte, a runaway quote, a cell past the csv module's limit
        raise ListError(
            gettext_noop("%(name)s, Zeile %(line)d: keine lesbare CSV-Zeile (%(error)s)."),
            name=name or FILE,
            line=reader.line_num,
            error=str(exc),
        ) from exc
    if not result.federations and not result.clubs:
        raise ListError(gettext_noop("%(name)s enthält keinen Verband und keinen Verein."), name=name or FILE)
    return result


def _row(number: int, cells: list[str], at: dict[str, int], seen: dict[str, int], result: DsbList) -> None:
    def cell(column: str) -> str:
        index = at[column]
        return cells[index].strip() if index < len(cells) else ""

    code, title, parent = cell("vkz").upper(), cell("name"), cell("parent_vkz").upper()
    if not title or len(title) > CLUB_NAME_MAX or "\x00" in title:
        result.problems.append(Problem(FILE, number, gettext_noop("Name fehlt oder ist ungültig.")))
        return
    federation = len(code) == 3 and ORGANISATION_CODE_RE.fullmatch(code)
    club = len(code) == 5 and CLUB_ZPS_RE.fullmatch(code)
    if not federation and not club:
        result.problems.append(
            Problem(
                FILE,
                number,
                gettext_noop(
                    "VKZ „%(value)s“ ist weder ein Verband (drei Zeichen wie C05) noch ein Verein "
                    "(fünf Zeichen wie C0505)."
                ),
                {"value": code[:20]},
            )
        )
        return
    if code in seen:
        result.warnings.append(
            Problem(
                FILE,
                number,
                gettext_noop("VKZ %(code)s steht schon in Zeile %(line)d; diese Zeile wird übergangen."),
                {"code": code, "line": seen[code]},
            )
        )
        return
    seen[code] = number
    if federation:
        above = "" if code == "000" else _parent(code, parent)
        result.federations.append(FederationRow(number, code, code[0] + "00", above, title))
    else:
        above = parent if ORGANISATION_CODE_RE.fullmatch(parent) else code[:3]
        result.clubs.append(ClubRow(number, code, code[0] + "00", above, title))
