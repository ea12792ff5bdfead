"""All models of the ratings app (re-exported)."""

from .adjustment import RatingAdjustment, RatingState
from .audit import AuditEvent
from .draft import TournamentDraft
from .dsb_list import ListImport, ListImportStatus, OfficialRating
from .evaluation import Evaluation, EvaluationDigest, Restpartie
from .federation import Club, Organisation
from .officer import OfficerScope, TournamentEntryMode
from .player import Membership, Player
from .recalculation import RecalculationJob, RecalculationJobStatus
from .submission import TournamentSubmission
from .tournament import Game, Tournament, TournamentEntry

__all__ = [
    "AuditEvent",
    "Club",
    "Evaluation",
    "EvaluationDigest",
    "Game",
    "ListImport",
    "ListImportStatus",
    "Membership",
    "OfficerScope",
    "OfficialRating",
    "Organisation",
    "Player",
    "RatingAdjustment",
    "RatingState",
    "RecalculationJob",
    "RecalculationJobStatus",
    "Restpartie",
    "Tournament",
    "TournamentDraft",
    "TournamentEntry",
    "TournamentEntryMode",
    "TournamentSubmission",
]
