"""Services: the only code that writes ratings (see docs/recalculation.md)."""

from .adjustments import adjustment_delete, adjustment_save, player_recalculate
from .recalculation import RecalculationReport, lock_ratings, ratings_verify, recalculate
from .tournaments import games_validate, tournament_delete, tournament_save, tournaments_recalculate_from

__all__ = [
    "RecalculationReport",
    "adjustment_delete",
    "adjustment_save",
    "games_validate",
    "lock_ratings",
    "player_recalculate",
    "ratings_verify",
    "recalculate",
    "tournament_delete",
    "tournament_save",
    "tournaments_recalculate_from",
]
