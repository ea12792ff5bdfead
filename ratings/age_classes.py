"""Age classes of youth players (U8 … U18), by calendar year as the DSB's youth tournaments count them.

Public pages never show the birth year of a player under 18 (issue 30 §4), only his age class: a player is
U18 in the years he turns at most 17, U16 at most 15, and so on. Pure Python, no Django.
"""

from __future__ import annotations

YOUTH_CLASSES = (8, 10, 12, 14, 16, 18)


def age_class(birth_year: int | None, *, year: int) -> str | None:
    """ "U12" for a player who turns 10 or 11 in ``year``; None for 18 and older or an unknown birth year."""
    if birth_year is None:
        return None
    age = year - birth_year
    for limit in YOUTH_CLASSES:
        if age < limit:
            return f"U{limit}"
    return None


def public_birth_year(birth_year: int | None, *, year: int) -> str:
    """What a public page shows for the birth year: the year, the age class under 18, or ""."""
    if birth_year is None:
        return ""
    return age_class(birth_year, year=year) or str(birth_year)


def class_floor(age: int) -> int:
    """The youngest age of ``age``'s youth class (15 → 14, the U16's first year); ``age`` from 18 on.

    An age filter on a public list widens its bounds to whole classes under 18: filtering "age from 15 to
    15" must not tell a player's birth year where the page shows only his class."""
    lower = 0
    for limit in YOUTH_CLASSES:
        if age < limit:
            return lower
        lower = limit
    return age


def class_ceiling(age: int) -> int:
    """The oldest age of ``age``'s youth class (14 → 15); ``age`` from 18 on."""
    for limit in YOUTH_CLASSES:
        if age < limit:
            return limit - 1
    return age
