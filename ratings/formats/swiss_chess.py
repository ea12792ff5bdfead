"""The Swiss-Chess player database (``fdsbJJMMTT.LST`` + ``.SWX``, spec/formats.md §3.9): writer, pure Python.

dwzsite writes the pair so that an officer can pair the next tournament with the ratings dwzsite holds; it
never reads it (decision). Only the plain form of Swiss-Chess ≥ 10 is written (decision).

``.LST``: one player per line, 29 fields separated by ``;``, CRLF, CP437, a 0 written as an empty field,
names cut to 40 characters; fields 15–28 are the "quoted FIDE block" (field 15 opens it with ``"``, field 28
is a lone ``"``). Lines are sorted by index bucket, then by search key.

``.SWX``: 702 records of two little-endian unsigned 32-bit integers, an index into the ``.LST`` by the first
two letters of the search key. **Unconfirmed** (the spec says so): the meaning of the second integer. This
writer follows the spec's words: for an occupied bucket, the record count of the previous occupied bucket
minus 1 (0 for the first occupied bucket). Buckets 0 (a key of one letter "A") and 701 ("ZZ") share records
1 and 700, since records 0 and 701 are the file's head and tail.
"""

from __future__ import annotations

import struct
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

TITLE_CODES = {"GM": 1, "IM": 2, "FM": 3, "CM": 4, "WGM": 6, "WIM": 7, "WFM": 8, "WCM": 9}
RECORDS = 702
HEAD = (0, 0xFFFFFE44)
VERSION = 0x01000000
NAME_MAX = 40
_EXPAND = str.maketrans({"Ä": "AE", "Ö": "OE", "Ü": "UE", "ß": "SS", "ẞ": "SS"})


@dataclass(frozen=True, slots=True)
class SwissChessPlayer:
    surname: str
    first_name: str = ""
    club: str = ""
    nation: str = ""
    elo: int | None = None
    dwz: int | None = None
    title: str = ""  # FIDE title, e.g. GM or WFM
    birth_year: int | None = None
    person_id: str = ""
    fide_id: int | None = None
    member_number: str = ""
    sex: str = ""  # M / W
    zps: str = ""
    status: str = ""  # A / P
    women_title: str = ""


def search_key(surname: str) -> str:
    """The index key of a surname: upper case, Ä→AE, Ö→OE, Ü→UE, ß→SS, accents dropped, cut at the first
    digit."""
    text = surname.upper().translate(_EXPAND)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    for i, char in enumerate(text):
        if char.isdigit():
            return text[:i]
    return text


def bucket(key: str) -> int:
    """(first letter − A) × 27 + second (0 = no letter, 1–26 = A–Z); keys not starting with A–Z go first."""
    if not key or not ("A" <= key[0] <= "Z"):
        return 0
    first = ord(key[0]) - ord("A")
    second = ord(key[1]) - ord("A") + 1 if len(key) > 1 and "A" <= key[1] <= "Z" else 0
    return first * 27 + second


def _value(value: object) -> str:
    if value is None or value == 0 or value == "0":
        return ""
    return str(value).replace(";", ",").replace("\r", " ").replace("\n", " ").replace('"', "'")


def _line(p: SwissChessPlayer) -> str:
    name = f"{p.surname},{p.first_name}" if p.first_name else p.surname
    code = TITLE_CODES.get(p.title) or TITLE_CODES.get(p.women_title)
    fields = [name[:NAME_MAX], p.club[:NAME_MAX], p.nation, p.elo, p.dwz, code, p.birth_year, p.person_id]
    fields += [p.fide_id, p.member_number, p.sex, p.zps, p.zps[:1], None, p.status]
    values = [_value(v) for v in fields]
    values[13] = p.member_number  # the member number again, always plain text (leading zeros kept)
    women = p.women_title or (p.title if p.title in ("WGM", "WIM", "WFM", "WCM") else "")
    fide = [women, "", "", "", p.elo, None, None, None, None, None, None, None, None]
    fide_values = [_value(v) for v in fide]
    fide_values[0] = '"' + fide_values[0]
    return ";".join([*values, *fide_values, '"'])


def write(players: Iterable[SwissChessPlayer]) -> tuple[bytes, bytes]:
    """The ``.LST`` and ``.SWX`` bytes for ``players``."""
    keyed = sorted(
        ((bucket(search_key(p.surname)), search_key(p.surname), p) for p in players), key=lambda t: t[:2]
    )
    lines: list[bytes] = []
    records = [(0, 0)] * RECORDS
    offset, previous_count, current, count = 0, None, None, 0
    for number, _key, player in keyed:
        record = min(max(number, 1), RECORDS - 2)
        data = (_encode(_line(player)) + "\r\n").encode("cp437")
        if record != current:
            if current is not None:
                previous_count = count
            records[record] = (offset, 0 if previous_count is None else max(previous_count - 1, 0))
            current, count = record, 0
        count += 1
        lines.append(data)
        offset += len(data)
    records[0] = HEAD
    records[RECORDS - 1] = (offset, VERSION)
    return b"".join(lines), b"".join(struct.pack("<II", a, b) for a, b in records)


def _encode(text: str) -> str:
    """``text`` with every character CP437 lacks replaced by its base letter (or ``?``)."""
    out = []
    for char in text:
        try:
            char.encode("cp437")
            out.append(char)
        except UnicodeEncodeError:
            base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
            out.append(base or "?")
    return "".join(out)


def file_names(date) -> tuple[str, str]:
    stem = f"fdsb{date:%y%m%d}"
    return f"{stem}.LST", f"{stem}.SWX"
