"""Import of a whole division in the league contract (``leagues.core.contract``), all or nothing: the
season (found or made), the division, its teams and ranking lists, unknown players with their start values,
the matches as approved reports, the DWZ tournament; evaluated as the rating officer's "Auswerten" would,
unless ``draft``. What the contract cannot see (a federation, club or division of the database) is checked
first, every problem naming its JSON path."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from leagues.core.contract import ContractError, LeagueInput
from leagues.core.table import match_score
from leagues.models import Board, Division, Match, RankingEntry, RankingList, Season, Team
from ratings.enums import AdjustmentKind
from ratings.models import Club, Membership, Organisation, Player, RatingAdjustment
from ratings.models.player import is_player_key
from ratings.recalculation import lock_ratings
from ratings.services import adjustment_save

from .division_tournament import division_evaluate, division_tournament_sync
from .ranking import ranking_snapshot


@dataclass
class LeagueImportResult:
    division: Division
    created_players: list[str] = field(default_factory=list)
    matches: int = 0
    boards: int = 0
    evaluated_parts: int = 0


class DryRun(Exception):
    """Rolls the dry run's transaction back, carrying what it would have done."""

    def __init__(self, result: LeagueImportResult) -> None:
        super().__init__("dry run")
        self.result = result


def _database_errors(league: LeagueInput) -> list[str]:
    errors = []
    code = league.season.organisation
    if code is not None and not Organisation.objects.filter(code=code).exists():
        errors.append(f"season.organisation: unknown federation {code!r}")
    season = Season.objects.filter(organisation__code=code, name=league.season.name).first()
    if season is not None and Division.objects.filter(season=season, name=league.division.name).exists():
        errors.append(
            f"division.name: {league.division.name!r} exists already in season {league.season.name!r}"
        )
    clubs = set(
        Club.objects.filter(zps__in=[t.club for t in league.teams if t.club]).values_list("zps", flat=True)
    )
    for i, team in enumerate(league.teams):
        if team.club is None:
            errors.append(f"teams[{i}].club: missing (the import needs the team's club)")
        elif team.club not in clubs:
            errors.append(f"teams[{i}].club: unknown club {team.club!r}")
        if len(team.name) > 100:
            errors.append(f"teams[{i}].name: longer than 100 characters")
    for i, player in enumerate(league.players):
        if not is_player_key(player.id):
            errors.append(f"players[{i}].id: not a player key (letters, digits and hyphens): {player.id!r}")
    return errors


def _split_name(name: str | None, key: str) -> tuple[str, str]:
    if not name:
        return key, ""
    if "," in name:
        surname, first = name.split(",", 1)
        return surname.strip()[:100], first.strip()[:100]
    parts = name.rsplit(" ", 1)
    return (parts[1][:100], parts[0][:100]) if len(parts) == 2 else (name[:100], "")


def _players(league: LeagueInput, user) -> tuple[dict[str, Player], list[str]]:
    stored = {p.key: p for p in Player.objects.filter(key__in=[p.id for p in league.players])}
    created = []
    for raw in league.players:
        if raw.id in stored:
            continue
        surname, first = _split_name(league.names.get(raw.id), raw.id)
        player = Player.objects.create(
            key=raw.id, surname=surname, first_name=first, birth_year=raw.birth_year
        )
        if raw.dwz is not None or raw.fide_elo is not None:
            adjustment_save(
                adjustment=RatingAdjustment(
                    player=player,
                    kind=AdjustmentKind.START,
                    dwz=raw.dwz,
                    index=(raw.index or 0) if raw.dwz is not None else None,
                    fide_elo=raw.fide_elo if raw.dwz is None else None,
                    reason="Import Mannschaftskampf",
                ),
                user=user,
            )
        stored[raw.id] = player
        created.append(raw.id)
    return stored, created


def _season(league: LeagueInput) -> Season:
    org = (
        Organisation.objects.filter(code=league.season.organisation).first()
        if league.season.organisation
        else None
    )
    season, _created = Season.objects.get_or_create(
        organisation=org, name=league.season.name, defaults={"reference_date": league.season.reference_date}
    )
    return season


def _division(league: LeagueInput, season: Season, user) -> Division:
    d = league.division
    return Division.objects.create(
        season=season,
        name=d.name,
        boards=d.boards,
        rounds=d.rounds,
        cycles=d.cycles,
        points_win=d.points.win,
        points_draw=d.points.draw,
        points_loss=d.points.loss,
        time_control=d.time_control or "",
        rating_officer=user if getattr(user, "pk", None) else None,
    )


def _teams(league: LeagueInput, division: Division, players: dict[str, Player]) -> dict[str, Team]:
    clubs = {c.zps: c for c in Club.objects.filter(zps__in=[t.club for t in league.teams])}
    teams = {}
    lists: dict[str, RankingList] = {}
    ranks: dict[str, int] = {}
    for draw, t in enumerate(sorted(league.teams, key=lambda t: (t.club or "", t.number)), start=1):
        club = clubs[t.club or ""]
        teams[t.id] = Team.objects.create(
            division=division, club=club, number=t.number, name=t.name, draw_number=draw
        )
        ranking = lists.get(club.zps)
        if ranking is None:
            ranking, _c = RankingList.objects.get_or_create(season=division.season, club=club)
            lists[club.zps] = ranking
            ranks[club.zps] = ranking.entries.count()
        ranks[club.zps] = _line_up(
            ranking, club, [players[pid] for pid in t.line_up], t.number, ranks[club.zps]
        )
    for ranking in lists.values():
        ranking_snapshot(ranking_list=ranking)
    return teams


def _line_up(ranking: RankingList, club: Club, line_up: list[Player], team_number: int, rank: int) -> int:
    """The team's line-up members of the club and on its ranking list (after the ``rank`` entries it holds),
    those not yet: two reads and two inserts per team, not two to four queries per player. Returns the
    ranking list's last rank."""
    pks = [p.pk for p in line_up]
    members = set(Membership.objects.filter(player_id__in=pks, club=club).values_list("player_id", flat=True))
    Membership.objects.bulk_create(Membership(player=p, club=club) for p in line_up if p.pk not in members)
    listed = set(ranking.entries.filter(player_id__in=pks).values_list("player_id", flat=True))
    entries = []
    for player in line_up:
        if player.pk not in listed:
            rank += 1
            entries.append(
                RankingEntry(ranking_list=ranking, player=player, rank=rank, team_number=team_number)
            )
    RankingEntry.objects.bulk_create(entries)
    return rank


def _matches(
    league: LeagueInput, division: Division, teams: dict[str, Team], players: dict[str, Player]
) -> int:
    now = timezone.now()
    boards = 0
    for m in league.matches:
        match = Match.objects.create(
            division=division,
            round=m.round,
            cycle=m.cycle,
            home=teams[m.home],
            away=teams[m.away] if m.away else None,
            scheduled_date=m.date,
            status=m.status,
            approved_at=now,
            reported_at=now,
        )
        rows = [
            Board(
                match=match,
                number=b.number,
                home_player=players[b.home] if b.home else None,
                away_player=players[b.away] if b.away else None,
                result=b.result or "",
                rated_result=b.rated_result if b.rated_result and b.rated_result != b.result else "",
            )
            for b in m.boards
        ]
        Board.objects.bulk_create(rows)
        boards += len(rows)
        score = match_score(match.as_core(), division.boards, division.match_points)
        if score is not None:
            match.home_board_points_halves, match.away_board_points_halves = (
                score.home_halves,
                score.away_halves,
            )
            match.home_match_points, match.away_match_points = (
                score.home_match_points,
                score.away_match_points,
            )
            match.save()
    return len(league.matches)


def league_import(
    *, league: LeagueInput, user=None, draft: bool = False, dry_run: bool = False
) -> LeagueImportResult:
    """Import ``league`` (parsed by ``parse_league``) whole or not at all; raises ``ContractError`` with
    every problem the database finds. ``dry_run``: everything is done and rolled back (``DryRun``)."""
    errors = _database_errors(league)
    if errors:
        raise ContractError(errors)
    with transaction.atomic():
        lock_ratings()
        players, created = _players(league, user)
        season = _season(league)
        division = _division(league, season, user)
        teams = _teams(league, division, players)
        result = LeagueImportResult(division=division, created_players=created)
        result.matches = _matches(league, division, teams, players)
        result.boards = Board.objects.filter(match__division=division).count()
        division_tournament_sync(division=division, user=user)
        if not draft:
            result.evaluated_parts = division_evaluate(division=division, user=user)
        if dry_run:
            raise DryRun(result)
    return result
