"""FIDE Tournament Report Files (TRF16, TRF26, TRFx): reader and writer, pure Python (spec/formats.md §1–2).

The reader slices every record by column, never by whitespace. It accepts the deviations real pairing
programs write (formats.md §2.6): legacy one-letter titles, sex ``f``, dates in many forms, blank rounds,
byes without opponent, ``XX*`` lines, ``###`` comments, CR/LF/CRLF, UTF-8 with or without BOM and, failing
that, Windows-1252. Everything that cannot be read is a :class:`Problem` naming the line and the columns;
:func:`read_trf` collects all of them and raises :class:`TrfError` once, so an officer fixes a file in one go.

Messages are German (the source language) and marked with ``gettext_noop`` so the Django layer can show them
translated (``Problem.template`` and ``Problem.params``).
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation


def gettext_noop(message: str) -> str:
    """Marks a message for translation (picked up by ``makemessages``); translated by the caller."""
    return message


MAX_FILE_SIZE = 2 * 1024 * 1024  # bytes: the upload form and the reader's caller refuse larger files
MAX_ERRORS = 200  # a file of a foreign format would otherwise produce one message per line
MAX_ROUNDS = 99
MAX_START_RANK = 9999

# formats.md §1.5: result codes and what they are.
PLAYED_CODES = frozenset("1=0")
FORFEIT_CODES = frozenset("+-")
UNRATED_GAME_CODES = frozenset("WDL")  # "game lasted less than one move": points, never a rating
BYE_CODES = frozenset("HFUZ")
RESULT_CODES = PLAYED_CODES | FORFEIT_CODES | UNRATED_GAME_CODES | BYE_CODES
# The code the opponent must have written for each code (formats.md §1.5, symmetry).
COMPLEMENT: dict[str, frozenset[str]] = {
    "1": frozenset("0"),
    "0": frozenset("1"),
    "=": frozenset("="),
    "+": frozenset("-"),
    "-": frozenset("+-"),
    "W": frozenset("L"),
    "L": frozenset("W"),
    "D": frozenset("D"),
}
TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
_LEGACY_TITLES = {
    "G": "GM",
    "M": "IM",
    "F": "FM",
    "C": "CM",
    "WG": "WGM",
    "WM": "WIM",
    "WF": "WFM",
    "WC": "WCM",
}
# Names of the pseudo-player some programs add for the bye (formats.md §2.6).
PSEUDO_PLAYER_NAMES = frozenset({"spielfrei", "freilos", "bye", "free", "pause", "bye player"})

# formats.md §2.2 (162) and §2.5 (XXS): points per code. Defaults of the FIDE scoring system.
DEFAULT_SCORING: dict[str, Decimal] = {
    "W": Decimal(1),  # win over the board, forfeit win, full-point bye
    "D": Decimal("0.5"),  # draw, half-point bye
    "L": Decimal(0),
    "A": Decimal(0),  # zero-point bye, forfeit loss
    "P": Decimal(1),  # pairing-allocated bye
}

_HEAD_TAGS = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "042": "start",
    "052": "end",
    "062": "players",
    "072": "rated_players",
    "082": "teams",
    "092": "kind",
    "102": "chief_arbiter",
    "112": "deputy",
    "122": "time_control",
    "132": "round_dates",
    "142": "rounds",
    "152": "initial_colour",
    "162": "scoring",
    "172": "start_rank_method",
    "182": "pairing_controller",
    "192": "kind_code",
    "202": "tiebreaks",
    "212": "standings_tiebreaks",
    "222": "time_control_code",
    "352": "team_colours",
    "362": "team_points",
}
# TRF26 records dwzsite keeps verbatim (team records and pairing data, formats.md §2.3).
_KEPT_TAGS = frozenset({"013", "240", "250", "260", "299", "300", "310", "320", "330", "801", "802"})
# Columns of the 001 record that must be blank (formats.md §1.3); a letter there means shifted columns.
_SEPARATORS = (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91)


# --- problems ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """An error or warning: where (line, first and last column, 1-based) and what."""

    line: int | None
    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    first: int | None = None
    last: int | None = None

    @property
    def message(self) -> str:
        return self.template % self.params if self.params else self.template

    @property
    def where_template(self) -> str:
        if self.line is None:
            return ""
        if self.first is None:
            return gettext_noop("Zeile %(line)s")
        if self.last is None or self.last == self.first:
            return gettext_noop("Zeile %(line)s, Spalte %(first)s")
        return gettext_noop("Zeile %(line)s, Spalten %(first)s–%(last)s")

    @property
    def where(self) -> str:
        return self.where_template % {"line": self.line, "first": self.first, "last": self.last}

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.line is not None else self.message


class TrfError(ValueError):
    """The file cannot be read; ``problems`` holds every error (each naming its line where there is one)."""

    def __init__(self, problems: Sequence[Problem], warnings: Sequence[Problem] = ()) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = list(problems)
        self.warnings = list(warnings)


class AmbiguousDateError(TrfError):
    """A date like 08/04/2018 that the file does not resolve: the caller must say DD/MM or MM/DD."""


# --- the model -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NationalRating:
    """A TRF26 National Rating Support record (formats.md §2.4); for ``GER`` the DWZ and the DSB id."""

    federation: str
    rating: int | None = None
    index: int | None = None  # dwzsite writes the DWZ index into the unused classification field 11–13
    number: str = ""  # the national id as written: nu id, ZPS-Mitgliedsnummer or DeWIS PKZ
    name: str = ""
    line: int | None = None


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round block of a player line as written (formats.md §1.4)."""

    round: int
    opponent: int | None  # start rank, None for 0000/blank
    colour: str  # "w", "b" or "" (unknown / not paired)
    code: str  # an upper-case code of RESULT_CODES, or "" (blank)


@dataclass(slots=True)
class TrfPlayer:
    start_rank: int
    name: str
    surname: str
    first_name: str = ""
    name_suffix: str = ""  # a third comma part, e.g. "Dr."
    sex: str = ""  # "m", "w" or ""
    title: str = ""  # one of TITLES or ""
    fide_rating: int | None = None
    federation: str = ""
    fide_id: int | None = None
    birth_date: datetime.date | None = None
    birth_year: int | None = None
    points: Decimal | None = None  # as written in cols 81–84
    rank: int | None = None  # as written in cols 86–89 (0 = withdrawn in some programs)
    national: dict[str, NationalRating] = field(default_factory=dict)
    rounds: tuple[RoundEntry, ...] = ()
    line: int | None = None
    computed_points: Decimal = Decimal(0)  # from the result codes and the scoring system

    @property
    def ger(self) -> NationalRating | None:
        return self.national.get("GER")

    @property
    def dwz(self) -> int | None:
        return self.ger.rating if self.ger else None

    @property
    def dwz_index(self) -> int | None:
        return self.ger.index if self.ger else None

    @property
    def person_id(self) -> str:
        return self.ger.number if self.ger else ""


@dataclass(frozen=True, slots=True)
class TrfGame:
    """One pairing of two players, derived once from both players' round entries."""

    round: int
    white: int  # start ranks
    black: int
    white_code: str  # one of 1 = 0 + - W D L
    black_code: str
    colour_known: bool = True  # False: the file wrote "-" for both colours (white is the lower start rank)

    @property
    def rated_result(self) -> bool:
        return self.white_code in PLAYED_CODES


@dataclass(frozen=True, slots=True)
class TrfBye:
    round: int
    player: int
    code: str  # H, F, U or Z


@dataclass(slots=True)
class TrfHead:
    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: datetime.date | None = None
    end_date: datetime.date | None = None
    players: int | None = None
    rated_players: int | None = None
    kind: str = ""
    chief_arbiter: str = ""
    deputies: list[str] = field(default_factory=list)
    time_control: str = ""
    round_dates: list[datetime.date | None] = field(default_factory=list)
    rounds: int | None = None  # 142, else XXR
    initial_colour: str = ""  # "w"/"b" from 152 or XXC
    scoring: dict[str, Decimal] = field(default_factory=dict)  # codes of 162 / XXS as given
    start_rank_method: str = ""  # 172, e.g. "GER NIDOF"
    tiebreaks: list[str] = field(default_factory=list)  # 202
    standings_tiebreaks: list[str] = field(default_factory=list)  # 212
    time_control_code: str = ""
    date_order: str = ""  # "dmy"/"mdy" when NN/NN/YYYY dates were read
    other: dict[str, str] = field(default_factory=dict)  # further head records, verbatim


@dataclass(slots=True)
class TrfTournament:
    head: TrfHead
    players: list[TrfPlayer]
    games: list[TrfGame] = field(default_factory=list)
    byes: list[TrfBye] = field(default_factory=list)
    rounds: int = 0
    warnings: list[Problem] = field(default_factory=list)
    kept_lines: list[str] = field(default_factory=list)  # XX*, DAT, team and unknown records, in order
    encoding: str = "UTF-8"
    dropped: list[TrfPlayer] = field(default_factory=list)  # pseudo-players ("spielfrei")

    def player(self, start_rank: int) -> TrfPlayer:
        return self._by_rank()[start_rank]

    def _by_rank(self) -> dict[int, TrfPlayer]:
        return {p.start_rank: p for p in self.players}

    @property
    def forfeits(self) -> list[TrfGame]:
        return [g for g in self.games if g.white_code in FORFEIT_CODES]

    @property
    def rated_games(self) -> list[TrfGame]:
        return [g for g in self.games if g.rated_result]


# --- reading: bytes to lines ---------------------------------------------------------------------------

_BOM = b"\xef\xbb\xbf"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def decode(data: bytes) -> tuple[str, str, list[Problem]]:
    """UTF-8 with or without BOM, else Windows-1252 with a warning (formats.md §1.1)."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8"), "UTF-8", []
    except UnicodeDecodeError as exc:
        utf8_line = data[: exc.start].count(b"\n") + 1
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TrfError(
            [
                Problem(
                    line,
                    gettext_noop("Byte 0x%(byte)02X ist weder UTF-8 noch Windows-1252."),
                    {"byte": data[exc.start]},
                )
            ]
        ) from None
    warning = Problem(
        utf8_line,
        gettext_noop("Die Datei ist nicht UTF-8; sie wurde als Windows-1252 gelesen. Bitte Umlaute prüfen."),
    )
    return text, "Windows-1252", [warning]


# --- reading: dates ------------------------------------------------------------------------------------

_MONTHS = {
    name: i
    for i, names in enumerate(
        (
            ("jan", "january", "januar", "jän"),
            ("feb", "february", "februar"),
            ("mar", "march", "mär", "mrz", "märz"),
            ("apr", "april"),
            ("may", "mai"),
            ("jun", "june", "juni"),
            ("jul", "july", "juli"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october", "okt", "oktober"),
            ("nov", "november"),
            ("dec", "december", "dez", "dezember"),
        ),
        start=1,
    )
    for name in names
}
_YMD = re.compile(r"(\d{4})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})")
_DMY_DOTS = re.compile(r"(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})")
_NN_NN_YYYY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_MON_DD_YYYY = re.compile(r"([^\W\d_]+)\.?\s+(\d{1,2}),?\s+(\d{4})")
_DD_MON_YYYY = re.compile(r"(\d{1,2})\.?\s+([^\W\d_]+)\.?\s+(\d{4})")
_YY_MM_DD = re.compile(r"(\d{2})/(\d{2})/(\d{2})")
_YEAR = re.compile(r"(\d{4})")


@dataclass(frozen=True, slots=True)
class _Date:
    value: datetime.date | None
    year: int | None
    ambiguous: tuple[int, int, int] | None = None  # (a, b, year) of NN/NN/YYYY, both readings possible


def _make_date(year: int, month: int, day: int) -> datetime.date | None:
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def _parse_date(text: str, *, birth: bool = False, order: str = "") -> _Date | None:
    """One date in any form formats.md §2.6 lists; None if it is none of them (or not a real day)."""
    text = text.strip()
    if m := _YMD.fullmatch(text):
        y, mo, d = (int(g) for g in m.groups())
        if birth and mo == 0 and d == 0:
            return _Date(None, y if y else None)
        value = _make_date(y, mo, d)
        return _Date(value, y) if value else None
    if m := _DMY_DOTS.fullmatch(text):
        d, mo, y = (int(g) for g in m.groups())
        value = _make_date(y, mo, d)
        return _Date(value, y) if value else None
    if m := _NN_NN_YYYY.fullmatch(text):
        a, b, y = (int(g) for g in m.groups())
        dmy, mdy = _make_date(y, b, a), _make_date(y, a, b)
        if order == "dmy" or (dmy and not mdy):
            return _Date(dmy, y) if dmy else None
        if order == "mdy" or (mdy and not dmy):
            return _Date(mdy, y) if mdy else None
        if dmy == mdy:
            return _Date(dmy, y)
        return _Date(None, y, (a, b, y)) if dmy and mdy else None
    for pattern, month_group, day_group in ((_MON_DD_YYYY, 1, 2), (_DD_MON_YYYY, 2, 1)):
        if m := pattern.fullmatch(text):
            month = _MONTHS.get(m.group(month_group).lower())
            if month is None:
                return None
            value = _make_date(int(m.group(3)), month, int(m.group(day_group)))
            return _Date(value, int(m.group(3))) if value else None
    if birth and (m := _YEAR.fullmatch(text)):
        year = int(m.group(1))
        return _Date(None, year if year else None)
    return None


def _round_date(text: str) -> datetime.date | None:
    """A 132 date: YY/MM/DD (TRF16/26) or any full form."""
    text = text.strip()
    if m := _YY_MM_DD.fullmatch(text):
        yy, mo, d = (int(g) for g in m.groups())
        return _make_date(2000 + yy if yy < 70 else 1900 + yy, mo, d)
    parsed = _parse_date(text)
    return parsed.value if parsed else None


# --- reading: records ----------------------------------------------------------------------------------


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first``–``last`` (1-based, inclusive), blanks where the line is shorter."""
    return line[first - 1 : last]


class _Reader:
    def __init__(self, text: str, *, date_order: str = "") -> None:
        self.lines = _LINE_BREAK.split(text)
        self.date_order = date_order
        self.errors: list[Problem] = []
        self.warnings: list[Problem] = []
        self.head = TrfHead()
        self.players: list[TrfPlayer] = []
        self.national: list[tuple[int, str, NationalRating, int]] = []  # line, fed, record, start rank
        self.kept: list[str] = []
        self.head_dates: dict[str, tuple[int, str]] = {}  # 042/052 -> (line, raw)
        self.birth_raw: dict[int, tuple[int, str]] = {}  # start rank -> (line, raw) for NN/NN/YYYY
        self.nn_dates: list[tuple[int, ...]] = []  # every NN/NN/YYYY birth date, to find the file's order
        self.ambiguous = False
        self.blocks = 0
        self.xxs: dict[str, Decimal] = {}
        self.scoring_162: dict[str, Decimal] = {}

    # -- helpers

    def error(
        self,
        line: int | None,
        template: str,
        params: Mapping[str, object] | None = None,
        first: int | None = None,
        last: int | None = None,
    ) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(Problem(line, template, params or {}, first, last))

    def warn(
        self,
        line: int | None,
        template: str,
        params: Mapping[str, object] | None = None,
        first: int | None = None,
        last: int | None = None,
    ) -> None:
        self.warnings.append(Problem(line, template, params or {}, first, last))

    def int_field(self, n: int, line: str, first: int, last: int, label: str) -> int | None:
        raw = _field(line, first, last).strip()
        if not raw:
            return None
        if not (raw.isascii() and raw.isdigit()):
            self.error(
                n,
                gettext_noop("%(field)s „%(value)s“ ist keine Zahl."),
                {"field": label, "value": raw},
                first,
                last,
            )
            return None
        return int(raw)

    # -- the whole file

    def read(self) -> None:  # noqa: C901, PLR0912 -- existing; issue 27
        for n, raw_line in enumerate(self.lines, start=1):
            line = raw_line.rstrip()
            if not line.strip():
                continue
            bad = next(
                (i for i, ch in enumerate(line) if (ord(ch) < 32 and ch != "\t") or ord(ch) == 127), None
            )
            if bad is not None:
                self.error(
                    n,
                    gettext_noop("Steuerzeichen U+%(code)04X im Text."),
                    {"code": ord(line[bad])},
                    bad + 1,
                )
                continue
            tag = line[:3]
            if tag == "###":
                continue
            if tag == "001" or (
                len(tag) == 3
                and tag.isascii()
                and tag.isalpha()
                and tag.isupper()
                and not tag.startswith("XX")
                and tag != "DAT"
            ):
                if "\t" in line:
                    self.error(
                        n,
                        gettext_noop("Tabulatorzeichen: TRF-Sätze sind nach Spalten aufgebaut."),
                        {},
                        line.index("\t") + 1,
                    )
                    continue
                if tag == "001":
                    self.player(n, line)
                else:
                    self.national_record(n, tag, line)
                continue
            line = line.replace("\t", " ")
            if tag in _HEAD_TAGS:
                self.head_record(n, tag, line)
            elif tag.startswith("XX") or tag == "DAT" or tag in _KEPT_TAGS:
                self.kept.append(line)
                if tag == "XXR":
                    self.xxr(n, line)
                elif tag == "XXS":
                    self.xxs_record(n, line)
                elif tag == "XXC":
                    words = line[4:].lower().split()
                    if "white1" in words:
                        self.head.initial_colour = self.head.initial_colour or "w"
                    elif "black1" in words:
                        self.head.initial_colour = self.head.initial_colour or "b"
            else:
                self.kept.append(line)
                self.warn(
                    n,
                    gettext_noop("Unbekannter Satz „%(tag)s“ – nicht ausgewertet."),
                    {"tag": tag.strip() or line[:10]},
                    1,
                    3,
                )

    # -- head

    def head_record(self, n: int, tag: str, line: str) -> None:  # noqa: C901, PLR0912 -- existing; issue 27
        value = line[4:].strip() if tag != "132" else ""
        key = _HEAD_TAGS[tag]
        h = self.head
        if tag in ("012", "022", "032", "092", "102", "122", "182", "192", "222", "352", "362"):
            attr = {
                "012": "name",
                "022": "city",
                "032": "federation",
                "092": "kind",
                "102": "chief_arbiter",
                "122": "time_control",
                "222": "time_control_code",
            }.get(tag)
            if attr:
                if getattr(h, attr):
                    self.warn(n, gettext_noop("Satz %(tag)s doppelt – der erste gilt."), {"tag": tag}, 1, 3)
                else:
                    setattr(h, attr, value)
            elif value:
                h.other[tag] = value
        elif tag == "112":
            if value:
                h.deputies.append(value)
        elif tag in ("042", "052"):
            if value:
                if tag in self.head_dates:
                    self.warn(n, gettext_noop("Satz %(tag)s doppelt – der erste gilt."), {"tag": tag}, 1, 3)
                else:
                    self.head_dates[tag] = (n, value)
        elif tag in ("062", "072", "082", "142"):
            number = None
            if value and tag != "142" and not (value.isascii() and value.isdigit()):
                self.warn(
                    n,
                    gettext_noop("%(field)s „%(value)s“ ist keine Zahl – ignoriert."),
                    {"field": _LABELS[tag], "value": value},
                    5,
                    4 + len(value),
                )
            elif value:
                number = self.int_field(n, line, 5, max(len(line), 5), _LABELS[tag])
            if tag == "062":
                h.players = number
            elif tag == "072":
                h.rated_players = number
            elif tag == "142" and number is not None:
                if not 1 <= number <= MAX_ROUNDS:
                    self.error(n, gettext_noop("Rundenzahl %(value)s ist unmöglich."), {"value": number}, 5)
                else:
                    h.rounds = number
        elif tag == "132":
            self.round_dates(n, line)
        elif tag == "152":
            colour = value[:1].lower()
            if colour in ("w", "b"):
                h.initial_colour = colour
        elif tag == "162":
            self.scoring_162 = self.scoring(n, line)
        elif tag == "172":
            h.start_rank_method = " ".join(value.split())
        elif tag in ("202", "212"):
            codes = [c.strip() for c in value.split(",") if c.strip()]
            if tag == "202":
                h.tiebreaks = codes
            else:
                h.standings_tiebreaks = codes
        else:  # pragma: no cover - every tag of _HEAD_TAGS is handled above
            h.other[key] = value

    def round_dates(self, n: int, line: str) -> None:
        dates: list[datetime.date | None] = []
        r = 0
        while 92 + 10 * r <= len(line):
            first = 92 + 10 * r
            raw = _field(line, first, first + 9).strip()
            if raw:
                value = _round_date(raw)
                if value is None:
                    self.error(
                        n,
                        gettext_noop("Rundendatum „%(value)s“ nicht lesbar."),
                        {"value": raw},
                        first,
                        first + 7,
                    )
                dates.append(value)
            else:
                dates.append(None)
            r += 1
        while dates and dates[-1] is None:
            dates.pop()
        if len(dates) > MAX_ROUNDS:
            self.error(n, gettext_noop("Mehr als %(max)s Rundendaten."), {"max": MAX_ROUNDS})
            return
        self.head.round_dates = dates
        if _field(line, 5, 91).strip():
            self.warn(n, gettext_noop("Text vor Spalte 92 im Satz 132 wird ignoriert."), {}, 5, 91)

    def scoring(self, n: int, line: str) -> dict[str, Decimal]:
        """162: code at col 6, points at 7–10, then every 9 columns (formats.md §2.2)."""
        out: dict[str, Decimal] = {}
        col = 6
        while col <= len(line):
            code = _field(line, col, col).strip().upper()
            raw = _field(line, col + 1, col + 4).strip()
            if code:
                value = _decimal(raw)
                if code not in "WDLAPX" or value is None:
                    self.warn(
                        n,
                        gettext_noop("Punktwertung „%(code)s %(value)s“ nicht lesbar – ignoriert."),
                        {"code": code, "value": raw},
                        col,
                        col + 4,
                    )
                else:
                    out[code] = value
            col += 9
        return out

    def xxr(self, n: int, line: str) -> None:
        raw = line[4:].split()[:1]
        if raw and raw[0].isascii() and raw[0].isdigit() and 1 <= int(raw[0]) <= MAX_ROUNDS:
            if self.head.rounds is None:
                self.head.rounds = int(raw[0])
        else:
            self.warn(n, gettext_noop("XXR ohne gültige Rundenzahl – ignoriert."))

    def xxs_record(self, n: int, line: str) -> None:
        for item in line[4:].split():
            code, _sep, raw = item.partition("=")
            value = _decimal(raw)
            if value is None:
                self.warn(n, gettext_noop("XXS-Angabe „%(item)s“ nicht lesbar – ignoriert."), {"item": item})
                continue
            code = code.upper()
            for c in {"W": ("WW", "BW", "FW", "FPB"), "D": ("WD", "BD", "HPB")}.get(code, (code,)):
                self.xxs[c] = value

    # -- players

    def player(self, n: int, line: str) -> None:  # noqa: C901, PLR0912 -- existing; issue 27
        before = len(self.errors)
        for col in _SEPARATORS:
            ch = _field(line, col, col)
            if ch and ch != " ":
                self.error(
                    n,
                    gettext_noop("Hier muss ein Leerzeichen stehen, nicht „%(char)s“ (Spalten verschoben?)."),
                    {"char": ch},
                    col,
                )
        rank = self.int_field(n, line, 5, 8, gettext_noop("Startnummer"))
        if len(self.errors) > before:
            return
        if rank is None or not 1 <= rank <= MAX_START_RANK:
            self.error(n, gettext_noop("Startnummer fehlt oder ist 0."), {}, 5, 8)
            return
        sex_raw = _field(line, 10, 10).strip().lower()
        sex = {"m": "m", "w": "w", "f": "w"}.get(sex_raw, "")
        if sex_raw and not sex:
            self.warn(
                n, gettext_noop("Geschlecht „%(value)s“ unbekannt – leer gelassen."), {"value": sex_raw}, 10
            )
        title_raw = _field(line, 11, 13).strip().upper()
        title = title_raw if title_raw in TITLES else _LEGACY_TITLES.get(title_raw, "")
        if title_raw and not title:
            self.warn(
                n, gettext_noop("Titel „%(value)s“ unbekannt – leer gelassen."), {"value": title_raw}, 11, 13
            )
        name = " ".join(_field(line, 15, 47).split())
        if not name:
            self.error(n, gettext_noop("Der Name fehlt."), {}, 15, 47)
        surname, _comma, rest = name.partition(",")
        first_name, _comma, suffix = rest.partition(",")
        rating = self.int_field(n, line, 49, 52, gettext_noop("Elo"))
        fide_id = self.int_field(n, line, 58, 68, gettext_noop("FIDE-ID"))
        birth_raw = _field(line, 70, 79).strip()
        birth_date = birth_year = None
        if birth_raw:
            parsed = _parse_date(birth_raw, birth=True, order=self.date_order)
            if parsed is None:
                self.error(
                    n, gettext_noop("Geburtsdatum „%(value)s“ nicht lesbar."), {"value": birth_raw}, 70, 79
                )
            else:
                birth_date, birth_year = parsed.value, parsed.year
                if m := _NN_NN_YYYY.fullmatch(birth_raw):
                    self.nn_dates.append(tuple(int(g) for g in m.groups()))
                    self.birth_raw[rank] = (n, birth_raw)
        points_raw = _field(line, 81, 84).strip()
        points = _decimal(points_raw) if points_raw else None
        if points_raw and (points is None or points < 0):
            self.error(n, gettext_noop("Punkte „%(value)s“ sind keine Zahl."), {"value": points_raw}, 81, 84)
        file_rank = self.int_field(n, line, 86, 89, gettext_noop("Rang"))
        rounds = []
        blocks = max(0, (len(line) - 91 + 9) // 10)
        if blocks > MAX_ROUNDS:
            self.error(n, gettext_noop("Mehr als %(max)s Runden."), {"max": MAX_ROUNDS}, 92)
            return
        self.blocks = max(self.blocks, blocks)
        for r in range(1, blocks + 1):
            entry = self.round_entry(n, line, r)
            if entry is not None:
                rounds.append(entry)
        if len(self.errors) > before:
            return
        self.players.append(
            TrfPlayer(
                start_rank=rank,
                name=name,
                surname=surname.strip(),
                first_name=first_name.strip(),
                name_suffix=suffix.strip(),
                sex=sex,
                title=title,
                fide_rating=rating or None,
                federation=_field(line, 54, 56).strip().upper(),
                fide_id=fide_id or None,
                birth_date=birth_date,
                birth_year=birth_year,
                points=points,
                rank=file_rank,
                rounds=tuple(rounds),
                line=n,
            )
        )

    def round_entry(self, n: int, line: str, r: int) -> RoundEntry | None:
        s = 92 + 10 * (r - 1)
        block = _field(line, s, s + 9).ljust(10)
        ok = True
        for offset in (4, 6, 8, 9):
            if block[offset] != " ":
                self.error(
                    n,
                    gettext_noop(
                        "Runde %(round)s: hier muss ein Leerzeichen stehen, nicht „%(char)s“ "
                        "(Spalten verschoben?)."
                    ),
                    {"round": r, "char": block[offset]},
                    s + offset,
                )
                ok = False
        opp_raw = block[:4].strip()
        opponent = None
        if opp_raw:
            if not (opp_raw.isascii() and opp_raw.isdigit()):
                self.error(
                    n,
                    gettext_noop("Runde %(round)s: Gegner „%(value)s“ ist keine Startnummer."),
                    {"round": r, "value": opp_raw},
                    s,
                    s + 3,
                )
                ok = False
            elif int(opp_raw):
                opponent = int(opp_raw)
        colour_raw = block[5].lower()
        if colour_raw not in "wb- ":
            self.error(
                n,
                gettext_noop("Runde %(round)s: Farbe „%(value)s“ – erlaubt sind w, b und -."),
                {"round": r, "value": block[5]},
                s + 5,
            )
            ok = False
        code = block[7].upper()
        if code != " " and code not in RESULT_CODES:
            self.error(
                n,
                gettext_noop("Runde %(round)s: unbekanntes Ergebnis „%(value)s“."),
                {"round": r, "value": block[7]},
                s + 7,
            )
            ok = False
        if not ok:
            return None
        colour = colour_raw if colour_raw in "wb" else ""
        return RoundEntry(r, opponent, colour, code.strip())

    def national_record(self, n: int, tag: str, line: str) -> None:
        rank = self.int_field(n, line, 5, 8, gettext_noop("Startnummer"))
        rating = self.int_field(n, line, 49, 52, gettext_noop("Nationale Wertung"))
        index_raw = _field(line, 11, 13).strip()
        index = int(index_raw) if index_raw.isascii() and index_raw.isdigit() else None
        if rank is None:
            self.error(n, gettext_noop("Startnummer fehlt."), {}, 5, 8)
            return
        record = NationalRating(
            federation=tag,
            rating=rating or None,
            index=index if rating else None,
            number=_field(line, 58, 68).strip(),
            name=" ".join(_field(line, 15, 47).split()),
            line=n,
        )
        self.national.append((n, tag, record, rank))


_LABELS = {
    "062": gettext_noop("Spielerzahl"),
    "072": gettext_noop("Zahl der gewerteten Spieler"),
    "082": gettext_noop("Mannschaftszahl"),
    "142": gettext_noop("Rundenzahl"),
}


def _decimal(raw: str) -> Decimal | None:
    raw = raw.strip().replace(",", ".")
    if not raw or not re.fullmatch(r"\d{1,4}(?:\.\d{1,2})?|\.\d{1,2}", raw):
        return None
    try:
        return Decimal(raw)
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid numbers
        return None


# --- reading: dates in context -------------------------------------------------------------------------


def _resolve_head_dates(rd: _Reader) -> None:  # noqa: C901 -- existing; issue 27
    """042/052: NN/NN/YYYY is read in the file's order: the one its other dates (birth dates included) allow,
    else the one closest to the round dates (132), else the caller's ``date_order``, else an error."""
    h = rd.head
    rounds = [d for d in h.round_dates if d]
    head_nn = []
    for _tag, (_n, raw) in sorted(rd.head_dates.items()):
        if m := _NN_NN_YYYY.fullmatch(raw.strip()):
            head_nn.append(tuple(int(g) for g in m.groups()))
    order = rd.date_order or _file_order([*head_nn, *rd.nn_dates], head_nn, rounds)
    if head_nn or rd.nn_dates:
        h.date_order = order
    parsed: dict[str, datetime.date | None] = {}
    for tag, (n, raw) in sorted(rd.head_dates.items()):
        value = _parse_date(raw, order=order)
        if value is None:
            rd.error(n, gettext_noop("Datum „%(value)s“ nicht lesbar."), {"value": raw}, 5, 4 + len(raw))
        elif value.ambiguous:
            a, b, y = value.ambiguous
            rd.ambiguous = True
            rd.error(
                n,
                AMBIGUOUS_DATE,
                {"value": raw, "dmy": f"{a:02d}.{b:02d}.{y}", "mdy": f"{b:02d}.{a:02d}.{y}"},
                5,
                4 + len(raw),
            )
        else:
            parsed[tag] = value.value
    h.start_date, h.end_date = parsed.get("042"), parsed.get("052")
    if h.end_date is None and rounds and "052" not in rd.head_dates:
        h.end_date = max(rounds)
        rd.warn(None, gettext_noop("Kein Enddatum (052): das Datum der letzten Runde gilt."))
    if h.start_date is None and "042" not in rd.head_dates and (rounds or h.end_date):
        h.start_date = min(rounds) if rounds else h.end_date
    if order:
        for p in rd.players:
            if p.start_rank in rd.birth_raw:
                parsed_birth = _parse_date(rd.birth_raw[p.start_rank][1], birth=True, order=order)
                if parsed_birth:
                    p.birth_date = parsed_birth.value


AMBIGUOUS_DATE = gettext_noop(
    "Datum „%(value)s“ ist mehrdeutig (%(dmy)s oder %(mdy)s); bitte angeben, ob die Datei TT/MM/JJJJ oder "
    "MM/TT/JJJJ schreibt."
)


def _file_order(
    every: list[tuple[int, ...]], head: list[tuple[int, ...]], rounds: list[datetime.date]
) -> str:
    """ "dmy" or "mdy" if the file's NN/NN/YYYY dates or its round dates decide it, else ""."""
    dmy_only = any(a > 12 >= b for a, b, _y in every)
    mdy_only = any(b > 12 >= a for a, b, _y in every)
    if dmy_only != mdy_only:
        return "dmy" if dmy_only else "mdy"
    if dmy_only or not rounds or not head:
        return ""
    first, last = min(rounds), max(rounds)

    def distance(order: str) -> int | None:
        total = 0
        for a, b, y in head:
            d = _make_date(y, b, a) if order == "dmy" else _make_date(y, a, b)
            if d is None:
                return None
            total += min(abs((d - first).days), abs((d - last).days))
        return total

    dmy, mdy = distance("dmy"), distance("mdy")
    if dmy is None or mdy is None:
        return "" if dmy is None and mdy is None else ("mdy" if dmy is None else "dmy")
    if dmy == mdy:
        return ""
    return "dmy" if dmy < mdy else "mdy"


# --- reading: pairings ---------------------------------------------------------------------------------


def _attach_national(rd: _Reader, by_rank: dict[int, TrfPlayer]) -> None:
    for n, tag, record, rank in rd.national:
        player = by_rank.get(rank)
        if player is None:
            rd.error(
                n,
                gettext_noop("Startnummer %(rank)04d steht nicht in der Teilnehmerliste."),
                {"rank": rank},
                5,
                8,
            )
        elif tag in player.national:
            rd.error(
                n,
                gettext_noop("Zweiter %(fed)s-Satz für Startnummer %(rank)04d (erster in Zeile %(other)s)."),
                {"fed": tag, "rank": rank, "other": player.national[tag].line},
                1,
                8,
            )
        else:
            player.national[tag] = record


def _is_pseudo(player: TrfPlayer) -> bool:
    folded = unicodedata.normalize("NFKD", player.name).encode("ascii", "ignore").decode().lower().strip()
    return folded in PSEUDO_PLAYER_NAMES and player.fide_id is None and not player.national


def _pairings(rd: _Reader, rounds: int) -> tuple[list[TrfGame], list[TrfBye], list[TrfPlayer]]:  # noqa: C901, PLR0912 -- existing; issue 27
    by_rank = {p.start_rank: p for p in rd.players}
    pseudo = {p.start_rank for p in rd.players if _is_pseudo(p)}
    games: list[TrfGame] = []
    byes: list[TrfBye] = []
    entries: dict[int, dict[int, RoundEntry]] = {
        p.start_rank: {e.round: e for e in p.rounds} for p in rd.players
    }
    done: set[tuple[int, int, int]] = set()
    for p in rd.players:
        if p.start_rank in pseudo:
            continue
        n = p.line
        for r in range(1, rounds + 1):
            e = entries[p.start_rank].get(r) or RoundEntry(r, None, "", "")
            s = 92 + 10 * (r - 1)
            if e.opponent is None:
                code = e.code
                if code in ("1", "=", "0", "W", "D", "L"):
                    rd.error(
                        n,
                        gettext_noop("Runde %(round)s: Ergebnis „%(code)s“ ohne Gegner."),
                        {"round": r, "code": code},
                        s,
                        s + 7,
                    )
                    continue
                if code == "+":
                    rd.warn(
                        n,
                        gettext_noop("Runde %(round)s: „+“ ohne Gegner als Vollpunkt-Freilos (F) gelesen."),
                        {"round": r},
                        s,
                        s + 7,
                    )
                    code = "F"
                elif code in ("-", ""):
                    code = "Z"
                byes.append(TrfBye(r, p.start_rank, code))
                continue
            opp = e.opponent
            if opp == p.start_rank:
                rd.error(
                    n,
                    gettext_noop("Runde %(round)s: Spieler %(rank)04d spielt gegen sich selbst."),
                    {"round": r, "rank": opp},
                    s,
                    s + 3,
                )
                continue
            if opp not in by_rank:
                rd.error(
                    n,
                    gettext_noop("Gegner %(rank)04d steht nicht in der Teilnehmerliste."),
                    {"rank": opp},
                    s,
                    s + 3,
                )
                continue
            if e.code in BYE_CODES or not e.code:
                rd.error(
                    n,
                    gettext_noop("Runde %(round)s: Freilos „%(code)s“ mit Gegner %(rank)04d.")
                    if e.code
                    else gettext_noop("Runde %(round)s: Ergebnis gegen %(rank)04d fehlt."),
                    {"round": r, "code": e.code, "rank": opp},
                    s,
                    s + 7,
                )
                continue
            if opp in pseudo:
                code = {"1": "U", "+": "U", "W": "U", "=": "H", "D": "H"}.get(e.code, "Z")
                rd.warn(
                    n,
                    gettext_noop("Runde %(round)s: Partie gegen „%(name)s“ als Freilos (%(code)s) gelesen."),
                    {"round": r, "name": by_rank[opp].name, "code": code},
                    s,
                    s + 7,
                )
                byes.append(TrfBye(r, p.start_rank, code))
                continue
            key = (r, min(p.start_rank, opp), max(p.start_rank, opp))
            if key in done:
                continue
            done.add(key)
            other = entries[opp].get(r) or RoundEntry(r, None, "", "")
            o = by_rank[opp]
            where = {"round": r, "rank": p.start_rank, "opp": opp, "other": o.line}
            if other.opponent != p.start_rank:
                rd.error(
                    n,
                    gettext_noop(
                        "Runde %(round)s: Gegner %(opp)04d nennt in dieser Runde nicht "
                        "%(rank)04d (Zeile %(other)s)."
                    ),
                    where,
                    s,
                    s + 3,
                )
                continue
            if (e.colour, other.colour) not in (("w", "b"), ("b", "w"), ("", "")):
                rd.error(
                    n,
                    gettext_noop(
                        "Runde %(round)s: Farben passen nicht zu Gegner %(opp)04d (Zeile %(other)s)."
                    ),
                    where,
                    s + 5,
                )
                continue
            if other.code not in COMPLEMENT.get(e.code, frozenset()):
                rd.error(
                    n,
                    gettext_noop(
                        "Runde %(round)s: Ergebnis „%(code)s“ passt nicht zu „%(other_code)s“ von Gegner "
                        "%(opp)04d (Zeile %(other)s)."
                    ),
                    {**where, "code": e.code, "other_code": other.code},
                    s + 7,
                )
                continue
            if e.colour == "b":
                games.append(TrfGame(r, opp, p.start_rank, other.code, e.code))
            else:
                games.append(TrfGame(r, p.start_rank, opp, e.code, other.code, colour_known=e.colour == "w"))
    dropped = [by_rank[rank] for rank in sorted(pseudo)]
    for p in dropped:
        rd.warn(
            p.line,
            gettext_noop("„%(name)s“ ist kein Spieler (Freilos-Platzhalter) – nicht übernommen."),
            {"name": p.name},
            15,
            47,
        )
    return games, byes, dropped


def round_points(
    code: str, colour: str, scoring: Mapping[str, Decimal], xxs: Mapping[str, Decimal]
) -> Decimal:
    """Points of one round entry under 162 (else XXS, else the defaults), formats.md §1.5 and §2.2."""
    side = "W" if colour != "b" else "B"
    s = {**DEFAULT_SCORING, **scoring}
    if "P" not in scoring:
        s["P"] = s["W"]
    table = {
        "1": xxs.get(side + "W", s["W"]),
        "=": xxs.get(side + "D", s["D"]),
        "0": xxs.get(side + "L", s["L"]),
        "W": xxs.get(side + "W", s["W"]),
        "D": xxs.get(side + "D", s["D"]),
        "L": xxs.get(side + "L", s["L"]),
        "+": xxs.get("FW", s["W"]),
        "-": xxs.get("FL", s["A"]),
        "F": xxs.get("FPB", s["W"]),
        "H": xxs.get("HPB", s["D"]),
        "U": xxs.get("PAB", s["P"]),
        "Z": xxs.get("ZPB", s["A"]),
    }
    return table.get(code, Decimal(0))


# --- reading: a file of another format ------------------------------------------------------------------

_NOT_TRF = gettext_noop(
    "Keine TRF-Datei: keine Zeile beginnt mit einer TRF-Satzkennung wie 001 (Spieler) oder 012 (Turniername)."
)
# What a foreign file looks like, by its first bytes (checked before decoding) or its first lines.
_NOT_TRF_KINDS = {
    "zip": gettext_noop(
        "Keine TRF-Datei: die Datei ist ein ZIP-Archiv (etwa eine Excel- oder OpenDocument-Tabelle). "
        "Bitte die TRF-Datei des Paarungsprogramms hochladen."
    ),
    "pdf": gettext_noop(
        "Keine TRF-Datei: die Datei ist ein PDF-Dokument. "
        "Bitte die TRF-Datei des Paarungsprogramms hochladen."
    ),
    "xls": gettext_noop(
        "Keine TRF-Datei: die Datei ist eine Excel-Tabelle (XLS). "
        "Bitte die TRF-Datei des Paarungsprogramms hochladen."
    ),
    "markup": gettext_noop(
        "Keine TRF-Datei: die Datei sieht aus wie XML oder HTML (erste Zeile „%(first)s“). "
        "TRF-Sätze beginnen mit einer Satzkennung wie 001 (Spieler) oder 012 (Turniername)."
    ),
    "csv": gettext_noop(
        "Keine TRF-Datei: die Datei sieht aus wie eine CSV-Tabelle (Spalten getrennt durch „%(sep)s“, "
        "erste Zeile „%(first)s“). TRF-Sätze beginnen mit einer Satzkennung wie 001 (Spieler) "
        "oder 012 (Turniername)."
    ),
}
_SIGNATURES = ((b"PK\x03\x04", "zip"), (b"%PDF", "pdf"), (b"\xd0\xcf\x11\xe0", "xls"))
_RECORD_TAGS = frozenset(_HEAD_TAGS) | {"001"}


def _is_record(line: str) -> bool:
    """A line that starts with a TRF record code of the head or the players and a blank after it."""
    return line[:3] in _RECORD_TAGS and line[3:4] in ("", " ", "\t")


def _shown(line: str) -> str:
    return line if len(line) <= 60 else line[:59] + "…"


def _foreign_kind(text: str) -> Problem:
    """The file-level problem of a text without any TRF record: what it looks like, where that is clear."""
    lines = [line.strip() for line in text.splitlines() if line.strip()][:5]
    if not lines:
        return Problem(None, _NOT_TRF)
    first = lines[0]
    if first.startswith("<"):
        return Problem(None, _NOT_TRF_KINDS["markup"], {"first": _shown(first)})
    for sep in (";", ",", "\t", "|"):
        counts = {line.count(sep) for line in lines}
        if len(counts) == 1 and counts != {0}:  # the same number of separators on every line: a table
            shown = "Tab" if sep == "\t" else sep
            return Problem(None, _NOT_TRF_KINDS["csv"], {"sep": shown, "first": _shown(first)})
    return Problem(None, _NOT_TRF)


def not_trf(data: bytes | str) -> Problem | None:
    """Why ``data`` is no TRF file at all (another format: no line starts with a TRF record code), with a
    hint of what it looks like (CSV, XML, PDF, a spreadsheet); None if it may be one."""
    if isinstance(data, bytes):
        kind = next((k for signature, k in _SIGNATURES if data.startswith(signature)), None)
        if kind is not None:
            return Problem(None, _NOT_TRF_KINDS[kind])
        if b"\x00" in data:  # UTF-16 or binary: the reader names the control characters by line
            return None
        text = data.removeprefix(_BOM).decode("utf-8", "replace")
    else:
        text = data.removeprefix("\ufeff")
    if any(_is_record(line) for line in text.splitlines()):
        return None
    return _foreign_kind(text)


def read_trf(data: bytes | str, *, date_order: str = "") -> TrfTournament:
    """Read a TRF file. ``date_order`` ("dmy" or "mdy") decides dates like 08/04/2018 the file leaves open.

    Raises :class:`TrfError` listing every problem; returns the tournament with its warnings otherwise.
    """
    if date_order not in ("", "dmy", "mdy"):
        raise ValueError(date_order)
    foreign = not_trf(data)
    if foreign is not None:
        raise TrfError([foreign])
    if isinstance(data, bytes):
        text, encoding, warnings = decode(data)
    else:
        text, encoding, warnings = data.removeprefix("\ufeff"), "UTF-8", []
    rd = _Reader(text, date_order=date_order)
    rd.warnings += warnings
    rd.read()
    if not rd.players and not rd.errors:
        rd.error(None, gettext_noop("Keine Spielersätze (001) gefunden – ist das eine TRF-Datei?"))
    seen: dict[int, TrfPlayer] = {}
    for p in rd.players:
        if p.start_rank in seen:
            rd.error(
                p.line,
                gettext_noop("Startnummer %(rank)04d doppelt (auch Zeile %(other)s)."),
                {"rank": p.start_rank, "other": seen[p.start_rank].line},
                5,
                8,
            )
        else:
            seen[p.start_rank] = p
    rd.players.sort(key=lambda p: p.start_rank)
    _attach_national(rd, seen)
    _resolve_head_dates(rd)
    rounds = max(rd.head.rounds or 0, rd.blocks, len(rd.head.round_dates))
    if rd.head.rounds is not None and rd.blocks > rd.head.rounds:
        rd.warn(
            None,
            gettext_noop("Die Spielersätze haben %(blocks)s Runden, der Kopf nennt %(rounds)s."),
            {"blocks": rd.blocks, "rounds": rd.head.rounds},
        )
    games, byes, dropped = ([], [], []) if rd.errors else _pairings(rd, rounds)
    if rd.errors:
        exc = AmbiguousDateError if all(p.template == AMBIGUOUS_DATE for p in rd.errors) else TrfError
        raise exc(rd.errors, rd.warnings)
    head = rd.head
    head.scoring = rd.scoring_162 or dict(rd.xxs)
    players = [p for p in rd.players if p not in dropped]
    _check_points(players, games, byes, rounds, rd)
    return TrfTournament(
        head=head,
        players=players,
        games=games,
        byes=byes,
        rounds=rounds,
        warnings=rd.warnings,
        kept_lines=rd.kept,
        encoding=encoding,
        dropped=dropped,
    )


def player_points(
    tournament: TrfTournament, scoring: Mapping[str, Decimal] | None = None
) -> dict[int, Decimal]:
    """Each player's tournament points from the games and byes (byes count here, never for the rating)."""
    scoring = tournament.head.scoring if scoring is None else scoring
    xxs = {k: v for k, v in scoring.items() if len(k) > 1}
    simple = {k: v for k, v in scoring.items() if len(k) == 1}
    points = {p.start_rank: Decimal(0) for p in tournament.players}
    for g in tournament.games:
        colour_w, colour_b = ("w", "b") if g.colour_known else ("", "")
        points[g.white] += round_points(g.white_code, colour_w, simple, xxs)
        points[g.black] += round_points(g.black_code, colour_b, simple, xxs)
    for b in tournament.byes:
        points[b.player] += round_points(b.code, "", simple, xxs)
    return points


def _check_points(
    players: list[TrfPlayer], games: list[TrfGame], byes: list[TrfBye], rounds: int, rd: _Reader
) -> None:
    probe = TrfTournament(rd.head, players, games, byes, rounds)
    points = player_points(probe, rd.scoring_162 or rd.xxs)
    for p in players:
        p.computed_points = points[p.start_rank]
        if p.points is not None and p.points != p.computed_points:
            rd.warn(
                p.line,
                gettext_noop("Punkte %(file)s in der Datei, aus den Ergebnissen %(computed)s."),
                {"file": _fmt_points(p.points), "computed": _fmt_points(p.computed_points)},
                81,
                84,
            )


def _fmt_points(value: Decimal) -> str:
    return f"{value:.1f}"


# --- person ids ----------------------------------------------------------------------------------------

_NU_ID = re.compile(r"NU\d{1,10}")
_MEMBER_KEY = re.compile(r"([1-9A-HLM][0-9A-Z]{4})-([0-9A-Za-z]{1,10})")


@dataclass(frozen=True, slots=True)
class PersonId:
    """The national number of a GER line, classified (formats.md §2.4)."""

    kind: str  # "nu", "member", "pkz" or "raw"
    value: str
    zps: str = ""
    member_number: str = ""


def person_id(raw: str) -> PersonId | None:
    raw = raw.strip()
    if not raw:
        return None
    upper = raw.upper()
    if _NU_ID.fullmatch(upper):
        return PersonId("nu", upper)
    if m := _MEMBER_KEY.fullmatch(upper):
        return PersonId("member", upper, m.group(1), m.group(2))
    if raw.isascii() and raw.isdigit() and int(raw):
        return PersonId("pkz", str(int(raw)))
    return PersonId("raw", raw)


# --- writing -------------------------------------------------------------------------------------------


def _rjust(value: object, width: int) -> str:
    text = "" if value is None else str(value)
    return text[:width].rjust(width)


def _ljust(value: object, width: int) -> str:
    text = "" if value is None else str(value)
    return text[:width].ljust(width)


def _date_text(value: datetime.date | None) -> str:
    return value.strftime("%Y/%m/%d") if value else ""


def _birth_text(p: TrfPlayer) -> str:
    if p.birth_date:
        return _date_text(p.birth_date)
    return f"{p.birth_year:04d}/00/00" if p.birth_year else ""


def _name_text(p: TrfPlayer) -> str:
    if p.name:
        return p.name
    parts = [p.surname, p.first_name] + ([p.name_suffix] if p.name_suffix else [])
    return ", ".join(x for x in parts if x) if p.first_name else p.surname


def _block(opponent: int | None, colour: str, code: str) -> str:
    opp = f"{opponent:4d}" if opponent else "0000"
    return f"{opp} {colour or '-'} {code or ' '}  "


def write_trf(tournament: TrfTournament, *, ranks: Mapping[int, int] | None = None) -> str:  # noqa: C901 -- existing; issue 27
    """TRF26 text (CRLF line ends, formats.md §1.1): head, then each 001 line followed by its GER line.

    Points are recomputed from games and byes; ``ranks`` (start rank -> place) replaces the players'
    ranks. A round without a game or bye is written ``0000 - Z`` (formats.md §1.5, writer).
    """
    h = tournament.head
    rounds = max(
        tournament.rounds,
        max((g.round for g in tournament.games), default=0),
        max((b.round for b in tournament.byes), default=0),
    )
    lines: list[str] = []

    def head(tag: str, value: object) -> None:
        if value not in (None, ""):
            lines.append(f"{tag} {_one_line(str(value))}")

    head("012", h.name)
    head("022", h.city)
    head("032", h.federation)
    head("042", _date_text(h.start_date))
    head("052", _date_text(h.end_date))
    head("062", len(tournament.players))
    rated = sum(1 for p in tournament.players if p.fide_rating)
    head("072", rated)
    head("092", h.kind)
    head("102", h.chief_arbiter)
    for deputy in h.deputies:
        head("112", deputy)
    head("122", h.time_control)
    if any(h.round_dates):
        blocks = "".join(f"{d.strftime('%y/%m/%d') if d else '':<10}" for d in h.round_dates)
        lines.append(("132" + " " * 88 + blocks).rstrip())
    head("142", rounds or None)
    scoring = h.scoring if h.scoring and all(len(k) == 1 for k in h.scoring) else {}
    if scoring:
        lines.append(
            "162  " + "".join(f"{code}{_rjust(f'{v:.1f}', 4)}    " for code, v in scoring.items()).rstrip()
        )
    if any(p.ger for p in tournament.players):
        head("172", h.start_rank_method or "GER NIDOF")
    head("202", ",".join(h.tiebreaks))
    head("212", ",".join(h.standings_tiebreaks))
    head("222", h.time_control_code)
    if rounds:
        lines.append(f"XXR {rounds}")

    blocks_of: dict[int, dict[int, str]] = {p.start_rank: {} for p in tournament.players}
    for g in tournament.games:
        wc, bc = ("w", "b") if g.colour_known else ("-", "-")
        blocks_of[g.white][g.round] = _block(g.black, wc, g.white_code)
        blocks_of[g.black][g.round] = _block(g.white, bc, g.black_code)
    for b in tournament.byes:
        blocks_of[b.player][b.round] = _block(None, "-", b.code)
    points = player_points(tournament)
    for p in sorted(tournament.players, key=lambda p: p.start_rank):
        rank = (ranks or {}).get(p.start_rank, p.rank)
        rounds_text = "".join(
            blocks_of[p.start_rank].get(r, _block(None, "-", "Z")) for r in range(1, rounds + 1)
        )
        line = (
            f"001 {p.start_rank:4d} {_ljust(p.sex, 1)}{_rjust(p.title, 3)} {_ljust(_name_text(p), 33)} "
            f"{_rjust(p.fide_rating, 4)} {_ljust(p.federation, 3)} {_rjust(p.fide_id, 11)} "
            f"{_ljust(_birth_text(p), 10)} {_rjust(_fmt_points(points[p.start_rank]), 4)} "
            f"{_rjust(rank, 4)}  {rounds_text}"
        )
        lines.append(line.rstrip())
        for fed, nat in sorted(p.national.items()):
            nat_line = (
                f"{fed:<3} {p.start_rank:4d}  {_rjust(nat.index if nat.rating else None, 3)} "
                f"{_ljust(nat.name, 33)} {_rjust(nat.rating, 4)}     {_rjust(nat.number, 11)}"
            )
            lines.append(nat_line.rstrip())
    for kept in tournament.kept_lines:
        if not kept.startswith("XXR"):
            lines.append(kept)
    return "\r\n".join(lines) + "\r\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def national_line(p: TrfPlayer) -> str:
    """The GER line of one player, as :func:`write_trf` writes it (for tests and previews)."""
    nat = p.ger
    if nat is None:
        return ""
    return (
        f"GER {p.start_rank:4d}  {_rjust(nat.index if nat.rating else None, 3)} {_ljust(nat.name, 33)} "
        f"{_rjust(nat.rating, 4)}     {_rjust(nat.number, 11)}"
    ).rstrip()


def iter_problems(problems: Iterable[Problem]) -> list[str]:
    return [str(p) for p in problems]
