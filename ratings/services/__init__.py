"""Services: the only code that writes ratings (see docs/recalculation.md).

They import each other one way: ``audit`` and ``recalculation`` are leaves, ``adjustments`` and
``tournaments`` build on them, ``players`` on ``adjustments``, the importers on all of those.
"""

from .adjustments import adjustment_delete, adjustment_save, player_recalculate
from .players import (
    membership_delete,
    membership_end,
    membership_save,
    player_create,
    player_delete,
    player_save,
    players_status_sync,
)
from .recalculation import RecalculationReport, lock_ratings, ratings_verify, recalculate
from .tournaments import (
    games_validate,
    tournament_delete,
    tournament_restore,
    tournament_save,
    tournaments_recalculate_from,
)

__all__ = [
    "RecalculationReport",
    "adjustment_delete",
    "adjustment_save",
    "games_validate",
    "lock_ratings",
    "membership_delete",
    "membership_end",
    "membership_save",
    "player_create",
    "player_delete",
    "player_recalculate",
    "player_save",
    "players_status_sync",
    "ratings_verify",
    "recalculate",
    "tournament_delete",
    "tournament_restore",
    "tournament_save",
    "tournaments_recalculate_from",
]
