"""What a stored tournament becomes in a TRF26 file, pure Python: the result codes, the start numbers, the
rounds for the standings, the games and byes, the DSB person id. The rows come from
``ratings.selectors.tournament_export``, which reads them; ``trf.write_trf`` writes the text.

Results are dwzsite's codes (``ratings.enums.ResultCode`` values, spelled out here: no Django in formats).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Protocol

from .standings import RoundScore
from .trf import TrfBye, TrfGame

# dwzsite results → TRF codes (white, black); byes → TRF bye codes. "nicht gepaart" (U) is a zero-point bye.
TRF_GAME_CODES: dict[str, tuple[str, str]] = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "--": ("-", "-"),
}
TRF_BYE_CODES: dict[str, str] = {"+": "U", "F": "F", "H": "H", "Z": "Z", "U": "Z"}
PLAYED = frozenset({"1-0", "0-1", "1/2-1/2"})
VOLUNTARY_BYES = frozenset({"H", "Z", "U"})
BYE_POINTS: dict[str, Decimal] = {
    "+": Decimal(1),
    "F": Decimal(1),
    "H": Decimal("0.5"),
    "Z": Decimal(0),
    "U": Decimal(0),
}
GAME_POINTS: dict[str, tuple[Decimal, Decimal]] = {
    "1-0": (Decimal(1), Decimal(0)),
    "0-1": (Decimal(0), Decimal(1)),
    "1/2-1/2": (Decimal("0.5"), Decimal("0.5")),
    "+-": (Decimal(1), Decimal(0)),
    "-+": (Decimal(0), Decimal(1)),
    "--": (Decimal(0), Decimal(0)),
}
_PERSON_ID = re.compile(r"NU\d{1,10}|\d{1,10}|[1-9A-HLM][0-9A-Z]{4}-[0-9A-Za-z]{1,10}", re.IGNORECASE)

# (round, white player id, black player id or None for a bye, result)
GameRow = tuple[int, int, int | None, str]


class Entry(Protocol):
    @property
    def player_id(self) -> int: ...
    @property
    def start_rank(self) -> int | None: ...


class Named(Protocol):
    @property
    def pk(self) -> int | None: ...
    @property
    def code(self) -> str | None: ...
    @property
    def name(self) -> str: ...


def start_numbers(entries: Sequence[Entry]) -> dict[int, int]:
    """player id → start number: the stored start rank where unique, else the position in the list."""
    ranks = [e.start_rank for e in entries]
    if all(r is not None for r in ranks) and len(set(ranks)) == len(ranks):
        return {e.player_id: e.start_rank for e in entries if e.start_rank is not None}
    return {e.player_id: i for i, e in enumerate(entries, start=1)}


def round_scores(games: Iterable[GameRow], numbers: Mapping[int, int]) -> dict[Hashable, list[RoundScore]]:
    """Every participant's rounds (games and byes) for the standings, keyed by start number."""
    out: dict[Hashable, list[RoundScore]] = {n: [] for n in numbers.values()}
    for rnd, white_id, black_id, result in games:
        white = numbers.get(white_id)
        if white is None:
            continue
        if black_id is None:
            out[white].append(
                RoundScore(rnd, BYE_POINTS.get(result, Decimal(0)), voluntary=result in VOLUNTARY_BYES)
            )
            continue
        black = numbers.get(black_id)
        if black is None:
            continue
        pw, pb = GAME_POINTS[result]
        played = result in PLAYED
        out[white].append(
            RoundScore(rnd, pw, black, played=played, colour="w", voluntary=result in ("-+", "--"))
        )
        out[black].append(
            RoundScore(rnd, pb, white, played=played, colour="b", voluntary=result in ("+-", "--"))
        )
    return out


def trf_games(games: Iterable[GameRow], numbers: Mapping[int, int]) -> tuple[list[TrfGame], list[TrfBye]]:
    """The games and byes of the participants numbered in ``numbers``, in the order given."""
    out, byes = [], []
    for rnd, white_id, black_id, result in games:
        white = numbers.get(white_id)
        if white is None:
            continue
        if black_id is None:
            byes.append(TrfBye(rnd, white, TRF_BYE_CODES[result]))
        elif black_id in numbers:
            wc, bc = TRF_GAME_CODES[result]
            out.append(TrfGame(rnd, white, numbers[black_id], wc, bc))
    return out, byes


def dsb_person_id(*, dsb_id: str, key: str, club_number: str | None) -> str:
    """The DSB person id as the DSB list writes it: the nu id or PKZ; else the ZPS-Mitgliedsnummer
    (``club_number``, "C0501-12")."""
    if dsb_id:
        return dsb_id
    if _PERSON_ID.fullmatch(key):
        return key
    return club_number or ""


def export_filename(tournament: Named, suffix: str) -> str:
    base = (
        tournament.code
        or re.sub(r"[^A-Za-z0-9]+", "-", tournament.name).strip("-")[:40]
        or str(tournament.pk)
    )
    return f"{base}.{suffix}"


def decimal_text(value: Decimal | None) -> str:
    """German decimals as the DSB writes them (4,5)."""
    if value is None:
        return ""
    return format(value.normalize() if value == value.to_integral() else value, "f").replace(".", ",")


def end_date_text(value: datetime.date | None) -> str:
    return value.strftime("%d.%m.%Y") if value else ""
