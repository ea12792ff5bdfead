"""The DSB tournament report XML ``DSB_DWZ_TournamentReport`` 2.5: reader, writer, checks (formats.md §3.10).

Pure Python on :mod:`lxml`, no Django. The element order and optionality are the ones formats.md §3.10
reconstructs from the two writers the DSB's portal accepts (ChessLeagueManager, "CLM", and the NSV's league
manager); the DSB's own XSD is not reachable, ``tests/data/dsb-xml/`` holds the schema written from §3.10.

Reader (:func:`parse`): reads both writers' files. It finds elements by their local name (with or without the
DSB namespace, in any order), takes CLM's ``01.07.2026T20:15:00`` as well as ISO 8601 in ``creationDate``,
and bytes that are not UTF-8 under a UTF-8 declaration (CLM converts to Latin-1 before writing) as
Windows-1252 with a warning. Names stay as written (CLM's ``Mueller, Joerg``): matching them to
``Müller, Jörg`` is the importer's, with the search key of ``ratings.folding``. A DOCTYPE is refused, so no
entity is ever expanded and nothing is fetched. Every error and warning is a :class:`Problem` naming the
element and its line; :func:`parse` collects all errors and raises :class:`DsbXmlError` once.

Writer (:func:`write`): UTF-8 with declaration, the DSB namespace, the element order of §3.10, only the
optional elements §3.10 marks "writer: yes" (never ``url`` and ``ageClass``). It refuses a report that
:func:`check_problems` finds not exportable (a player without a birth year, start numbers twice, a game with
an unlisted player, an invalid value). :func:`check` gives the officer's list before the export.

Scores whose two sides do not add up to 1 (``0``/``0``, ``0.5``/``0``) are an arbiter's decision: kept,
reported as a warning, never rated (§3.10 decision). ``+``/``-`` and a ``none…Player`` side are forfeits and
byes, never rated (WO 3.1).

Messages are German and marked with ``gettext_noop`` so the Django layer can translate them.
"""

from __future__ import annotations

import codecs
import datetime
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from lxml import etree


def gettext_noop(message: str) -> str:
    """Marks a message for translation (picked up by ``makemessages``); translated by the caller."""
    return message


NAMESPACE = "http://www.schachbund.de/XMLSchema"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_URL = "https://www.schachbund.de/files/wertungsportal/XMLSchema/2026/DSB_DWZ_Tounament_2_5.xsd"  # sic
VERSION = "2.5"
ROOT = "DSB_DWZ_TournamentReport"
MAX_ERRORS = 200

TOURNAMENT_TYPES = ("SW", "SR", "SC", "TR", "TW", "TC")
# Individual and team tournament types by the tournament's mode (formats.md §3.10; a league division is TR).
_TYPES_BY_MODE = {"swiss": ("SW", "TW"), "rr": ("SR", "TR"), "knockout": ("SC", "TC")}
POINTS = ("1", "0.5", "0", "+", "-")
FORFEIT_POINTS = frozenset("+-")
POINT_VALUES: Mapping[str, Decimal] = {
    "1": Decimal(1),
    "0.5": Decimal("0.5"),
    "0": Decimal(0),
    "+": Decimal(1),
    "-": Decimal(0),
}
COMPUTER_BIRTH_YEAR = 1900  # reserved for chess computers (formats.md §3.10)

# The element order of formats.md §3.10 (the writer's order; the reader accepts any order).
HEADER_ELEMENTS = ("creationDate", "sender", "system", "fileUUID")
TOURNAMENT_ELEMENTS = (
    "tournamentUUID",
    "label",
    "tournamentType",
    "timecontrol",
    "rounds",
    "startDate",
    "endDate",
    "location",
    "url",
    "ageClass",
    "notes",
)
PLAYER_ELEMENTS = (
    "tournamentPlayerNumber",
    "dsbId",
    "surname",
    "forename",
    "dobYear",
    "dobDate",
    "vkz",
    "numberClubMember",
    "club",
    "fideId",
    "fideRating",
    "sex",
)
GAME_ELEMENTS = (
    "round",
    "date",
    "tournamentPlayerNumberWhite",
    "noneWhitePlayer",
    "tournamentPlayerNumberBlack",
    "noneBlackPlayer",
    "pointWhite",
    "pointBlack",
)

# Where dwzsite makes a stable tournamentUUID from its own key (uuid5 in this namespace).
DWZSITE_UUID_NAMESPACE = uuid.UUID("6d2c3f0e-5b1a-5f4e-9c55-2a7d0b8e4d31")


# --- problems ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """An error or warning: where (line, element's local name) and what."""

    line: int | None
    element: str
    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template % self.params if self.params else self.template

    @property
    def where_template(self) -> str:
        if self.line is None:
            return gettext_noop("<%(element)s>") if self.element else ""
        if not self.element:
            return gettext_noop("Zeile %(line)s")
        return gettext_noop("Zeile %(line)s, <%(element)s>")

    @property
    def where(self) -> str:
        return self.where_template % {"line": self.line, "element": self.element}

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class DsbXmlError(ValueError):
    """The file cannot be read (or the report cannot be written); ``problems`` holds every error."""

    def __init__(self, problems: Sequence[Problem], warnings: Sequence[Problem] = ()) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = list(problems)
        self.warnings = list(warnings)


# --- the model -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Header:
    creation_date: datetime.datetime  # aware (NSV, dwzsite) or naive (CLM writes no offset)
    sender: str
    system: str
    file_uuid: uuid.UUID


@dataclass(frozen=True, slots=True)
class Tournament:
    uuid: uuid.UUID
    label: str
    type: str  # one of TOURNAMENT_TYPES
    rounds: int
    start_date: datetime.date
    end_date: datetime.date
    location: str
    time_control: str = ""  # "" = absent
    url: str = ""  # NSV only; the writer never writes it
    age_class: str = ""  # NSV only; the writer never writes it
    notes: str = ""  # CLM; the writer writes it


@dataclass(frozen=True, slots=True)
class Player:
    number: int  # tournamentPlayerNumber, the start number the games refer to
    surname: str
    forename: str
    birth_year: int | None  # required by the format; None only for a report not yet exportable
    dsb_id: str = ""  # "NU…", "FI…" or the numeric PKZ, as written
    birth_date: datetime.date | None = None
    vkz: str = ""  # ZPS of the club
    member_number: int | None = None  # numberClubMember
    club: str = ""
    fide_id: int | None = None
    fide_rating: int | None = None
    sex: str = ""  # "m", "w" or ""
    line: int | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        """``Surname, Forename`` as written (CLM: umlauts replaced)."""
        return f"{self.surname}, {self.forename}" if self.forename else self.surname


@dataclass(frozen=True, slots=True)
class Game:
    round: int
    white: int | None  # start number; None: noneWhitePlayer (empty board, no opponent)
    black: int | None
    point_white: str  # one of POINTS
    point_black: str
    date: datetime.date | None = None
    line: int | None = field(default=None, compare=False)

    @property
    def is_bye(self) -> bool:
        """A side without a player (``noneWhitePlayer``/``noneBlackPlayer``)."""
        return self.white is None or self.black is None

    @property
    def is_forfeit(self) -> bool:
        """``+`` or ``-`` on a side: a forfeit, not rated (WO 3.1)."""
        return not self.is_bye and (self.point_white in FORFEIT_POINTS or self.point_black in FORFEIT_POINTS)

    @property
    def is_arbiter_decision(self) -> bool:
        """Both sides played scores that do not add up to 1 (``0``/``0``, ``0.5``/``0``): kept, not rated."""
        return (
            not self.is_bye
            and not self.is_forfeit
            and POINT_VALUES[self.point_white] + POINT_VALUES[self.point_black] != 1
        )

    @property
    def is_rated(self) -> bool:
        return not (self.is_bye or self.is_forfeit or self.is_arbiter_decision)

    @property
    def kind(self) -> str:
        """``played``, ``forfeit``, ``bye`` or ``arbiter`` (an arbiter's decision)."""
        if self.is_bye:
            return "bye"
        if self.is_forfeit:
            return "forfeit"
        return "arbiter" if self.is_arbiter_decision else "played"


@dataclass(frozen=True, slots=True)
class Report:
    header: Header
    tournament: Tournament
    players: tuple[Player, ...]
    games: tuple[Game, ...] = ()
    warnings: tuple[Problem, ...] = field(default=(), compare=False)
    encoding: str = field(default="UTF-8", compare=False)  # as read: "UTF-8", "Windows-1252", …
    version: str = field(default=VERSION, compare=False)  # the root's version attribute as read

    def player(self, number: int) -> Player:
        for p in self.players:
            if p.number == number:
                return p
        raise KeyError(number)

    @property
    def rated_games(self) -> list[Game]:
        return [g for g in self.games if g.is_rated]


# --- helpers for the exporter --------------------------------------------------------------------------


def tournament_type(mode: str, *, team: bool = False) -> str:
    """``tournamentType`` of a tournament mode (``swiss``, ``rr``, ``knockout``); ``team`` for a league."""
    try:
        individual, team_type = _TYPES_BY_MODE[mode]
    except KeyError:
        raise ValueError(f"unknown tournament mode {mode!r}") from None
    return team_type if team else individual


def tournament_uuid(key: str, portal_code: str = "") -> uuid.UUID:
    """A ``tournamentUUID`` stable across re-exports: the portal UUID where the tournament has one, else a
    UUID derived from ``key`` (e.g. ``"tournament:42"``), so a corrected file replaces the earlier report."""
    if portal_code:
        try:
            return uuid.UUID(portal_code.strip())
        except ValueError:
            pass
    return uuid.uuid5(DWZSITE_UUID_NAMESPACE, key)


def system_text(version: str) -> str:
    return f"dwzsite {version}".strip()


def sender_text(organisation: str, officer: str) -> str:
    """``sender``: the organisation and the officer's name (as CLM: "service - user")."""
    return " - ".join(part.strip() for part in (organisation, officer) if part.strip())


def last_game_day(games: Iterable[Game]) -> datetime.date | None:
    """The last day of a game or round in the report (WO 2.2.3; the NSV's "latest game date"): the
    ``endDate`` when the games carry their dates. Forfeits and byes count, as their round was that day."""
    days = [g.date for g in games if g.date is not None]
    return max(days) if days else None


# --- reading: bytes to text ----------------------------------------------------------------------------

_BOM = b"\xef\xbb\xbf"
_DECLARED = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")


def _decode(data: bytes) -> tuple[str, str, list[Problem]]:
    """The text of the file: the declared encoding (UTF-8 if none); CLM's Latin-1 bytes under a UTF-8
    declaration are read as Windows-1252 with a warning."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16", []
        except UnicodeDecodeError:
            pass
    match = _DECLARED.match(data[:500])
    declared = match.group(1).decode("ascii") if match else "UTF-8"
    try:
        codec = codecs.lookup(declared).name
    except LookupError:
        raise DsbXmlError(
            [
                Problem(
                    1,
                    "",
                    gettext_noop("Unbekannte Zeichenkodierung „%(encoding)s“ in der XML-Deklaration."),
                    {"encoding": declared},
                )
            ]
        ) from None
    if codec != "utf-8":
        try:
            return data.decode(codec), declared, []
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise DsbXmlError(
                [
                    Problem(
                        line,
                        "",
                        gettext_noop("Byte 0x%(byte)02X passt nicht zur erklärten Kodierung %(encoding)s."),
                        {"byte": data[exc.start], "encoding": declared},
                    )
                ]
            ) from None
    try:
        return data.decode("utf-8"), "UTF-8", []
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
    try:
        text, encoding = data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        text, encoding = data.decode("latin-1"), "ISO-8859-1"
    warning = Problem(
        line,
        "",
        gettext_noop(
            "Die Datei ist als UTF-8 erklärt, enthält aber andere Bytes; sie wurde als %(encoding)s gelesen. "
            "Bitte Umlaute prüfen."
        ),
        {"encoding": encoding},
    )
    return text, encoding, [warning]


def _parser() -> etree.XMLParser:
    # No entity is expanded, no DTD loaded, nothing fetched; a DOCTYPE is refused after parsing anyway.
    return etree.XMLParser(
        encoding="utf-8",
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


# --- reading: values -----------------------------------------------------------------------------------

_DATE_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DATE_DMY = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_CLM_DATETIME = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?")
_DSB_ID = re.compile(r"(?:NU|FI)\d{1,12}|\d{1,12}")
_VKZ = re.compile(r"[0-9A-Z]{5}")
# Characters XML 1.0 forbids even escaped: C0 controls but tab, CR, LF; surrogates; U+FFFE, U+FFFF.
_XML_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _date(text: str) -> datetime.date | None:
    if m := _DATE_ISO.fullmatch(text):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    elif m := _DATE_DMY.fullmatch(text):
        d, mo, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
    else:
        return None
    try:
        return datetime.date(y, mo, d)
    except ValueError:
        return None


def _datetime(text: str) -> datetime.datetime | None:
    if m := _CLM_DATETIME.fullmatch(text):
        d, mo, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        h, mi, s = (int(g) if g else 0 for g in m.group(4, 5, 6))
        try:
            return datetime.datetime(y, mo, d, h, mi, s)
        except ValueError:
            return None
    if not text[:4].isdigit():
        return None
    try:
        return datetime.datetime.fromisoformat(text)
    except ValueError:
        return None


def _point(text: str) -> str | None:
    text = text.strip().replace(",", ".").replace("½", "0.5")
    if text in FORFEIT_POINTS:
        return text
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    for code in ("1", "0.5", "0"):
        if value == Decimal(code):
            return code
    return None


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname


# --- reading: the tree ---------------------------------------------------------------------------------


class _Reader:
    def __init__(self) -> None:
        self.errors: list[Problem] = []
        self.warnings: list[Problem] = []

    def error(self, el: etree._Element | None, element: str, template: str, **params: object) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(Problem(el.sourceline if el is not None else None, element, template, params))

    def warn(self, el: etree._Element | None, element: str, template: str, **params: object) -> None:
        self.warnings.append(Problem(el.sourceline if el is not None else None, element, template, params))

    def unknown(self, child: etree._Element, parent: str) -> None:
        """An element the format does not have where it stands: read past, with a warning."""
        self.warn(
            child,
            _local(child),
            gettext_noop("Unbekanntes Element <%(name)s> in <%(parent)s> – nicht ausgewertet."),
            name=_local(child),
            parent=parent,
        )

    def children(self, parent: etree._Element, known: Sequence[str]) -> dict[str, etree._Element]:
        """The element children of ``parent`` by local name; unknown ones warned about, doubles errors."""
        found: dict[str, etree._Element] = {}
        for child in parent:
            if not isinstance(child.tag, str):
                continue
            name = _local(child)
            if name not in known:
                self.unknown(child, _local(parent))
            elif name in found:
                self.error(
                    child,
                    name,
                    gettext_noop("<%(name)s> steht mehrfach in <%(parent)s> (zuerst Zeile %(other)s)."),
                    name=name,
                    parent=_local(parent),
                    other=found[name].sourceline,
                )
            else:
                found[name] = child
        return found

    def text(
        self,
        parent: etree._Element,
        found: Mapping[str, etree._Element],
        name: str,
        *,
        required: bool = False,
        non_empty: bool = False,
    ) -> tuple[str, etree._Element | None]:
        el = found.get(name)
        if el is None:
            if required:
                self.error(
                    parent,
                    _local(parent),
                    gettext_noop("Pflichtelement <%(name)s> fehlt in <%(parent)s>."),
                    name=name,
                    parent=_local(parent),
                )
            return "", None
        value = (el.text or "").strip()
        if non_empty and not value:
            self.error(el, name, gettext_noop("<%(name)s> ist leer."), name=name)
        return value, el

    def integer(
        self,
        parent: etree._Element,
        found: Mapping[str, etree._Element],
        name: str,
        low: int,
        high: int | None = None,
        *,
        required: bool = False,
    ) -> int | None:
        value, el = self.text(parent, found, name, required=required)
        if el is None:
            return None
        if not value:
            if required:
                self.error(el, name, gettext_noop("<%(name)s> ist leer."), name=name)
            return None
        if not (value.isascii() and value.isdigit()):
            self.error(el, name, gettext_noop("„%(value)s“ ist keine ganze Zahl."), value=value)
            return None
        number = int(value)
        if number < low or (high is not None and number > high):
            if high is None:
                self.error(
                    el, name, gettext_noop("%(value)s ist kleiner als %(low)s."), value=number, low=low
                )
            else:
                self.error(
                    el,
                    name,
                    gettext_noop("%(value)s liegt nicht zwischen %(low)s und %(high)s."),
                    value=number,
                    low=low,
                    high=high,
                )
            return None
        return number

    def date(
        self,
        parent: etree._Element,
        found: Mapping[str, etree._Element],
        name: str,
        *,
        required: bool = False,
    ) -> datetime.date | None:
        value, el = self.text(parent, found, name, required=required)
        if el is None or (not value and not required):
            return None
        result = _date(value)
        if result is None:
            self.error(el, name, gettext_noop("„%(value)s“ ist kein Datum (JJJJ-MM-TT)."), value=value)
        return result

    def uuid(
        self, parent: etree._Element, found: Mapping[str, etree._Element], name: str
    ) -> uuid.UUID | None:
        value, el = self.text(parent, found, name, required=True)
        if el is None:
            return None
        try:
            return uuid.UUID(value)
        except ValueError:
            self.error(el, name, gettext_noop("„%(value)s“ ist keine UUID."), value=value)
            return None

    # -- the parts

    def header(self, el: etree._Element) -> Header | None:
        found = self.children(el, HEADER_ELEMENTS)
        raw, date_el = self.text(el, found, "creationDate", required=True)
        created = _datetime(raw) if date_el is not None else None
        if date_el is not None and created is None:
            self.error(
                date_el,
                "creationDate",
                gettext_noop(
                    "„%(value)s“ ist kein Zeitpunkt (erwartet 2026-07-01T20:15:00+02:00 oder "
                    "01.07.2026T20:15:00)."
                ),
                value=raw,
            )
        sender, _ = self.text(el, found, "sender", required=True)
        system, _ = self.text(el, found, "system", required=True)
        file_uuid = self.uuid(el, found, "fileUUID")
        if created is None or file_uuid is None:
            return None
        return Header(created, sender, system, file_uuid)

    def tournament(self, el: etree._Element) -> Tournament | None:
        found = self.children(el, TOURNAMENT_ELEMENTS)
        t_uuid = self.uuid(el, found, "tournamentUUID")
        label, _ = self.text(el, found, "label", required=True, non_empty=True)
        kind, kind_el = self.text(el, found, "tournamentType", required=True)
        if kind_el is not None and kind.upper() not in TOURNAMENT_TYPES:
            self.error(
                kind_el,
                "tournamentType",
                gettext_noop("Turnierart „%(value)s“ ist unbekannt; erlaubt sind %(allowed)s."),
                value=kind,
                allowed=", ".join(TOURNAMENT_TYPES),
            )
        time_control, _ = self.text(el, found, "timecontrol")
        rounds = self.integer(el, found, "rounds", 1, required=True)
        start = self.date(el, found, "startDate", required=True)
        end = self.date(el, found, "endDate", required=True)
        if start and end and end < start:
            self.error(
                found["endDate"],
                "endDate",
                gettext_noop("Das Ende %(end)s liegt vor dem Beginn %(start)s."),
                end=end.isoformat(),
                start=start.isoformat(),
            )
        location, _ = self.text(el, found, "location", required=True)
        url, _ = self.text(el, found, "url")
        age_class, _ = self.text(el, found, "ageClass")
        notes, _ = self.text(el, found, "notes")
        if t_uuid is None or kind.upper() not in TOURNAMENT_TYPES or rounds is None or not start or not end:
            return None
        return Tournament(
            t_uuid, label, kind.upper(), rounds, start, end, location, time_control, url, age_class, notes
        )

    def player(self, el: etree._Element) -> tuple[int | None, Player | None]:
        """(start number, player); the player is None where an element of it has an error."""
        found = self.children(el, PLAYER_ELEMENTS)
        errors = len(self.errors)
        number = self.integer(el, found, "tournamentPlayerNumber", 1, required=True)
        dsb_id, dsb_el = self.text(el, found, "dsbId")
        if dsb_el is not None and dsb_id and not _DSB_ID.fullmatch(dsb_id.upper()):
            self.warn(
                dsb_el,
                "dsbId",
                gettext_noop("DSB-ID „%(value)s“ hat keine bekannte Form (NU…, FI… oder PKZ)."),
                value=dsb_id,
            )
        surname, _ = self.text(el, found, "surname", required=True, non_empty=True)
        forename, _ = self.text(el, found, "forename", required=True)
        year_text, year_el = self.text(el, found, "dobYear", required=True)
        birth_year: int | None = None
        if year_el is not None:
            if not year_text or year_text.strip("0") == "":
                self.warn(
                    year_el,
                    "dobYear",
                    gettext_noop("Kein Geburtsjahr bei %(name)s."),
                    name=f"{surname}, {forename}",
                )
            elif len(year_text) == 4 and year_text.isascii() and year_text.isdigit():
                birth_year = int(year_text)
            else:
                self.error(
                    year_el,
                    "dobYear",
                    gettext_noop("Geburtsjahr „%(value)s“ ist keine vierstellige Jahreszahl."),
                    value=year_text,
                )
        birth_date = self.date(el, found, "dobDate")
        if birth_date and birth_year and birth_date.year != birth_year:
            self.warn(
                found["dobDate"],
                "dobDate",
                gettext_noop("Geburtsdatum %(date)s passt nicht zum Geburtsjahr %(year)s."),
                date=birth_date.isoformat(),
                year=birth_year,
            )
        vkz, vkz_el = self.text(el, found, "vkz")
        if vkz_el is not None and vkz and not _VKZ.fullmatch(vkz.upper()):
            self.warn(vkz_el, "vkz", gettext_noop("ZPS „%(value)s“ hat nicht fünf Zeichen."), value=vkz)
        member = self.integer(el, found, "numberClubMember", 1, 99999)
        club, _ = self.text(el, found, "club")
        fide_id = self.integer(el, found, "fideId", 1)
        fide_rating = self.integer(el, found, "fideRating", 1, 5000)
        sex, sex_el = self.text(el, found, "sex")
        sex = {"f": "w", "M": "m", "W": "w", "F": "w"}.get(sex, sex)
        if sex_el is not None and sex not in ("", "m", "w"):
            self.warn(
                sex_el,
                "sex",
                gettext_noop("Geschlecht „%(value)s“ ist weder m noch w – ignoriert."),
                value=sex,
            )
            sex = ""
        if number is None or len(self.errors) > errors:
            return number, None
        return number, Player(
            number=number,
            surname=surname,
            forename=forename,
            birth_year=birth_year,
            dsb_id=dsb_id.upper() if _DSB_ID.fullmatch(dsb_id.upper()) else dsb_id,
            birth_date=birth_date,
            vkz=vkz.upper() if vkz_el is not None and _VKZ.fullmatch(vkz.upper()) else vkz,
            member_number=member,
            club=club,
            fide_id=fide_id,
            fide_rating=fide_rating,
            sex=sex,
            line=el.sourceline,
        )

    def side(
        self,
        el: etree._Element,
        found: Mapping[str, etree._Element],
        colour: str,
        known: Mapping[int, int | None],
    ) -> tuple[int | None, bool]:
        """(start number or None, readable) of one side of a game."""
        number_name, none_name = f"tournamentPlayerNumber{colour}", f"none{colour}Player"
        number_el, none_el = found.get(number_name), found.get(none_name)
        if number_el is not None and none_el is not None:
            self.error(
                none_el,
                none_name,
                gettext_noop("<%(number)s> und <%(none)s> schließen einander aus."),
                number=number_name,
                none=none_name,
            )
            return None, False
        if none_el is not None:
            value = (none_el.text or "").strip().lower()
            if value not in ("true", "1"):
                self.error(
                    none_el,
                    none_name,
                    gettext_noop("<%(none)s> ist „%(value)s“, aber es fehlt <%(number)s>."),
                    none=none_name,
                    value=value,
                    number=number_name,
                )
                return None, False
            return None, True
        if number_el is None:
            self.error(
                el,
                "game",
                gettext_noop("Pflichtelement <%(number)s> oder <%(none)s> fehlt in <game>."),
                number=number_name,
                none=none_name,
            )
            return None, False
        number = self.integer(el, found, number_name, 1)
        if number is None:
            return None, False
        if number not in known:
            self.error(
                number_el,
                number_name,
                gettext_noop("Startnummer %(number)s ist in <players> nicht aufgeführt."),
                number=number,
            )
            return None, False
        return number, True

    def game(self, el: etree._Element, known: Mapping[int, int | None], rounds: int | None) -> Game | None:
        found = self.children(el, GAME_ELEMENTS)
        errors = len(self.errors)
        rnd = self.integer(el, found, "round", 1, required=True)
        date = self.date(el, found, "date")
        white, white_ok = self.side(el, found, "White", known)
        black, black_ok = self.side(el, found, "Black", known)
        if white_ok and black_ok and white is not None and white == black:
            self.error(
                found["tournamentPlayerNumberBlack"],
                "tournamentPlayerNumberBlack",
                gettext_noop("Startnummer %(number)s spielt gegen sich selbst."),
                number=white,
            )
        points: list[str] = []
        for name in ("pointWhite", "pointBlack"):
            raw, point_el = self.text(el, found, name, required=True)
            if point_el is None:
                continue
            point = _point(raw)
            if point is None:
                self.error(
                    point_el,
                    name,
                    gettext_noop("Ergebnis „%(value)s“ ist ungültig; erlaubt sind 1, 0.5, 0, + und -."),
                    value=raw,
                )
            else:
                points.append(point)
        if rnd is None or len(points) != 2 or len(self.errors) > errors:
            return None
        if rounds is not None and rnd > rounds:
            self.warn(
                found["round"],
                "round",
                gettext_noop("Runde %(round)s, aber das Turnier hat %(rounds)s Runden."),
                round=rnd,
                rounds=rounds,
            )
        game = Game(rnd, white, black, points[0], points[1], date, line=el.sourceline)
        if game.is_arbiter_decision:
            self.warn(
                el,
                "game",
                gettext_noop(
                    "Runde %(round)s: %(white)s–%(black)s ergibt nicht einen Punkt "
                    "(Schiedsrichterentscheid) – übernommen, nicht gewertet."
                ),
                round=rnd,
                white=points[0],
                black=points[1],
            )
        return game

    # -- the root and its lists (parse's phases after the bytes became a tree)

    def root(self, root: etree._Element) -> tuple[str, dict[str, etree._Element]]:
        """(version attribute, parts by name) of the root; a foreign namespace or version is only a warning,
        as both writers' files are read alike, but a missing part is an error."""
        namespace = etree.QName(root).namespace
        if namespace not in (None, NAMESPACE):
            self.warn(
                root,
                ROOT,
                gettext_noop("Namensraum „%(namespace)s“ statt „%(expected)s“."),
                namespace=namespace,
                expected=NAMESPACE,
            )
        version = (root.get("version") or "").strip()
        if version and not (version == VERSION or version.startswith(VERSION + ".")):
            self.warn(
                root,
                ROOT,
                gettext_noop("Version %(version)s; gelesen wie %(expected)s."),
                version=version,
                expected=VERSION,
            )
        parts = self.children(root, ("header", "tournament", "players", "games"))
        for part in ("header", "tournament", "players"):
            if part not in parts:
                self.error(
                    root,
                    ROOT,
                    gettext_noop("Pflichtelement <%(name)s> fehlt in <%(parent)s>."),
                    name=part,
                    parent=ROOT,
                )
        return version, parts

    def players(self, el: etree._Element) -> tuple[list[Player], dict[int, int | None]]:
        """(readable players, start number -> line of every start number read, for the games)."""
        players: list[Player] = []
        known: dict[int, int | None] = {}
        player_els = [c for c in el if isinstance(c.tag, str)]
        for child in player_els:
            if _local(child) != "player":
                self.unknown(child, "players")
                continue
            number, player = self.player(child)
            if number is None:
                continue
            if number in known:
                self.error(
                    child,
                    "tournamentPlayerNumber",
                    gettext_noop("Startnummer %(number)s doppelt (auch Zeile %(other)s)."),
                    number=number,
                    other=known[number],
                )
                continue
            known[number] = child.sourceline  # a player with errors still is a known start number
            if player is not None:
                players.append(player)
        if not any(_local(c) == "player" for c in player_els):
            self.error(el, "players", gettext_noop("<players> enthält keinen <player>."))
        return players, known

    def games(self, el: etree._Element, known: Mapping[int, int | None], rounds: int | None) -> list[Game]:
        """The readable games of ``<games>``; ``rounds`` None where the tournament could not be read."""
        games: list[Game] = []
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if _local(child) != "game":
                self.unknown(child, "games")
                continue
            game = self.game(child, known, rounds)
            if game is not None:
                games.append(game)
        return games


def _root(data: bytes) -> tuple[etree._Element, str, list[Problem]]:
    """(root element, encoding as read, warnings of the decoding) of a file that is a DSB report at all.

    Raises :class:`DsbXmlError` at once where there is nothing to read on: an empty file, no XML, a DOCTYPE
    (refused so no entity is ever expanded), a root other than ``DSB_DWZ_TournamentReport``.
    """
    if not data.strip():
        raise DsbXmlError([Problem(None, "", gettext_noop("Die Datei ist leer – keine XML-Datei."))])
    text, encoding, warnings = _decode(data)
    try:
        root = etree.fromstring(text.encode("utf-8"), _parser())  # no entities, no network: see _parser
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if exc.lineno else None
        detail = exc.msg.split(", line ")[0] if exc.msg else ""
        raise DsbXmlError(
            [Problem(line, "", gettext_noop("Keine gültige XML-Datei (%(detail)s)."), {"detail": detail})],
            warnings,
        ) from None
    doctype = root.getroottree().docinfo.doctype
    if doctype:
        raise DsbXmlError(
            [
                Problem(
                    1,
                    "",
                    gettext_noop("Eine DOCTYPE-Deklaration ist in einem DSB-Turnierbericht nicht erlaubt."),
                )
            ],
            warnings,
        )
    name = _local(root)
    if name != ROOT:
        raise DsbXmlError(
            [
                Problem(
                    root.sourceline,
                    name,
                    gettext_noop(
                        "Kein DSB-Turnierbericht: das Wurzelelement ist <%(name)s>, nicht <%(root)s>."
                    ),
                    {"name": name, "root": ROOT},
                )
            ],
            warnings,
        )
    return root, encoding, warnings


def parse(data: bytes) -> Report:
    """Read a ``DSB_DWZ_TournamentReport``. Raises :class:`DsbXmlError` listing every problem."""
    root, encoding, warnings = _root(data)
    rd = _Reader()
    rd.warnings += warnings
    version, parts = rd.root(root)
    # Every part is read even when an earlier one failed, so one run lists all the file's errors.
    header = rd.header(parts["header"]) if "header" in parts else None
    tournament = rd.tournament(parts["tournament"]) if "tournament" in parts else None
    players, known = rd.players(parts["players"]) if "players" in parts else ([], {})
    if "games" in parts:
        games = rd.games(parts["games"], known, tournament.rounds if tournament else None)
    else:
        games = []
        rd.warn(root, ROOT, gettext_noop("Kein Element <games>: der Bericht enthält keine Partien."))

    if rd.errors or header is None or tournament is None:
        raise DsbXmlError(rd.errors, rd.warnings)
    return Report(
        header=header,
        tournament=tournament,
        players=tuple(players),
        games=tuple(games),
        warnings=tuple(rd.warnings),
        encoding=encoding,
        version=version,
    )


# --- checks before an export ---------------------------------------------------------------------------
#
# Each check appends to ``fatal`` (the file would be invalid: the writer refuses it) or ``advice`` (the
# officer should look, the file is still written); a check takes only the lists it may append to. _check
# runs them in a fixed order (tournament, texts, players one by one, games one by one, end date), the order
# :func:`check_problems` lists the fatal problems and then the advice in.


def _check_tournament(t: Tournament, fatal: list[Problem]) -> None:
    """The tournament's own values: name, type, rounds, dates."""
    if not t.label.strip():
        fatal.append(Problem(None, "label", gettext_noop("Der Turniername fehlt.")))
    if t.type not in TOURNAMENT_TYPES:
        fatal.append(
            Problem(
                None,
                "tournamentType",
                gettext_noop("Turnierart „%(value)s“ ist unbekannt."),
                {"value": t.type},
            )
        )
    if t.rounds < 1:
        fatal.append(Problem(None, "rounds", gettext_noop("Die Rundenzahl fehlt.")))
    if t.end_date < t.start_date:
        fatal.append(
            Problem(
                None,
                "endDate",
                gettext_noop("Das Ende %(end)s liegt vor dem Beginn %(start)s."),
                {"end": t.end_date.isoformat(), "start": t.start_date.isoformat()},
            )
        )


def _check_texts(report: Report, fatal: list[Problem]) -> None:
    """Free texts with characters XML 1.0 cannot carry even escaped (lxml would refuse to write them)."""
    h, t = report.header, report.tournament
    texts: list[tuple[int | None, str, str]] = [
        (None, "sender", h.sender),
        (None, "system", h.system),
        (None, "label", t.label),
        (None, "timecontrol", t.time_control),
        (None, "location", t.location),
        (None, "notes", t.notes),
    ]
    for p in report.players:
        texts += [(p.line, "surname", p.surname), (p.line, "forename", p.forename), (p.line, "club", p.club)]
    for line, name, text in texts:
        if _XML_UNSAFE.search(text):
            fatal.append(
                Problem(
                    line,
                    name,
                    gettext_noop("„%(value)s“ enthält Zeichen, die XML nicht erlaubt (Steuerzeichen)."),
                    {"value": _XML_UNSAFE.sub("?", text)},
                )
            )


def _check_start_number(p: Player, numbers: dict[int, Player], fatal: list[Problem]) -> None:
    """A start number that is invalid or taken by an earlier player; a free one is entered in ``numbers``."""
    if p.number < 1:
        fatal.append(
            Problem(
                p.line,
                "tournamentPlayerNumber",
                gettext_noop("Startnummer %(number)s ist ungültig."),
                {"number": p.number},
            )
        )
    if p.number in numbers:
        fatal.append(
            Problem(
                p.line,
                "tournamentPlayerNumber",
                gettext_noop("Startnummer %(number)s ist doppelt vergeben (%(first)s und %(second)s)."),
                {"number": p.number, "first": numbers[p.number].name, "second": p.name},
            )
        )
    else:
        numbers[p.number] = p


def _check_name_and_birth_year(p: Player, fatal: list[Problem]) -> None:
    """The two values the format requires of every player besides the start number."""
    if not p.surname.strip():
        fatal.append(
            Problem(
                p.line,
                "surname",
                gettext_noop("Startnummer %(number)s hat keinen Namen."),
                {"number": p.number},
            )
        )
    if p.birth_year is None:
        fatal.append(
            Problem(
                p.line,
                "dobYear",
                gettext_noop("%(name)s (Startnummer %(number)s) hat kein Geburtsjahr."),
                {"name": p.name, "number": p.number},
            )
        )
    elif not 1000 <= p.birth_year <= 9999:
        fatal.append(
            Problem(
                p.line,
                "dobYear",
                gettext_noop("Geburtsjahr %(year)s von %(name)s ist ungültig."),
                {"year": p.birth_year, "name": p.name},
            )
        )


def _check_dsb_id(
    p: Player, by_dsb_id: dict[str, Player], fatal: list[Problem], advice: list[Problem]
) -> None:
    """A DSB-ID of unknown form is fatal; one an earlier player has too is advice only."""
    if p.dsb_id and not _DSB_ID.fullmatch(p.dsb_id):
        fatal.append(
            Problem(
                p.line,
                "dsbId",
                gettext_noop("DSB-ID „%(value)s“ von %(name)s hat keine bekannte Form."),
                {"value": p.dsb_id, "name": p.name},
            )
        )
    elif p.dsb_id:
        if p.dsb_id in by_dsb_id:
            advice.append(
                Problem(
                    p.line,
                    "dsbId",
                    gettext_noop("%(first)s und %(second)s haben dieselbe DSB-ID %(id)s."),
                    {"first": by_dsb_id[p.dsb_id].name, "second": p.name, "id": p.dsb_id},
                )
            )
        else:
            by_dsb_id[p.dsb_id] = p


def _check_optional_fields(p: Player, fatal: list[Problem]) -> None:
    """The optional player elements the schema restricts: ZPS form, number ranges, sex."""
    if p.vkz and not _VKZ.fullmatch(p.vkz):
        fatal.append(
            Problem(
                p.line,
                "vkz",
                gettext_noop("ZPS „%(value)s“ von %(name)s ist ungültig."),
                {"value": p.vkz, "name": p.name},
            )
        )
    for element, value, low, high in (
        ("numberClubMember", p.member_number, 1, 99999),
        ("fideId", p.fide_id, 1, None),
        ("fideRating", p.fide_rating, 1, 5000),
    ):
        if value is not None and (value < low or (high is not None and value > high)):
            fatal.append(
                Problem(
                    p.line,
                    element,
                    gettext_noop("%(value)s von %(name)s liegt außerhalb des erlaubten Bereichs."),
                    {"value": value, "name": p.name},
                )
            )
    if p.sex not in ("", "m", "w"):
        fatal.append(
            Problem(
                p.line,
                "sex",
                gettext_noop("Geschlecht „%(value)s“ ist weder m noch w."),
                {"value": p.sex},
            )
        )


def _check_players(
    players: Sequence[Player], fatal: list[Problem], advice: list[Problem]
) -> dict[int, Player]:
    """Every player's problems, player by player; returns the players by start number for the games."""
    if not players:
        fatal.append(Problem(None, "players", gettext_noop("Der Bericht enthält keinen Spieler.")))
    numbers: dict[int, Player] = {}
    by_dsb_id: dict[str, Player] = {}
    for p in players:
        _check_start_number(p, numbers, fatal)
        _check_name_and_birth_year(p, fatal)
        _check_dsb_id(p, by_dsb_id, fatal, advice)
        _check_optional_fields(p, fatal)
    return numbers


def _check_game_sides(g: Game, numbers: Mapping[int, Player], fatal: list[Problem]) -> None:
    """Start numbers of a game that are not in the player list, or a player against himself."""
    for element, number in (
        ("tournamentPlayerNumberWhite", g.white),
        ("tournamentPlayerNumberBlack", g.black),
    ):
        if number is not None and number not in numbers:
            fatal.append(
                Problem(
                    g.line,
                    element,
                    gettext_noop("Runde %(round)s: Startnummer %(number)s ist nicht in der Spielerliste."),
                    {"round": g.round, "number": number},
                )
            )
    if g.white is not None and g.white == g.black:
        fatal.append(
            Problem(
                g.line,
                "game",
                gettext_noop("Runde %(round)s: Startnummer %(number)s spielt gegen sich selbst."),
                {"round": g.round, "number": g.white},
            )
        )


def _check_game_points(g: Game, fatal: list[Problem]) -> None:
    for element, point in (("pointWhite", g.point_white), ("pointBlack", g.point_black)):
        if point not in POINTS:
            fatal.append(
                Problem(
                    g.line,
                    element,
                    gettext_noop("Runde %(round)s: Ergebnis „%(value)s“ ist ungültig."),
                    {"round": g.round, "value": point},
                )
            )


def _check_game_date(g: Game, t: Tournament, advice: list[Problem]) -> None:
    """A game dated outside the tournament: advice only, the file stays valid."""
    if g.date is not None and not t.start_date <= g.date <= t.end_date:
        advice.append(
            Problem(
                g.line,
                "date",
                gettext_noop(
                    "Runde %(round)s: das Datum %(date)s liegt nicht zwischen %(start)s und %(end)s."
                ),
                {
                    "round": g.round,
                    "date": g.date.isoformat(),
                    "start": t.start_date.isoformat(),
                    "end": t.end_date.isoformat(),
                },
            )
        )


def _check_game_round(g: Game, t: Tournament, fatal: list[Problem], advice: list[Problem]) -> None:
    """A round below 1 is fatal; one beyond the tournament's rounds is advice only."""
    if g.round < 1:
        fatal.append(
            Problem(g.line, "round", gettext_noop("Runde %(round)s ist ungültig."), {"round": g.round})
        )
    elif g.round > t.rounds:
        advice.append(
            Problem(
                g.line,
                "round",
                gettext_noop("Runde %(round)s, aber das Turnier hat %(rounds)s Runden."),
                {"round": g.round, "rounds": t.rounds},
            )
        )


def _check_end_date(report: Report, advice: list[Problem]) -> None:
    """The end date should be the day of the last game (WO 2.2.3); see :func:`last_game_day`."""
    t = report.tournament
    last = last_game_day(report.games)
    if last is not None and last != t.end_date:
        advice.append(
            Problem(
                None,
                "endDate",
                gettext_noop("Das Ende %(end)s ist nicht der Tag der letzten Partie (%(last)s)."),
                {"end": t.end_date.isoformat(), "last": last.isoformat()},
            )
        )


def _check(report: Report) -> tuple[list[Problem], list[Problem]]:
    """(problems that make the file invalid, problems the officer should see) of a report to export."""
    fatal: list[Problem] = []
    advice: list[Problem] = []
    t = report.tournament
    _check_tournament(t, fatal)
    _check_texts(report, fatal)
    numbers = _check_players(report.players, fatal, advice)
    for g in report.games:
        _check_game_sides(g, numbers, fatal)
        _check_game_points(g, fatal)
        _check_game_date(g, t, advice)
        _check_game_round(g, t, fatal, advice)
    _check_end_date(report, advice)
    return fatal, advice


def check_problems(report: Report) -> list[Problem]:
    """Every problem of a report before its export (formats.md §3.10): the officer sees them as a list."""
    fatal, advice = _check(report)
    return fatal + advice


def check(report: Report) -> list[str]:
    """:func:`check_problems` as messages (German)."""
    return [str(p) for p in check_problems(report)]


# --- writing -------------------------------------------------------------------------------------------


def _sub(parent: etree._Element, name: str, text: str | None = None) -> etree._Element:
    el = etree.SubElement(parent, f"{{{NAMESPACE}}}{name}")
    if text is not None:
        el.text = text
    return el


# The element writers follow HEADER_ELEMENTS, TOURNAMENT_ELEMENTS, PLAYER_ELEMENTS and GAME_ELEMENTS: the
# order is the format's (§3.10), an optional element is left out when it has no value.


def _write_header(root: etree._Element, h: Header) -> None:
    header = _sub(root, "header")
    _sub(header, "creationDate", h.creation_date.isoformat())
    _sub(header, "sender", h.sender)
    _sub(header, "system", h.system)
    _sub(header, "fileUUID", str(h.file_uuid))


def _write_tournament(root: etree._Element, t: Tournament) -> None:
    tournament = _sub(root, "tournament")
    _sub(tournament, "tournamentUUID", str(t.uuid))
    _sub(tournament, "label", t.label)
    _sub(tournament, "tournamentType", t.type)
    if t.time_control:
        _sub(tournament, "timecontrol", t.time_control)
    _sub(tournament, "rounds", str(t.rounds))
    _sub(tournament, "startDate", t.start_date.isoformat())
    _sub(tournament, "endDate", t.end_date.isoformat())
    _sub(tournament, "location", t.location)
    if t.notes:  # url and ageClass never: their place relative to notes is unconfirmed (§3.10)
        _sub(tournament, "notes", t.notes)


def _write_player(players: etree._Element, p: Player) -> None:
    player = _sub(players, "player")
    _sub(player, "tournamentPlayerNumber", str(p.number))
    if p.dsb_id:
        _sub(player, "dsbId", p.dsb_id)
    _sub(player, "surname", p.surname)
    _sub(player, "forename", p.forename)
    _sub(player, "dobYear", f"{p.birth_year:04d}")
    if p.birth_date is not None:
        _sub(player, "dobDate", p.birth_date.isoformat())
    if p.vkz:
        _sub(player, "vkz", p.vkz)
    if p.member_number is not None:
        _sub(player, "numberClubMember", str(p.member_number))
    if p.club:
        _sub(player, "club", p.club)
    if p.fide_id is not None:
        _sub(player, "fideId", str(p.fide_id))
    if p.fide_rating is not None:
        _sub(player, "fideRating", str(p.fide_rating))
    if p.sex:
        _sub(player, "sex", p.sex)


def _write_game(games: etree._Element, g: Game) -> None:
    game = _sub(games, "game")
    _sub(game, "round", str(g.round))
    if g.date is not None:
        _sub(game, "date", g.date.isoformat())
    for colour, number in (("White", g.white), ("Black", g.black)):
        if number is None:
            _sub(game, f"none{colour}Player", "true")
        else:
            _sub(game, f"tournamentPlayerNumber{colour}", str(number))
    _sub(game, "pointWhite", g.point_white)
    _sub(game, "pointBlack", g.point_black)


def write(report: Report) -> bytes:
    """The report as UTF-8 XML in the element order of formats.md §3.10.

    Raises :class:`DsbXmlError` when :func:`check_problems` finds the report not exportable (a player
    without a birth year, start numbers twice, a game with an unlisted player, an invalid value).
    """
    fatal, advice = _check(report)
    if fatal:
        raise DsbXmlError(fatal, advice)
    root = etree.Element(f"{{{NAMESPACE}}}{ROOT}", nsmap={None: NAMESPACE, "xsi": XSI})
    root.set("version", VERSION)
    root.set(f"{{{XSI}}}schemaLocation", f"{NAMESPACE} {SCHEMA_URL}")
    _write_header(root, report.header)
    _write_tournament(root, report.tournament)
    players = _sub(root, "players")
    for p in report.players:
        _write_player(players, p)
    games = _sub(root, "games")
    for g in report.games:
        _write_game(games, g)
    etree.indent(root, space="  ")
    body = etree.tostring(root, encoding="UTF-8", xml_declaration=False)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + body + b"\n"


def schema_problems(data: bytes, xsd: bytes) -> list[str]:
    """Where ``data`` does not validate against the XML schema ``xsd`` (e.g. the one in tests/data)."""
    parser = _parser()
    schema = etree.XMLSchema(etree.fromstring(xsd, parser))  # no entities, no network: see _parser
    try:
        doc = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        return [f"Zeile {exc.lineno}: {exc.msg}"]
    if schema.validate(doc):
        return []
    return [f"Zeile {e.line}: {e.message}" for e in schema.error_log]
