"""All models of the ratings app (re-exported)."""

from .adjustment import RatingAdjustment, RatingState
from .audit import AuditEvent
from .evaluation import Evaluation, Restpartie
from .federation import Club, Organisation
from .officer import OfficerScope, TournamentEntryMode
from .player import Membership, Player
from .tournament import Game, Tournament, TournamentEntry

__all__ = [
    "AuditEvent",
    "Club",
    "Evaluation",
    "Game",
    "Membership",
    "OfficerScope",
    "Organisation",
    "Player",
    "RatingAdjustment",
    "RatingState",
    "Restpartie",
    "Tournament",
    "TournamentEntry",
    "TournamentEntryMode",
]
