"""A season, a division and a team with everything their pages, the API and the exports show.

Each function reads a fixed number of queries whatever the size of the division: ``division_data`` five
(division with season, parts with their tournaments, teams, matches, boards with players), ``team_data``
four, ``season_data`` and ``seasons`` two, ``board_record`` one. The table, the crosstable, the completeness
and the players' board records are computed by ``leagues.core`` from the rows read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Exists, OuterRef, Prefetch, Q

from leagues.core import types as core
from leagues.core.completeness import RoundCompleteness, completeness
from leagues.core.crosstable import Crosstable, crosstable
from leagues.core.player_scores import PlayerScore, player_scores
from leagues.core.rated import RatedGame, rated_games
from leagues.core.table import TableRow, WithdrawalRule, table
from leagues.formats.division_files import games_between
from leagues.models import Board, Division, DivisionPart, Match, Season, Team
from ratings.models import Evaluation, Player

# What the pages and files show of a player and a board: the rest of the rows (timestamps, notes) would only
# cost the time of building them (a division of 10 teams × 8 boards has 720 board sides).
PLAYER_FIELDS = (
    "key",
    "publication_objection",
    "surname",
    "first_name",
    "dwz",
    "index",
    "birth_year",
    "sex",
    "fide_id",
    "fide_elo",
    "dsb_id",
)
BOARD_FIELDS = (
    "match_id", "number", "home_player_id", "away_player_id", "home_white", "result", "rated_result",
    "played_on",
)  # fmt: skip


def _board_rows(boards):
    players = [f"{side}_player__{f}" for side in ("home", "away") for f in PLAYER_FIELDS]
    return boards.select_related("home_player", "away_player").only(*BOARD_FIELDS, *players)


def _boards() -> Prefetch:
    return Prefetch("boards", queryset=_board_rows(Board.objects.order_by("number")))


def _core_board(number, home, away, home_white, result, rated_result, played_on) -> core.Board:
    return core.Board(
        number=number, home=None if home is None else str(home), away=None if away is None else str(away),
        result=result or None, rated_result=rated_result or None, played_on=played_on, home_white=home_white,
    )  # fmt: skip


def core_match(match: Match, boards: Sequence[core.Board]) -> core.Match:
    """``Match.as_core`` with the boards given (read apart from the match)."""
    return core.Match(
        round=match.round, home=str(match.home_id),
        away=None if match.away_id is None else str(match.away_id), date=match.scheduled_date,
        status=match.status, boards=tuple(boards), played_on=match.played_on, cycle=match.cycle,
        id=str(match.pk),
    )  # fmt: skip


@dataclass
class DivisionData:
    division: Division
    parts: Sequence[DivisionPart]  # annotated ``evaluated``: its tournament has stored evaluations
    teams: list[Team]
    matches: list[Match]  # by round, home and away selected
    boards: dict[int, list[core.Board]]  # match pk → its boards for the core, by number
    board_rows: dict[int, list[Board]] | None = None  # match pk → its boards with players (``players=True``)

    @cached_property
    def core_teams(self) -> tuple[core.Team, ...]:
        return tuple(t.as_core() for t in self.teams)

    @cached_property
    def core_matches(self) -> tuple[core.Match, ...]:
        return tuple(core_match(m, self.boards.get(m.pk, ())) for m in self.matches)

    @property
    def withdrawals(self) -> WithdrawalRule:
        return WithdrawalRule(self.division.season.withdrawn_results)

    @cached_property
    def table(self) -> tuple[TableRow, ...]:
        d = self.division
        return table(
            self.core_teams, self.core_matches, boards=d.boards, points=d.match_points,
            tiebreaks=d.tiebreak_order, withdrawals=self.withdrawals,
        )  # fmt: skip

    @cached_property
    def crosstable(self) -> Crosstable:
        order = [row.team for row in self.table]
        return crosstable(
            self.core_teams, self.core_matches, boards=self.division.boards, order=order,
            withdrawals=self.withdrawals,
        )  # fmt: skip

    @cached_property
    def completeness(self) -> tuple[RoundCompleteness, ...]:
        return completeness(
            self.core_teams, self.core_matches, boards=self.division.boards, rounds=self.division.rounds
        )

    @cached_property
    def rated_games(self) -> tuple[RatedGame, ...]:
        return rated_games(self.core_matches, home_white_on_odd=self.division.home_white_on_odd)

    @cached_property
    def player_scores(self) -> tuple[PlayerScore, ...]:
        return player_scores(self.core_matches)

    @cached_property
    def teams_by_id(self) -> dict[str, Team]:
        return {str(t.pk): t for t in self.teams}

    @cached_property
    def players_by_id(self) -> dict[str, Player]:
        """Every player of a board (empty unless read with ``players=True``)."""
        players: dict[str, Player] = {}
        for boards in (self.board_rows or {}).values():
            for board in boards:
                for player in (board.home_player, board.away_player):
                    if player is not None:
                        players[str(player.pk)] = player
        return players

    def rounds(self) -> list[tuple[int, list[Match]]]:
        """The schedule by round: every round of the division, its matches in the order stored."""
        by_round: dict[int, list[Match]] = {}
        for match in self.matches:
            by_round.setdefault(match.round, []).append(match)
        last = max([self.division.rounds, *by_round])
        return [(r, by_round.get(r, [])) for r in range(1, last + 1)]

    def part_games(self, part: DivisionPart) -> tuple[RatedGame, ...]:
        """The rated games of a part: on or after its date, before the next part's (WO 2.2.2)."""
        later = [
            p.from_date
            for p in self.parts
            if p.from_date and (not part.from_date or p.from_date > part.from_date)
        ]
        until = min(later, default=None)
        return games_between(self.rated_games, part.from_date, until)


def division_data(*, pk: int, players: bool = False) -> DivisionData | None:
    """The division with its parts, teams, matches and boards (five queries); None for an unknown id. The
    boards are read as plain values for the core (the table, crosstable, completeness), or with
    ``players`` as rows with their players (the API and the files)."""
    division = (
        Division.objects.select_related("season", "season__organisation", "rating_officer")
        .filter(pk=pk)
        .first()
    )
    if division is None:
        return None
    evaluated = Exists(Evaluation.objects.filter(tournament_id=OuterRef("tournament_id")))
    parts = list(division.parts.select_related("tournament").annotate(evaluated=evaluated).order_by("number"))
    teams = list(division.teams.select_related("club"))
    matches = list(
        division.matches.select_related("home", "away").order_by("round", "cycle", "scheduled_date", "pk")
    )
    boards: dict[int, list[core.Board]] = {}
    if not players:
        for match_id, *values in (
            Board.objects.filter(match__division_id=pk)
            .order_by("match_id", "number")
            .values_list("match_id", "number", "home_player_id", "away_player_id", "home_white", "result",
                         "rated_result", "played_on")
        ):  # fmt: skip
            boards.setdefault(match_id, []).append(_core_board(*values))
        return DivisionData(division, parts, teams, matches, boards)
    rows: dict[int, list[Board]] = {}
    for board in _board_rows(Board.objects.filter(match__division_id=pk).order_by("match_id", "number")):
        rows.setdefault(board.match_id, []).append(board)
        boards.setdefault(board.match_id, []).append(board.as_core())
    return DivisionData(division, parts, teams, matches, boards, rows)


def round_boards(*, division_id: int, round: int) -> dict[int, list[Board]]:
    """The boards of one round's matches with their players, by match (one query)."""
    rows: dict[int, list[Board]] = {}
    boards = Board.objects.filter(match__division_id=division_id, match__round=round).order_by(
        "match_id", "number"
    )
    for board in _board_rows(boards):
        rows.setdefault(board.match_id, []).append(board)
    return rows


@dataclass
class TeamData:
    team: Team
    teams: list[Team]  # the division's, for the opponents' names
    matches: list[Match]  # the team's, by round, boards prefetched
    scores: tuple[PlayerScore, ...] = field(default=())

    @cached_property
    def players_by_id(self) -> dict[str, Player]:
        side = {}
        for match in self.matches:
            for board in match.boards.all():
                if match.home_id == self.team.pk and board.home_player is not None:
                    side[str(board.home_player_id)] = board.home_player
                if match.away_id == self.team.pk and board.away_player is not None:
                    side[str(board.away_player_id)] = board.away_player
        return side


def team_data(*, pk: int) -> TeamData | None:
    """A team with its division, its matches and each of its players' board record (four queries)."""
    team = Team.objects.select_related("division", "division__season", "club").filter(pk=pk).first()
    if team is None:
        return None
    teams = list(team.division.teams.all())
    matches = list(
        Match.objects.filter(Q(home=team) | Q(away=team))
        .select_related("home", "away")
        .order_by("round", "cycle", "scheduled_date", "pk")
        .prefetch_related(_boards())
    )
    scores = player_scores([m.as_core() for m in matches], team=str(team.pk))
    return TeamData(team, teams, matches, scores)


def seasons() -> list[Season]:
    """Every season, the latest first, with its divisions (two queries)."""
    return list(
        Season.objects.select_related("organisation")
        .order_by("-start_date", "-name", "-pk")
        .prefetch_related("divisions")
    )


def season_data(*, pk: int) -> Season | None:
    """A season with its divisions and their teams' count (two queries); None for an unknown id."""
    return (
        Season.objects.select_related("organisation")
        .prefetch_related(Prefetch("divisions", queryset=Division.objects.order_by("level", "name", "pk")))
        .filter(pk=pk)
        .first()
    )


@dataclass(frozen=True)
class BoardRecordRow:
    division: Division
    team: Team
    score: PlayerScore


# A board record's columns: the board, its match, and the names its rows show (``board_record``).
_RECORD_FIELDS = (
    "match_id", "number", "home_player_id", "away_player_id", "result", "rated_result", "played_on",
    "home_white", "match__round", "match__cycle", "match__home_id", "match__away_id", "match__scheduled_date",
    "match__played_on", "match__status", "match__division_id", "match__division__name",
    "match__division__season_id", "match__division__season__name", "match__home__name", "match__away__name",
)  # fmt: skip


def board_record(*, player_id: int) -> list[BoardRecordRow]:
    """A player's board record per division and team, the latest season first (one query).

    Read as plain values, not as boards with their match, division, season and teams: the busiest card of
    the 2 M federation has 827 boards, whose six model instances each were most of the card's time."""
    rows = (
        Board.objects.filter(Q(home_player_id=player_id) | Q(away_player_id=player_id))
        .order_by("match__scheduled_date", "match__round", "number")
        .values_list(*_RECORD_FIELDS)
    )
    matches: dict[int, tuple[tuple, list[core.Board]]] = {}
    teams: dict[str, tuple] = {}  # team id -> (team pk, name, division pk, name, season pk, name)
    for match_id, number, home, away, result, rated, played_on, home_white, *m in rows:
        entry = matches.get(match_id)
        if entry is None:
            entry = matches[match_id] = (tuple(m), [])
            for team_id, name in ((m[2], m[11]), (m[3], m[12])):
                if team_id is not None:
                    teams[str(team_id)] = (team_id, name, m[7], m[8], m[9], m[10])
        entry[1].append(Board.core_of(number, home, away, result, rated, played_on, home_white))
    core_matches = [
        core.Match(
            round=m[0], home=str(m[2]), away=None if m[3] is None else str(m[3]), date=m[4], status=m[6],
            boards=tuple(bs), played_on=m[5], cycle=m[1],
        )
        for m, bs in matches.values()
    ]  # fmt: skip
    divisions: dict[int, Division] = {}
    record = []
    for score in player_scores(core_matches):
        if score.player != str(player_id) or score.team not in teams:
            continue
        team_pk, team_name, division_pk, division_name, season_pk, season_name = teams[score.team]
        division = divisions.get(division_pk)
        if division is None:  # the few model instances the panel links to
            season = Season(pk=season_pk, name=season_name)
            division = divisions[division_pk] = Division(pk=division_pk, name=division_name, season=season)
        record.append(BoardRecordRow(division, Team(pk=team_pk, name=team_name, division=division), score))
    return sorted(record, key=lambda r: (r.division.season.name, r.division.name), reverse=True)
