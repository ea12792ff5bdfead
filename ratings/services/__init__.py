"""Services: the only code that writes ratings (see docs/recalculation.md).

They import each other one way: ``audit`` is a leaf, ``adjustments`` and ``tournaments`` build on it and on
the recalculation (``ratings.recalculation``, its own package), ``players`` on ``adjustments``, the
importers on all of those.
"""

from ratings.tournament_checks import games_validate

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
from .tournaments import (
    tournament_admin_save,
    tournament_create,
    tournament_delete,
    tournament_replace,
    tournament_restore,
    tournament_restore_version,
    tournament_save_head,
    tournament_save_results,
    tournaments_recalculate_from,
)

__all__ = [
    "adjustment_delete",
    "adjustment_save",
    "games_validate",
    "membership_delete",
    "membership_end",
    "membership_save",
    "player_create",
    "player_delete",
    "player_recalculate",
    "player_save",
    "players_status_sync",
    "tournament_admin_save",
    "tournament_create",
    "tournament_delete",
    "tournament_replace",
    "tournament_restore",
    "tournament_restore_version",
    "tournament_save_head",
    "tournament_save_results",
    "tournaments_recalculate_from",
]
