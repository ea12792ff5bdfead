"""Folding of names for search (pure text): used by the search, the duplicate finder, the DSB list import."""

from __future__ import annotations

import re

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
