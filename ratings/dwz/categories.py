"""Strength categories by DWZ (spec §11). Each lower bound belongs to its category; 2700 is Großmeister."""

from __future__ import annotations

import bisect
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StrengthCategory:
    lower: int | None  # inclusive; None = no lower bound
    upper: int | None  # inclusive; None = no upper bound
    label_de: str
    label_en: str


CATEGORIES: tuple[StrengthCategory, ...] = (
    StrengthCategory(None, 999, "Anfänger", "Beginner"),
    StrengthCategory(1000, 1299, "Fortgeschrittener", "Improver"),
    StrengthCategory(1300, 1599, "Normaler Vereinsspieler", "Average club player"),
    StrengthCategory(1600, 1899, "Überdurchschnittlicher Vereinsspieler", "Above-average club player"),
    StrengthCategory(1900, 2099, "Herausragender Vereinsspieler", "Outstanding club player"),
    StrengthCategory(2100, 2299, "Oberligaspieler", "Oberliga player"),
    StrengthCategory(2300, 2499, "Bundesligaspieler", "Bundesliga player"),
    StrengthCategory(2500, 2700, "Großmeister", "Grandmaster"),
    StrengthCategory(2701, None, "Weltklassespieler", "World class"),
)
_LOWER_BOUNDS: list[int] = [c.lower for c in CATEGORIES[1:] if c.lower is not None]


def strength_category(dwz: int) -> StrengthCategory:
    """The category of an integer DWZ."""
    return CATEGORIES[bisect.bisect_right(_LOWER_BOUNDS, dwz)]
