"""All models of the ratings app (re-exported)."""

from .adjustment import RatingAdjustment, RatingState
from .audit import AuditEvent
from .complaint import Complaint, ComplaintStatus
from .draft import TournamentDraft
from .dsb_list import (
    DifferenceCause,
    ListImport,
    ListImportStatus,
    OfficialDifference,
    OfficialRating,
    OfficialVerdict,
    VerdictState,
)
from .evaluation import Evaluation, EvaluationDigest, Restpartie
from .federation import Club, Organisation
from .frozen_list import FrozenList, FrozenListRow
from .generation import PageGeneration
from .officer import OfficerScope, TournamentEntryMode
from .player import Membership, MergedKey, Player
from .recalculation import RecalculationJob, RecalculationJobStatus
from .span import RatingSpan
from .submission import TournamentSubmission
from .tournament import Game, Tournament, TournamentEntry

__all__ = [
    "AuditEvent",
    "Club",
    "Complaint",
    "ComplaintStatus",
    "DifferenceCause",
    "Evaluation",
    "EvaluationDigest",
    "FrozenList",
    "FrozenListRow",
    "Game",
    "ListImport",
    "ListImportStatus",
    "Membership",
    "MergedKey",
    "OfficerScope",
    "OfficialDifference",
    "OfficialRating",
    "OfficialVerdict",
    "Organisation",
    "PageGeneration",
    "Player",
    "RatingAdjustment",
    "RatingSpan",
    "RatingState",
    "RecalculationJob",
    "RecalculationJobStatus",
    "Restpartie",
    "Tournament",
    "TournamentDraft",
    "TournamentEntry",
    "TournamentEntryMode",
    "TournamentSubmission",
    "VerdictState",
]
