"""Pure-Python DWZ rating engine (no Django): evaluates one tournament under the rules of its end date.

See /docs or the spec (dwz-rules.md) for the rules; ``evaluate`` is the entry point.
"""

from .categories import CATEGORIES, StrengthCategory, strength_category
from .editions import CLASSIC, EDITIONS, WO2026, Edition, edition_for
from .evaluate import evaluate
from .expectation import expected_score
from .rounding import rhu, rhu_decimal, rhu_div, rhu_scaled
from .types import (
    GameInput,
    PlayerInput,
    PlayerResult,
    RestpartieValue,
    Result,
    Status,
    TournamentInput,
    TournamentResult,
    UnsupportedInput,
    sets_rating,
)

__all__ = [
    "CATEGORIES",
    "CLASSIC",
    "EDITIONS",
    "WO2026",
    "Edition",
    "GameInput",
    "PlayerInput",
    "PlayerResult",
    "RestpartieValue",
    "Result",
    "Status",
    "StrengthCategory",
    "TournamentInput",
    "TournamentResult",
    "UnsupportedInput",
    "edition_for",
    "evaluate",
    "expected_score",
    "rhu",
    "rhu_decimal",
    "rhu_div",
    "rhu_scaled",
    "sets_rating",
    "strength_category",
]
