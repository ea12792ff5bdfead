"""All models of the ratings app (re-exported)."""

from .adjustment import RatingAdjustment, RatingState
from .evaluation import Evaluation, Restpartie
from .federation import Club, Organisation
from .player import Membership, Player
from .tournament import Game, Tournament, TournamentEntry

__all__ = [
    "Club",
    "Evaluation",
    "Game",
    "Membership",
    "Organisation",
    "Player",
    "RatingAdjustment",
    "RatingState",
    "Restpartie",
    "Tournament",
    "TournamentEntry",
]
