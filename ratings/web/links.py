"""Links to the public pages for long lists: ``reverse()`` costs ~40 µs a call, and a list page links every
row (a card of 948 evaluations, a tournament of 300 players). ``url`` reverses a view once per URL
configuration and then substitutes the argument, for arguments made only of URL-safe characters (every
key, ZPS, federation code and primary key: their converters match nothing else); anything else takes
``reverse()``."""

from __future__ import annotations

import re

from django.urls import get_script_prefix, get_urlconf, reverse

_SAFE = re.compile(r"[0-9A-Za-z_-]+")
_parts: dict[tuple, tuple[str, str]] = {}


def url(view_name: str, arg: object) -> str:
    """``reverse(view_name, args=[arg])`` for a view with exactly one argument."""
    value = str(arg)
    key = (view_name, get_urlconf(), get_script_prefix())
    parts = _parts.get(key)
    if parts is not None and _SAFE.fullmatch(value):
        return f"{parts[0]}{value}{parts[1]}"
    href = reverse(view_name, args=[value])
    if key not in _parts and _SAFE.fullmatch(value) and href.count(value) == 1:
        before, _, after = href.partition(value)
        _parts[key] = (before, after)
    return href
