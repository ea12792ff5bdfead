"""Time controls as tournaments write them, and the WO 4.2 minimum (spec ``dwz-rules.md`` §17).

``parse`` reads the usual notations into periods and an increment; ``minutes_per_player`` counts them the
way the Kommission für Wertungen does; ``shortfall`` says why a time control is below the limit.

Notations read (case, spaces and German/English unit words do not matter):

* minutes and moves with units: ``90 min + 30 s``, ``90 Min. + 30 Sek.``, ``120'+30"``, ``2 h/40 Züge + 1 h``,
  ``90 Min./40 Züge + 30 Min., 30 Sek./Zug``, ``90 minutes + 30 seconds per move``;
* the short forms: ``90/40+30+30s`` (90 minutes for 40 moves, 30 more, 30 s a move), ``40/120+60``,
  ``40/120, 60``, ``90+30`` and ``5+0`` (minutes + seconds a move), ``G/90; +30`` (game in 90 minutes);
* seconds as FIDE's TRF and the PGN ``TimeControl`` tag write them: ``5400+30``, ``40/7200:3600+30``.

In ``a/b`` without units the smaller number is the move count (``90/40`` and ``40/90`` mean the same). A
bare first number above 240 is read as seconds (no tournament gives more than four hours without a move
count). After a period with a move count a bare number is the next period; after the last period it is
the increment in seconds (``90+30``). Anything else (an unknown word, a period after the increment)
makes the text unreadable: ``parse`` returns None and the officer is asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

LIMIT_MINUTES = Decimal(90)
LIMIT_MINUTES_U12 = Decimal(60)
FIRST_PERIOD_MINUTES = Decimal(60)
FIRST_PERIOD_MINUTES_U12 = Decimal(40)
INCREMENT_CAP_SECONDS = Decimal(30)
MOVES_COUNTED = 60  # an increment counts as if the game lasted 60 moves
BARE_SECONDS_ABOVE = 240


@dataclass(frozen=True, slots=True)
class Period:
    minutes: Decimal
    moves: int | None = None  # None: the rest of the game


@dataclass(frozen=True, slots=True)
class TimeControl:
    periods: tuple[Period, ...]
    increment_seconds: Decimal = Decimal(0)


@dataclass(frozen=True, slots=True)
class Shortfall:
    """Why a time control is below the WO 4.2 limit: ``kind`` "total" or "first_period"."""

    kind: str
    minutes: Decimal
    limit: Decimal


# --- reading --------------------------------------------------------------------------------------------

_FILLER = re.compile(
    r"\b(?:(?:ab|from|von|vom|beginning\s+with|starting\s+(?:from|with))\s+(?:dem\s+)?"
    r"(?:(?:zug|move)\s*(?:nr\.?\s*)?1|1\.?\s*(?:zug|move)|ersten\s+zug(?:\s+an)?|first\s+move))"
    r"|\b(?:for\s+the\s+)?rest\s+of\s+the\s+game\b|\bf(?:ü|ue)r\s+den\s+rest(?:\s+der\s+partie)?\b"
    r"|\brest\b|\bje\s+spieler\b|\bper\s+player\b|\bpro\s+spieler\b|\bzus(?:ä|ae)tzlich\b"
    r"|\bbis\s+zum\s+ende\b|\bbis\s+partieende\b|\bincrement\b|\binkrement\b|\bbonus\b|\bfischer\b"
    r"|\bpro\s+partie\b|\bper\s+game\b|\bthen\b|\bdann\b|\band\b|\bund\b|\bwith\b|\bmit\b|\bfor\b|\bf(?:ü|ue)r\b|\bin\b"
)
_PER_MOVE = re.compile(r"(?:/|\bper\b|\bpro\b|\bje\b|\ba\b)\s*(?:zug|move)\b\.?")
_UNITS = {
    "minutes": "m", "minute": "m", "minuten": "m", "mins": "m", "min": "m", "m": "m", "'": "m", "′": "m",
    "seconds": "s", "second": "s", "sekunden": "s", "sekunde": "s", "secs": "s", "sec": "s", "sek": "s",
    "s": "s", '"': "s", "″": "s", "''": "s",
    "hours": "h", "hour": "h", "stunden": "h", "stunde": "h", "std": "h", "h": "h",
    "moves": "z", "move": "z", "züge": "z", "zuege": "z", "zug": "z", "z": "z",
}  # fmt: skip
_UNIT_RE = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_VALUE = re.compile(rf"(\d+(?:[.,]\d+)?)\s*({_UNIT_RE})?\.?(?![a-zäöü])")
_GAME = re.compile(r"^(?:g|sd|game|partie)\s*/?\s*(?=\d)")
_DECIMAL_HOURS = re.compile(r"(\d),(\d)(?=\s*(?:h|std|stunde))")
_TERM_SPLIT = re.compile(r"[+,;:&]|\bplus\b")


@dataclass(frozen=True, slots=True)
class _Value:
    number: Decimal
    unit: str  # "m", "s", "h", "z" or "" (none)


@dataclass(frozen=True, slots=True)
class _Term:
    time: _Value | None
    moves: int | None = None
    per_move: bool = False


def _values(text: str) -> list[_Value] | None:
    """The numbers with their units, or None if anything else is left."""
    out: list[_Value] = []
    pos = 0
    for m in _VALUE.finditer(text):
        if text[pos : m.start()].strip():
            return None
        out.append(_Value(Decimal(m.group(1).replace(",", ".")), _UNITS.get(m.group(2) or "", "")))
        pos = m.end()
    return out if not text[pos:].strip() else None


def _term(text: str) -> _Term | None:
    text = text.strip()
    per_move = False
    if _PER_MOVE.search(text):
        per_move = True
        text = _PER_MOVE.sub(" ", text)
    text = _GAME.sub("", text)
    parts = text.split("/")
    found = [_values(p) for p in parts]
    if len(parts) > 2 or any(f is None or (len(parts) == 2 and len(f) != 1) for f in found):
        return None
    values = [v for f in found if f for v in f]
    if len(values) == 1:
        v = values[0]
        return _Term(moves=int(v.number), time=None) if v.unit == "z" else _Term(time=v, per_move=per_move)
    if len(values) != 2 or per_move:
        return None
    a, b = values
    if a.unit == "z" or b.unit == "z":
        moves, time = (a, b) if a.unit == "z" else (b, a)
    elif a.unit and not b.unit:
        moves, time = b, a
    elif b.unit and not a.unit:
        moves, time = a, b
    elif a.unit or b.unit:
        return None
    else:  # no units: the move count is the smaller number (90/40, 40/120, 40/7200)
        moves, time = (a, b) if a.number <= b.number else (b, a)
    if time.unit == "z" or moves.number != int(moves.number) or moves.number < 1:
        return None
    return _Term(time=time, moves=int(moves.number))


def _minutes(value: _Value, seconds_mode: bool) -> Decimal:
    if value.unit == "h":
        return value.number * 60
    if value.unit == "s" or (not value.unit and seconds_mode):
        return value.number / 60
    return value.number


def parse(text: str) -> TimeControl | None:  # noqa: C901, PLR0912 -- existing; issue 27
    """The time control written in ``text``, or None when it cannot be read (also for empty text)."""
    text = (text or "").strip().casefold().replace("´", "'").replace("`", "'").replace("“", '"')
    text = text.replace("”", '"').replace("„", '"')
    if not text or len(text) > 200:
        return None
    text = _DECIMAL_HOURS.sub(r"\1.\2", text)
    text = _FILLER.sub(" ", text)
    terms = []
    for raw in _TERM_SPLIT.split(text):
        if not raw.strip():
            continue
        term = _term(raw)
        if term is None:
            return None
        terms.append(term)
    # "90 Min. + 30 Sek. ... /40 Züge": a bare move count belongs to the period before it
    merged: list[_Term] = []
    for term in terms:
        if term.time is None:
            if not merged or merged[-1].moves is not None or merged[-1].time is None:
                return None
            merged[-1] = _Term(time=merged[-1].time, moves=term.moves)
        else:
            merged.append(term)
    if not merged or merged[0].per_move or merged[0].time is None:
        return None
    first = merged[0].time
    seconds_mode = not first.unit and first.number > BARE_SECONDS_ABOVE
    periods: list[Period] = []
    increment: Decimal | None = None
    for i, term in enumerate(merged):
        value = term.time
        assert value is not None  # merged above
        if term.per_move:
            is_increment = True
        elif i == 0 or term.moves is not None or value.unit in ("m", "h"):
            is_increment = False
        else:  # seconds, or a bare number after the period for the rest of the game
            is_increment = value.unit == "s" or periods[-1].moves is None
        if is_increment:
            if increment is not None:
                return None
            factor = {"m": 60, "h": 3600}.get(value.unit, 1)  # bare or "s": seconds
            increment = value.number * factor
            continue
        if increment is not None or (periods and periods[-1].moves is None):
            return None  # a period after the increment, or after the one for the rest of the game
        periods.append(Period(minutes=_minutes(value, seconds_mode), moves=term.moves))
    return TimeControl(periods=tuple(periods), increment_seconds=increment or Decimal(0))


# --- WO 4.2 -------------------------------------------------------------------------------------------


def minutes_per_player(tc: TimeControl) -> Decimal:
    """Total thinking time per player: every period, plus the increment as if the game lasted 60 moves
    (an increment above 30 s counts as 30 s)."""
    increment = min(tc.increment_seconds, INCREMENT_CAP_SECONDS)
    # seconds × 60 moves / 60 s per minute: as many minutes as the increment has seconds
    return sum((p.minutes for p in tc.periods), Decimal(0)) + increment * MOVES_COUNTED / 60


def shortfall(tc: TimeControl, *, u12: bool = False) -> Shortfall | None:
    """Why ``tc`` is below the WO 4.2 limit (90 minutes, U12 60; a split control's first period at least
    60 minutes, U12 40), or None when it reaches it."""
    total = minutes_per_player(tc)
    limit = LIMIT_MINUTES_U12 if u12 else LIMIT_MINUTES
    if total < limit:
        return Shortfall("total", total, limit)
    if len(tc.periods) > 1 or tc.periods[0].moves is not None:
        first_limit = FIRST_PERIOD_MINUTES_U12 if u12 else FIRST_PERIOD_MINUTES
        if tc.periods[0].minutes < first_limit:
            return Shortfall("first_period", tc.periods[0].minutes, first_limit)
    return None
