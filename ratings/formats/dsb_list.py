"""The DSB's DWZ list (spec/formats.md §3): reader and writer, pure Python.

Reads a zip, a folder or a single ``spieler.csv`` / ``SPIELER.TXT``: the CSV variant (Windows-1252, CRLF,
quoted) of every header generation, mapped by column name, and the DOS variant (``|``, CP850, ``DWZ-Index``
joined, no header; also the 2026 "DOS" zips that are CP850 copies of the CSV). A header the reader does not
know is a :class:`ListError` naming the missing columns; a bad row becomes a :class:`Problem` (line and
reason) and is left out, the other rows are read.

Messages are German (the source language) and marked with ``gettext_noop`` so that the services can show
them translated (``Problem.template`` and ``Problem.params``).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import unicodedata
import zipfile
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path


def gettext_noop(message: str) -> str:
    """Marks a message for translation (picked up by ``makemessages``); translated by the caller."""
    return message


# spec/formats.md §5 (decision)
CLUB_ZPS_RE = re.compile(r"[1-9A-HLM][0-9A-Z]{4}")
ORGANISATION_CODE_RE = re.compile(r"[0-9A-HKLM][0-9A-Z]{2}")
PERSON_ID_RE = re.compile(r"(?:NU)?[0-9]{1,12}")
MEMBER_NUMBER_RE = re.compile(r"[0-9A-Za-z]{1,10}")
NAME_MAX = 100
CLUB_NAME_MAX = 200
RATING_MAX = 9999  # far above any real DWZ, index or Elo

GENERATIONS = ("1", "2", "3", "3b")
# Exact header lines (formats.md §3.3), as the columns a CSV reader yields.
HEADERS: dict[str, tuple[str, ...]] = {
    "1": (
        "ZPS",
        "Mgl-Nr",
        "Status",
        "Spielername",
        "Geschlecht",
        "Spielberechtigung",
        "Geburtsjahr",
        "Letzte-Auswertung",
        "DWZ",
        "Index",
        "FIDE-Elo",
        "FIDE-Titel",
        "FIDE-ID",
        "FIDE-Land",
    ),
    "2": (
        "ID",
        "VKZ",
        "Mgl-Nr",
        "Status",
        "Spielername",
        "Geschlecht",
        "Spielberechtigung",
        "Geburtsjahr",
        "Letzte-Auswertung",
        "DWZ",
        "Index",
        "FIDE-Elo",
        "FIDE-Titel",
        "FIDE-ID",
        "FIDE-Land",
    ),
    "3": (
        "ID",
        "ZPS",
        "Mitgliedsnummer",
        "Status",
        "Name,Vorname",
        "Geschlecht",
        "Spielberechtigung",
        "Geburtsjahr",
        "Letzte Auswertung",
        "DWZ",
        "Index",
        "FIDE-Elozahl",
        "FIDE-Titel",
        "FIDE-ID",
        "FIDE-Land",
        "Vorname",
        "Nachname",
    ),
}
HEADERS["3b"] = (*HEADERS["3"], "FIDE-Frauentitel", "FIDE-Elozahl-Schnellschach", "FIDE-Elozahl-Blitz")

# Normalised header name (formats.md §3.3: strip, lower case, "-" and " " to "_") -> canonical column.
_SYNONYMS = {
    "id": "id",
    "zps": "zps",
    "vkz": "zps",
    "mgl_nr": "member",
    "mitgliedsnummer": "member",
    "status": "status",
    "spielername": "name",
    "name,vorname": "name",
    "geschlecht": "sex",
    "spielberechtigung": "eligibility",
    "geburtsjahr": "birth_year",
    "letzte_auswertung": "last_evaluation",
    "dwz": "dwz",
    "index": "index",
    "fide_elo": "fide_elo",
    "fide_elozahl": "fide_elo",
    "fide_titel": "fide_title",
    "fide_id": "fide_id",
    "fide_land": "fide_federation",
    "vorname": "first_name",
    "nachname": "surname",
    "fide_frauentitel": "women_title",
    "fide_elozahl_schnellschach": "fide_rapid",
    "fide_elozahl_blitz": "fide_blitz",
}
# The columns of generation 1, which every later generation has too.
REQUIRED = (
    "zps",
    "member",
    "status",
    "name",
    "sex",
    "eligibility",
    "birth_year",
    "last_evaluation",
    "dwz",
    "index",
    "fide_elo",
    "fide_title",
    "fide_id",
    "fide_federation",
)
# The 14 fields of a DOS ``SPIELER.TXT`` line (formats.md §3.6); "dwz_index" is "DWZ-Index" joined.
DOS_FIELDS = (
    "id",
    "zps",
    "member",
    "status",
    "name",
    "sex",
    "eligibility",
    "birth_year",
    "last_evaluation",
    "dwz_index",
    "fide_elo",
    "fide_title",
    "fide_id",
    "fide_federation",
)

_CLUB_COLUMNS = {
    "zps": "zps",
    "zps_nummer": "zps",
    "lv": "lv",
    "landesverband": "lv",
    "verband": "parent",
    "uebergeordneterverband": "parent",
    "vereinname": "name",
    "vereinsname": "name",
}
_FEDERATION_COLUMNS = {
    "verband": "code",
    "verbandnummer": "code",
    "lv": "lv",
    "landesverband": "lv",
    "uebergeordnet": "parent",
    "uebergeordneterverband": "parent",
    "verbandname": "name",
}
CLUB_HEADER = ("ZPS-Nummer", "Landesverband", "UebergeordneterVerband", "Vereinsname")
FEDERATION_HEADER = ("Verbandnummer", "Landesverband", "UebergeordneterVerband", "Verbandname")


class ListError(ValueError):
    """The list cannot be used at all (nothing of it may be imported)."""

    def __init__(self, template: str, **params: object) -> None:
        self.template, self.params = template, params
        super().__init__(template % params if params else template)


@dataclass(frozen=True, slots=True)
class Problem:
    """A row that was left out (or, for a warning, read with a caveat): where and why."""

    file: str
    line: int
    template: str
    params: dict[str, object] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template % self.params if self.params else self.template

    def __str__(self) -> str:
        return f"{self.file}, Zeile {self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One row of ``spieler.csv``: one membership of one person."""

    line: int
    person_id: str | None  # nu id "NU…" or the older numeric PKZ; None in generation 1
    zps: str
    member_number: str | None  # None for the placeholders "0" / "0000" (formats.md §3.4)
    status: str  # "A", "P" or ""
    surname: str
    first_name: str
    academic_title: str = ""  # the optional third part of "Nachname,Vorname,Dr."
    sex: str = ""  # "M", "W" or ""
    eligibility: str = ""
    birth_year: int | None = None
    last_evaluation: str = ""  # JJJJWW as given (formats.md §3.4: parse leniently)
    dwz: int | None = None
    index: int | None = None
    fide_elo: int | None = None
    fide_title: str = ""
    fide_id: int | None = None
    fide_federation: str = ""
    women_title: str = ""
    fide_rapid: int | None = None
    fide_blitz: int | None = None

    @property
    def name(self) -> str:
        parts = [self.surname, self.first_name] + ([self.academic_title] if self.academic_title else [])
        return ",".join(parts)

    @property
    def last_evaluation_week(self) -> tuple[int, int] | None:
        """(year, calendar week) of ``last_evaluation``, or None if it is not a JJJJWW value."""
        text = self.last_evaluation
        if len(text) == 6 and text.isascii() and text.isdecimal() and 1 <= int(text[4:]) <= 53:
            return int(text[:4]), int(text[4:])
        return None


@dataclass(frozen=True, slots=True)
class ClubRow:
    line: int
    zps: str
    lv: str
    parent: str
    name: str


@dataclass(frozen=True, slots=True)
class FederationRow:
    line: int
    code: str
    lv: str
    parent: str
    name: str


@dataclass(slots=True)
class DsbList:
    players: list[PlayerRow] = field(default_factory=list)
    clubs: list[ClubRow] = field(default_factory=list)  # real clubs (pseudo-clubs moved to federations)
    federations: list[FederationRow] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # rows left out
    warnings: list[Problem] = field(default_factory=list)  # rows read with a caveat
    generation: str = ""  # "1", "2", "3", "3b", "dos" or "dos-csv"
    date: datetime.date | None = None  # from the zip name (…_JJJJMMTT.zip) or the zip's file date
    rows: int = 0  # data lines of the player file
    # (ZPS, member number without leading zeros, person id) of the rejected rows, as far as readable: an
    # importer must not end these memberships because their row could not be read.
    rejected: list[tuple[str, str, str]] = field(default_factory=list)


# --- input: locating the files --------------------------------------------------------------------------

_PLAYER_FILES = ("spieler.csv", "spieler.txt")
_CLUB_FILES = ("vereine.csv", "vereine.txt")
_FEDERATION_FILES = ("verbaende.csv", "verbaende.txt")
_DATE_IN_NAME = re.compile(r"(?<![0-9])(20[0-9]{2})([01][0-9])([0-3][0-9])(?![0-9])")


# A zip bomb (issue 26: 1.2 MB expanding to 1.2 GB drove an import to 7.5 GB of memory) is refused before
# it is unpacked. The whole DSB list (about 100,000 players) is some 7 MB uncompressed and CSV packs about
# four to ten times, so these defaults leave a wide margin; the services pass the site's settings
# (``DSB_LIST_MAX_UNCOMPRESSED_BYTES``, ``DSB_LIST_MAX_COMPRESSION_RATIO``).
MAX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024
MAX_COMPRESSION_RATIO = 50
RATIO_FLOOR_BYTES = (
    1024 * 1024
)  # below this a member may pack at any ratio (a file of blank lines is harmless)
_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """How large the list files may be once unpacked (all together) and how tightly a zip may pack them."""

    uncompressed: int = MAX_UNCOMPRESSED_BYTES
    ratio: int = MAX_COMPRESSION_RATIO


def _megabytes(size: int) -> str:
    return f"{size / 2**20:.1f}".removesuffix(".0").replace(".", ",")


def _too_large(name: str, limits: Limits) -> ListError:
    return ListError(
        gettext_noop(
            "%(name)s ist größer als erlaubt (höchstens %(limit)s MB); eine DWZ-Liste ist weit kleiner."
        ),
        name=name,
        limit=_megabytes(limits.uncompressed),
    )


def read_list(path: str | Path, *, limits: Limits = Limits()) -> DsbList:
    """Read a DSB list from a zip, a folder or a single player file. Raises :class:`ListError`."""
    path = Path(path)
    if path.is_dir():
        files = {p.name.lower(): p for p in path.iterdir() if p.is_file() and p.name.lower() in _ALL_NAMES}
        if sum(p.stat().st_size for p in files.values()) > limits.uncompressed:
            raise _too_large(path.name, limits)
        return _read_files({name: p.read_bytes() for name, p in files.items()}, path.name)
    if not path.exists():
        raise ListError(gettext_noop("Datei oder Ordner %(path)s gibt es nicht."), path=str(path))
    if path.stat().st_size > limits.uncompressed:  # a zip is smaller than its contents, a plain file is them
        raise _too_large(path.name, limits)
    data = path.read_bytes()
    return read_list_bytes(data, path.name, limits=limits)


_ALL_NAMES = (*_PLAYER_FILES, *_CLUB_FILES, *_FEDERATION_FILES)


def read_list_bytes(data: bytes, name: str = "", *, limits: Limits = Limits()) -> DsbList:
    """Read a DSB list from the bytes of a zip or of a single player file (an upload)."""
    if data[:4] == b"PK\x03\x04" or name.lower().endswith(".zip"):
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
            members = {info.filename.rsplit("/", 1)[-1].lower(): info for info in archive.infolist()}
            wanted = {n: info for n, info in members.items() if n in _ALL_NAMES}
            declared = 0
            for info in wanted.values():  # the sizes the archive declares: a bomb is refused unopened
                declared += info.file_size
                _check_member(info, info.file_size, declared, name, limits)
            files, unpacked = {}, 0
            for n, info in wanted.items():  # and the bytes it really yields, should a header lie
                files[n] = _read_member(archive, info, unpacked, name, limits)
                unpacked += len(files[n])
        except ListError:
            raise
        except (
            zipfile.BadZipFile,
            zipfile.LargeZipFile,
            zlib.error,  # a damaged deflate stream
            EOFError,
            OSError,
            ValueError,
            NotImplementedError,
        ) as exc:
            raise ListError(
                gettext_noop("%(name)s ist kein lesbares Zip-Archiv (%(error)s)."), name=name, error=str(exc)
            ) from exc
        result = _read_files(files, name)
        if result.date is None:
            player = next((members[n] for n in _PLAYER_FILES if n in members), None)
            if player is not None and player.date_time[0] >= 1990:
                try:
                    result.date = datetime.date(*player.date_time[:3])
                except ValueError:
                    result.date = None
        return result
    if len(data) > limits.uncompressed:
        raise _too_large(name, limits)
    from ratings.formats.organisation_tree import is_organisation_tree, read_organisation_tree

    if is_organisation_tree(data):  # the organisation tree alone (DeWIS' CSV): federations and clubs
        return read_organisation_tree(data, name)
    lower = name.lower().rsplit("/", 1)[-1]
    if lower in _CLUB_FILES or lower in _FEDERATION_FILES:
        raise ListError(
            gettext_noop("%(name)s enthält keine Spieler: bitte spieler.csv oder das Zip angeben."), name=name
        )
    return _read_files({lower if lower in _PLAYER_FILES else "spieler.csv": data}, name)


def _check_member(info: zipfile.ZipInfo, unpacked: int, total: int, archive: str, limits: Limits) -> None:
    """``unpacked``: bytes of this member so far; ``total``: of all list files so far."""
    member = info.filename or archive
    if total > limits.uncompressed:
        raise ListError(
            gettext_noop(
                "%(member)s in %(name)s ist entpackt größer als erlaubt (höchstens %(limit)s MB für die "
                "Listendateien zusammen); eine DWZ-Liste ist weit kleiner. Ist das Zip eine Zip-Bombe?"
            ),
            member=member,
            name=archive,
            limit=_megabytes(limits.uncompressed),
        )
    if unpacked > RATIO_FLOOR_BYTES and unpacked > limits.ratio * max(info.compress_size, 1):
        raise ListError(
            gettext_noop(
                "%(member)s in %(name)s ist mehr als %(ratio)d-fach gepackt (erlaubt: %(ratio)d-fach); so "
                "dicht lässt sich eine DWZ-Liste nicht packen. Ist das Zip eine Zip-Bombe?"
            ),
            member=member,
            name=archive,
            ratio=limits.ratio,
        )


def _read_member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, before: int, name: str, limits: Limits
) -> bytes:
    """One member, in chunks: stops at the limits however much the member would still yield."""
    buffer = io.BytesIO()
    with archive.open(info) as stream:
        while chunk := stream.read(_CHUNK):
            buffer.write(chunk)
            _check_member(info, buffer.tell(), before + buffer.tell(), name, limits)
    return buffer.getvalue()


def _date_from_name(name: str) -> datetime.date | None:
    match = _DATE_IN_NAME.search(name)
    if match is None:
        return None
    try:
        return datetime.date(*map(int, match.groups()))
    except ValueError:
        return None


def _read_files(files: dict[str, bytes], source: str) -> DsbList:
    player_name = next((n for n in _PLAYER_FILES if n in files), None)
    if player_name is None:
        raise ListError(gettext_noop("%(name)s enthält keine spieler.csv (oder SPIELER.TXT)."), name=source)
    result = DsbList(date=_date_from_name(source))
    _read_players(files[player_name], player_name, result)
    for names, reader in ((_FEDERATION_FILES, _read_federations), (_CLUB_FILES, _read_clubs)):
        found = next((n for n in names if n in files), None)
        if found is not None:
            reader(files[found], found, result)
    return result


# --- decoding and splitting ------------------------------------------------------------------------------


def _decode(data: bytes, encoding: str, file: str, warnings: list[Problem]) -> str:
    """Decode a list file. A UTF-8 file (some officers re-save the list) is recognised and read as such."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        encoding = "utf-8"
    elif not data.isascii():
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            warnings.append(
                Problem(
                    file,
                    1,
                    gettext_noop("Die Datei ist UTF-8 statt %(encoding)s kodiert."),
                    {"encoding": encoding},
                )
            )
            return text
    text = data.decode(encoding, errors="replace")
    if "\ufffd" in text:
        for number, line in enumerate(text.splitlines(), 1):
            if "\ufffd" in line:
                warnings.append(
                    Problem(
                        file,
                        number,
                        gettext_noop("Ungültiges Zeichen (nicht %(encoding)s)."),
                        {"encoding": encoding},
                    )
                )
    return text


def _csv_lines(text: str) -> Iterable[tuple[int, list[str]]]:
    """(line number, fields) of each non-empty record; a quoted field may span lines."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=False)
    start = 1
    try:
        for fields in reader:
            line, start = start, reader.line_num + 1
            if any(f.strip() for f in fields):
                yield line, fields
    except csv.Error:  # only on a NUL byte or a runaway quote: report the rest as one bad line
        yield start, ["\x00"]


def _pipe_lines(text: str) -> Iterable[tuple[int, list[str]]]:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield number, line.split("|")


def _normalise(name: str) -> str:
    return re.sub(r"[-\s]", "_", name.strip().lower())


# --- players ---------------------------------------------------------------------------------------------


class _RowError(Exception):
    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template)
        self.template, self.params = template, params


def _read_players(data: bytes, file: str, result: DsbList) -> None:
    dos = file.endswith(".txt")
    text = _decode(data, "cp850" if dos else "cp1252", file, result.warnings)
    first = text.split("\n", 1)[0]
    if dos and "|" not in first and "," in first:
        dos, result.generation = False, "dos-csv"  # a 2026 "DOS" zip: a CP850 copy of the CSV
    lines = _pipe_lines(text) if dos else _csv_lines(text)
    if dos:
        result.generation = "dos"
        columns: Sequence[str] = DOS_FIELDS
    else:
        header = next(iter(lines), None)
        if header is None:
            raise ListError(gettext_noop("%(file)s ist leer."), file=file)
        columns = _player_columns(header[1], file)
        generation = _generation(columns)
        result.generation = result.generation or generation
        if result.generation == "dos-csv":
            result.generation = f"dos-csv ({generation})"
    seen_memberships: dict[tuple[str, str], int] = {}
    seen_in_club: dict[tuple[str, str], int] = {}
    for number, fields in lines:
        result.rows += 1
        try:
            if len(fields) != len(columns):
                raise _RowError(
                    gettext_noop("%(found)d Felder statt %(expected)d."),
                    found=len(fields),
                    expected=len(columns),
                )
            row = _player_row(number, dict(zip(columns, fields, strict=True)))
            if row.member_number is not None:
                key = (row.zps, row.member_number.lstrip("0"))
                if key in seen_memberships:
                    raise _RowError(
                        gettext_noop("Mitgliedsnummer %(key)s steht schon in Zeile %(line)d."),
                        key=f"{row.zps}-{row.member_number}",
                        line=seen_memberships[key],
                    )
                seen_memberships[key] = number
            if row.person_id is not None:
                key = (row.zps, row.person_id)
                if key in seen_in_club:
                    raise _RowError(
                        gettext_noop("Spieler %(id)s steht für Verein %(zps)s schon in Zeile %(line)d."),
                        id=row.person_id,
                        zps=row.zps,
                        line=seen_in_club[key],
                    )
                seen_in_club[key] = number
        except _RowError as exc:
            result.problems.append(Problem(file, number, exc.template, exc.params))
            raw = dict(zip(columns, fields, strict=False))
            result.rejected.append(
                (
                    raw.get("zps", "").strip().upper(),
                    raw.get("member", "").strip().lstrip("0"),
                    raw.get("id", "").strip().upper(),
                )
            )
            continue
        result.players.append(row)


def _player_columns(header: list[str], file: str) -> list[str]:
    columns = [_SYNONYMS.get(_normalise(h), f"?{h.strip()}") for h in header]
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        names = {c: h for h, c in zip(HEADERS["1"], REQUIRED, strict=True)} | {"id": "ID"}
        raise ListError(
            gettext_noop("%(file)s: unbekannte Kopfzeile, es fehlen die Spalten %(missing)s."),
            file=file,
            missing=", ".join(names[c] for c in missing),
        )
    return columns


def _generation(columns: Sequence[str]) -> str:
    if "id" not in columns:
        return "1"
    if "first_name" not in columns:
        return "2"
    return "3b" if "women_title" in columns else "3"


def _int(value: str, what: str, *, zero_is_none: bool = True) -> int | None:
    value = value.strip()
    if value == "":
        return None
    if not (value.isascii() and value.isdecimal()) or len(value) > 9:
        raise _RowError(gettext_noop("%(what)s „%(value)s“ ist keine Zahl."), what=what, value=value[:20])
    number = int(value)
    if zero_is_none and number == 0:
        return None
    return number


def _text(value: str, what: str, max_length: int) -> str:
    value = value.strip()
    if "\x00" in value:
        raise _RowError(gettext_noop("%(what)s enthält ein NUL-Zeichen."), what=what)
    if len(value) > max_length:
        raise _RowError(gettext_noop("%(what)s ist länger als %(max)d Zeichen."), what=what, max=max_length)
    return value


def _player_row(line: int, raw: dict[str, str]) -> PlayerRow:  # noqa: C901, PLR0912 -- existing; issue 27
    get = raw.get
    person_id = _text(get("id", ""), "ID", 20).upper() or None
    if person_id is not None and not PERSON_ID_RE.fullmatch(person_id):
        raise _RowError(gettext_noop("ID „%(value)s“ ist keine DSB-Personen-ID."), value=person_id)
    zps = _text(get("zps", ""), "ZPS", 20).upper()
    if not CLUB_ZPS_RE.fullmatch(zps):
        if zps == "":
            raise _RowError(gettext_noop("ZPS fehlt."))
        raise _RowError(
            gettext_noop("ZPS „%(value)s“ ist keine Vereinskennziffer (fünf Zeichen wie C0505)."), value=zps
        )
    member = _text(get("member", ""), "Mitgliedsnummer", 20)
    if member and not MEMBER_NUMBER_RE.fullmatch(member):
        raise _RowError(gettext_noop("Mitgliedsnummer „%(value)s“ ist ungültig."), value=member)
    member_number = None if member.strip("0") == "" else member
    status = _text(get("status", ""), "Status", 5).upper()
    if status not in ("A", "P", ""):
        raise _RowError(gettext_noop("Status „%(value)s“ ist weder A noch P."), value=status)
    name = _text(get("name", ""), "Name", 3 * NAME_MAX)
    parts = [p.strip() for p in name.split(",")]
    surname = _text(get("surname", ""), "Nachname", NAME_MAX) or parts[0]
    first_name = _text(get("first_name", ""), "Vorname", NAME_MAX) or (parts[1] if len(parts) > 1 else "")
    title = ",".join(parts[2:]).strip() if len(parts) > 2 else ""
    if not surname:
        raise _RowError(gettext_noop("Name fehlt."))
    if len(surname) > NAME_MAX or len(first_name) > NAME_MAX:
        raise _RowError(gettext_noop("Name ist länger als %(max)d Zeichen."), max=NAME_MAX)
    sex = _text(get("sex", ""), "Geschlecht", 5).upper()
    birth_year = _int(get("birth_year", ""), "Geburtsjahr")
    if birth_year is not None and not 1850 <= birth_year <= 2200:
        raise _RowError(gettext_noop("Geburtsjahr „%(value)s“ ist keine Jahreszahl."), value=birth_year)
    if "dwz_index" in raw:
        joined = raw["dwz_index"].strip()
        dwz_text, sep, index_text = joined.partition("-")
        if joined and not sep:
            raise _RowError(
                gettext_noop("DWZ-Index „%(value)s“ hat nicht die Form 1802-45."), value=joined[:20]
            )
    else:
        dwz_text, index_text = get("dwz", ""), get("index", "")
    dwz = _int(dwz_text, "DWZ")
    index = _int(index_text, "Index", zero_is_none=False)
    if dwz is None:
        if index:
            raise _RowError(gettext_noop("Index %(index)d ohne DWZ."), index=index)
        index = None
    elif index is None:
        raise _RowError(gettext_noop("DWZ %(dwz)d ohne Index."), dwz=dwz)
    for value, what in ((dwz, "DWZ"), (index, "Index")):
        if value is not None and value > RATING_MAX:
            raise _RowError(gettext_noop("%(what)s %(value)d ist zu groß."), what=what, value=value)
    federation = _text(get("fide_federation", ""), "FIDE-Land", 3).upper()
    return PlayerRow(
        line=line,
        person_id=person_id,
        zps=zps,
        member_number=member_number,
        status=status,
        surname=surname,
        first_name=first_name,
        academic_title=title,
        sex=sex if sex in ("M", "W") else "",
        eligibility=_text(get("eligibility", ""), "Spielberechtigung", 20),
        birth_year=birth_year,
        last_evaluation=_text(get("last_evaluation", ""), "Letzte Auswertung", 20),
        dwz=dwz,
        index=index,
        fide_elo=_rating(get("fide_elo", ""), "FIDE-Elo"),
        fide_title=_text(get("fide_title", ""), "FIDE-Titel", 5).upper(),
        fide_id=_int(get("fide_id", ""), "FIDE-ID"),
        fide_federation=federation,
        women_title=_text(get("women_title", ""), "FIDE-Frauentitel", 5).upper(),
        fide_rapid=_rating(get("fide_rapid", ""), "FIDE-Elo Schnellschach"),
        fide_blitz=_rating(get("fide_blitz", ""), "FIDE-Elo Blitz"),
    )


def _rating(value: str, what: str) -> int | None:
    number = _int(value, what)
    if number is not None and number > RATING_MAX:
        raise _RowError(gettext_noop("%(what)s %(value)d ist zu groß."), what=what, value=number)
    return number


# --- clubs and federations -------------------------------------------------------------------------------


def _table(data: bytes, file: str, result: DsbList, mapping: dict[str, str]) -> Iterable[tuple[int, dict]]:
    dos_pipe = file.endswith(".txt")
    text = _decode(data, "cp850" if dos_pipe else "cp1252", file, result.warnings)
    if dos_pipe and "|" not in text.split("\n", 1)[0]:
        dos_pipe = False
    lines = iter(_pipe_lines(text) if dos_pipe else _csv_lines(text))
    if dos_pipe:
        columns = ["first", "lv", "parent", "name"]
    else:
        header = next(lines, None)
        if header is None:
            return
        columns = [mapping.get(_normalise(h), "?") for h in header[1]]
        columns = ["first" if c in ("zps", "code") else c for c in columns]
        missing = [c for c in ("first", "lv", "parent", "name") if c not in columns]
        if missing:
            raise ListError(
                gettext_noop("%(file)s: unbekannte Kopfzeile, es fehlen die Spalten %(missing)s."),
                file=file,
                missing=", ".join(missing),
            )
    for number, fields in lines:
        if len(fields) != len(columns):
            result.problems.append(
                Problem(
                    file,
                    number,
                    gettext_noop("%(found)d Felder statt %(expected)d."),
                    {"found": len(fields), "expected": len(columns)},
                )
            )
            continue
        yield number, {c: f.strip() for c, f in zip(columns, fields, strict=True)}


def _read_clubs(data: bytes, file: str, result: DsbList) -> None:
    codes = {f.code for f in result.federations}
    for number, raw in _table(data, file, result, _CLUB_COLUMNS):
        zps, name = raw["first"].upper(), raw["name"]
        if "\x00" in name or len(name) > CLUB_NAME_MAX or not name:
            result.problems.append(
                Problem(file, number, gettext_noop("Vereinsname fehlt oder ist ungültig."))
            )
            continue
        if CLUB_ZPS_RE.fullmatch(zps) and zps.endswith("00") and ORGANISATION_CODE_RE.fullmatch(zps[:3]):
            # nu's federation pseudo-clubs (e.g. 10000 Badischer Schachverband): an Organisation
            if zps[:3] not in codes:
                parent = "" if zps[:3] == "000" else _parent_code(zps[:3], raw["parent"].upper())
                result.federations.append(FederationRow(number, zps[:3], raw["lv"].upper(), parent, name))
                codes.add(zps[:3])
            continue
        if not CLUB_ZPS_RE.fullmatch(zps):
            result.problems.append(
                Problem(
                    file,
                    number,
                    gettext_noop("ZPS „%(value)s“ ist keine Vereinskennziffer (fünf Zeichen wie C0505)."),
                    {"value": zps[:20]},
                )
            )
            continue
        # A parent that is no federation code falls back to the district of the ZPS, as for federations.
        parent = raw["parent"].upper()
        parent = parent if ORGANISATION_CODE_RE.fullmatch(parent) else zps[:3]
        result.clubs.append(ClubRow(number, zps, raw["lv"].upper(), parent, name))


def _parent_code(code: str, given: str) -> str:
    if given and given != code and ORGANISATION_CODE_RE.fullmatch(given):
        return given
    return "000" if code.endswith("00") else code[0] + "00"


def _read_federations(data: bytes, file: str, result: DsbList) -> None:
    seen: dict[str, int] = {f.code: f.line for f in result.federations}
    for number, raw in _table(data, file, result, _FEDERATION_COLUMNS):
        code, name = raw["first"].upper(), raw["name"]
        if (
            not ORGANISATION_CODE_RE.fullmatch(code)
            or not name
            or len(name) > CLUB_NAME_MAX
            or "\x00" in name
        ):
            result.problems.append(
                Problem(
                    file,
                    number,
                    gettext_noop("Verband „%(value)s“: Kennziffer oder Name ungültig."),
                    {"value": code[:20]},
                )
            )
            continue
        if code in seen:  # formats.md §3.5: the first occurrence owns the code (C01–C06 occur twice)
            result.warnings.append(
                Problem(
                    file,
                    number,
                    gettext_noop(
                        "Verband %(code)s steht schon in Zeile %(line)d; diese Zeile wird übergangen."
                    ),
                    {"code": code, "line": seen[code]},
                )
            )
            continue
        seen[code] = number
        parent = "" if code == "000" else _parent_code(code, raw["parent"].upper())
        result.federations.append(FederationRow(number, code, raw["lv"].upper(), parent, name))


# --- writing ---------------------------------------------------------------------------------------------

_TRANSLITERATE = str.maketrans(
    {"’": "'", "‘": "'", "‚": "'", "„": '"', "“": '"', "”": '"', "–": "-", "—": "-", "…": "...", "ẞ": "SS"}
)


def _encodable(text: str, encoding: str) -> str:
    """``text`` with every character ``encoding`` lacks transliterated to ASCII (š → s, „ → ")."""
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    out = []
    for char in text.translate(_TRANSLITERATE):
        try:
            char.encode(encoding)
            out.append(char)
        except UnicodeEncodeError:
            base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
            out.append(base or "?")
    return "".join(out)


def _cell(value: object) -> str:
    return "" if value is None else str(value)


def _player_values(row: PlayerRow, generation: str) -> list[str]:
    member = row.member_number or "0000"
    dwz = _cell(row.dwz) if row.dwz is not None else "0"
    index = _cell(row.index) if row.dwz is not None else "0"
    common = [
        member,
        row.status,
        row.name,
        row.sex,
        row.eligibility,
        _cell(row.birth_year),
        row.last_evaluation,
        dwz,
        index,
        _cell(row.fide_elo),
        row.fide_title,
        _cell(row.fide_id),
        row.fide_federation,
    ]
    if generation == "1":
        return [row.zps, *common]
    values = [row.person_id or "", row.zps, *common]
    if generation in ("3", "3b"):
        values += [row.first_name, row.surname]
    if generation == "3b":
        values += [row.women_title, _cell(row.fide_rapid), _cell(row.fide_blitz)]
    return values


def _csv_bytes(header_line: str, rows: Iterable[Sequence[str]], encoding: str = "cp1252") -> bytes:
    out = io.StringIO(newline="")
    out.write(header_line + "\r\n")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([_encodable(v, encoding) for v in row] for row in rows)
    return out.getvalue().encode(encoding)


def _header_line(columns: Sequence[str]) -> str:
    return ",".join(f'"{c}"' if ("," in c or " " in c) else c for c in columns)


def write_players_csv(rows: Iterable[PlayerRow], generation: str = "3b") -> bytes:
    """``spieler.csv`` of the given header generation: Windows-1252, CRLF, quoted where needed."""
    if generation not in HEADERS:
        raise ValueError(f"unknown generation {generation!r}")
    return _csv_bytes(_header_line(HEADERS[generation]), (_player_values(r, generation) for r in rows))


def write_clubs_csv(rows: Iterable[ClubRow]) -> bytes:
    return _csv_bytes(_header_line(CLUB_HEADER), ([r.zps, r.lv, r.parent, r.name] for r in rows))


def write_federations_csv(rows: Iterable[FederationRow]) -> bytes:
    return _csv_bytes(_header_line(FEDERATION_HEADER), ([r.code, r.lv, r.parent, r.name] for r in rows))


def _dos_field(value: str) -> str:
    return _encodable(value.replace("|", "/").replace("\r", " ").replace("\n", " "), "cp850")


def write_players_dos(rows: Iterable[PlayerRow]) -> bytes:
    """``SPIELER.TXT`` of the DOS variant: CP850, ``|``, CRLF, no header, DWZ and index joined."""
    lines = []
    for r in rows:
        dwz_index = f"{r.dwz}-{r.index}" if r.dwz is not None else "0-0"
        values = [
            r.person_id or "",
            r.zps,
            r.member_number or "0000",
            r.status,
            r.name,
            r.sex,
            r.eligibility,
            _cell(r.birth_year),
            r.last_evaluation,
            dwz_index,
            _cell(r.fide_elo),
            r.fide_title,
            _cell(r.fide_id),
            r.fide_federation,
        ]
        lines.append("|".join(_dos_field(v) for v in values))
    return "".join(line + "\r\n" for line in lines).encode("cp850")


def write_table_dos(rows: Iterable[ClubRow | FederationRow]) -> bytes:
    """``VEREINE.TXT`` / ``VERBAENDE.TXT``: four ``|``-separated fields, CP850, CRLF."""
    lines = []
    for r in rows:
        first = r.zps if isinstance(r, ClubRow) else r.code
        lines.append("|".join(_dos_field(v) for v in (first, r.lv, r.parent, r.name)))
    return "".join(line + "\r\n" for line in lines).encode("cp850")


README = (
    "DWZ-Liste aus dwzsite.\r\n"
    "%(players)d Spieler in %(clubs)d Vereinen, Stand %(date)s.\r\n"
    "Die Daten sind personenbezogen: Weitergabe und Veröffentlichung nur mit Zustimmung der Berechtigten.\r\n"
)


def write_zip(
    players: Sequence[PlayerRow],
    clubs: Sequence[ClubRow] = (),
    federations: Sequence[FederationRow] = (),
    *,
    dos: bool = False,
    generation: str = "3b",
    date: datetime.date | None = None,
) -> bytes:
    """A list zip as the DSB publishes it: ``spieler.csv`` + ``vereine.csv`` + ``verbaende.csv`` +
    ``README.txt`` (or the DOS files in upper case)."""
    stamp = date or datetime.date.today()
    readme = README % {
        "players": len({r.person_id or (r.zps, r.member_number, r.name) for r in players}),
        "clubs": len({r.zps for r in players}),
        "date": stamp.strftime("%d.%m.%Y"),
    }
    if dos:
        files = {
            "SPIELER.TXT": write_players_dos(players),
            "VEREINE.TXT": write_table_dos(clubs),
            "VERBAENDE.TXT": write_table_dos(federations),
            "README.TXT": _encodable(readme, "cp850").encode("cp850"),
        }
    else:
        files = {
            "spieler.csv": write_players_csv(players, generation),
            "vereine.csv": write_clubs_csv(clubs),
            "verbaende.csv": write_federations_csv(federations),
            "README.txt": readme.encode("cp1252"),
        }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            info = zipfile.ZipInfo(name, date_time=(stamp.year, stamp.month, stamp.day, 4, 15, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
    return buffer.getvalue()


def without_line(row: PlayerRow) -> PlayerRow:
    """The row with line number 0 (to compare rows read from different files)."""
    return replace(row, line=0)
