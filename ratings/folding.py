"""Folding of names for search (pure text): used by the search, the duplicate finder, the DSB list import."""

from __future__ import annotations

import re
import unicodedata

# Upper and lower case explicitly: SQLite's lower() folds ASCII only.
CHAR_FOLDS = [
    ("Ä", "a"),
    ("ä", "a"),
    ("Ö", "o"),
    ("ö", "o"),
    ("Ü", "u"),
    ("ü", "u"),
    ("ß", "ss"),
    ("ẞ", "ss"),
]
# After lower-casing: the transliterations ae/oe/ue fold to the same key as ä/ö/ü.
PAIR_FOLDS = [("ae", "a"), ("oe", "o"), ("ue", "u")]


def search_key(text: str) -> str:
    """The search key of a text: case-folded, ä/ae → a, ö/oe → o, ü/ue → u, ß → ss (other accents stay).

    "Müller", "Mueller" and "MULLER" all give "muller". The database side
    (``ratings.models.search_keys.search_key_expression``) applies the same folds, so both sides meet.
    """
    text = text.strip()
    for src, dst in CHAR_FOLDS:
        text = text.replace(src, dst)
    text = text.casefold()
    for src, dst in PAIR_FOLDS:
        text = text.replace(src, dst)
    return re.sub(r"\s+", " ", text)


# --- Sorting by DIN 5007, variant 1 (docs/architecture.md, "Sorting names") ---------------------------------
# The letters a sort key folds: A-Z to a-z, and every letter of Latin-1 and Latin Extended-A (plus the
# Romanian Ș/Ț and the capital ẞ) to its base letters: ä = a, ö = o, ü = u, ß = ss, é = e, ł = l, æ = ae.
# Other characters stay as they are and sort by code point after the letters. One explicit table, used by
# Python alone: the key is stored (``ratings.models.search_keys.SortKeyField``) and compared by code point,
# so SQLite and PostgreSQL give the same order whatever the server's locale.
_SORT_SPECIAL = {
    "Æ": "ae",
    "æ": "ae",
    "Ð": "d",
    "ð": "d",
    "Đ": "d",
    "đ": "d",
    "Ø": "o",
    "ø": "o",
    "Þ": "th",
    "þ": "th",
    "ß": "ss",
    "ẞ": "ss",
    "Ħ": "h",
    "ħ": "h",
    "ı": "i",
    "ĸ": "k",
    "Ŀ": "l",
    "ŀ": "l",
    "Ł": "l",
    "ł": "l",
    "ŉ": "n",
    "Ŋ": "n",
    "ŋ": "n",
    "Œ": "oe",
    "œ": "oe",
    "Ŧ": "t",
    "ŧ": "t",
}


def _sort_folds() -> dict[str, str]:
    folds = {chr(c): chr(c).lower() for c in range(ord("A"), ord("Z") + 1)}
    for code in [*range(0xC0, 0x180), *range(0x218, 0x21C)]:
        char = chr(code)
        if not char.isalpha():
            continue  # × and ÷
        base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        folds[char] = _SORT_SPECIAL.get(char, base.lower())
    folds.update(_SORT_SPECIAL)
    return folds


SORT_FOLDS: dict[str, str] = _sort_folds()
# The separator between the parts of a key: below every character a name holds.
SORT_SEPARATOR = "\x01"


def sort_key(text: str) -> str:
    """The DIN 5007 (variant 1) key of a text: ä = a, ö = o, ü = u, ß = ss, case and accents folded.

    "Schäfer" → "schafer" (before "schulze"), "Strauß" → "strauss", "Öztürk" → "ozturk"; "Mueller" stays
    "mueller" (variant 1: the transliteration is spelled as it stands, so it sorts before "Muller").
    """
    return "".join(SORT_FOLDS.get(c, c) for c in text)


def name_sort_key(*parts: str) -> str:
    """The stored sort key of a name of ``parts`` (surname, first name): the parts' folded keys, then the
    parts as they stand, so that names folding alike ("Muller", "Müller", "muller") keep one fixed order.

    Compared by code point (Python ``str``, SQLite ``BINARY``, PostgreSQL ``COLLATE "C"``).
    """
    return SORT_SEPARATOR.join([*(sort_key(p) for p in parts), *parts])
