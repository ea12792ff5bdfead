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
