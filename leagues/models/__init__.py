"""The league's data (issue 29, spec/leagues.md §3): season, division (and its DWZ parts), team, ranking list,
match and board. What is derived (a match's points, the table) comes from the pure core ``leagues.core``."""

from .division import Division, DivisionPart, DivisionSystem
from .match import Board, LeagueResult, Match, MatchStatus
from .ranking import RankingEntry, RankingEntryStatus, RankingGroup, RankingList
from .season import Season
from .team import Team

__all__ = [
    "Board",
    "Division",
    "DivisionPart",
    "DivisionSystem",
    "LeagueResult",
    "Match",
    "MatchStatus",
    "RankingEntry",
    "RankingEntryStatus",
    "RankingGroup",
    "RankingList",
    "Season",
    "Team",
]
