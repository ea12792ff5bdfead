"""The federation bench's league rows (issue 29): the generator's league seasons become divisions whose
teams, matches and boards agree with the league tournaments it writes."""

import sys
from collections import Counter
from pathlib import Path

import pytest

from leagues.models import Board, Division, Match, Season, Team
from ratings.models import Game, Tournament

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import federation  # the bench is a script directory, not a package

pytestmark = pytest.mark.django_db


@pytest.fixture
def generated():
    fed = federation.build(12000, seed=3)
    counts = federation.write(fed, seed=3)
    return fed, counts


def test_every_league_tournament_is_a_division_with_its_teams_matches_and_boards(generated):
    fed, counts = generated
    leagues = [p for p in fed.plans if p.kind.startswith("league")]
    assert leagues and counts["league_divisions"] == Division.objects.count() == len(leagues)
    for plan in leagues:
        teams, boards = map(int, plan.kind.split(":")[1:])
        division = Division.objects.get(parts__tournament_id=plan.pk)
        assert (division.boards, division.rounds) == (boards, teams - 1)
        assert Team.objects.filter(division=division).count() == teams
        matches = Match.objects.filter(division=division)
        assert matches.count() == teams // 2 * (teams - 1)
        assert not matches.filter(approved_at__isnull=True).exists()
        assert set(matches.exclude(status="played").values_list("pk", flat=True)) == set()
        days = sorted(set(matches.values_list("scheduled_date", flat=True)))
        assert (days[0], days[-1], len(days)) == (plan.start, plan.end, teams - 1)
    # A season per season year and organiser.
    seasons = {(p.end.year, -p.organiser) for p in leagues}
    assert Season.objects.count() == len(seasons)


def test_boards_are_the_tournaments_games_from_the_home_side(generated):
    division = Division.objects.order_by("pk").first()
    tournament = Tournament.objects.get(league_part__division=division)
    games = Counter(
        (r, w, b, res)
        for r, w, b, res in Game.objects.filter(tournament=tournament).values_list(
            "round", "white_id", "black_id", "result"
        )
    )
    flip = federation.FLIP
    boards: Counter = Counter()
    for b in Board.objects.filter(match__division=division).select_related("match"):
        home_white = b.number % 2 == 1  # home has white on odd boards (the division's default)
        if home_white:
            boards[(b.match.round, b.home_player_id, b.away_player_id, b.result)] += 1
        else:
            boards[(b.match.round, b.away_player_id, b.home_player_id, flip[b.result])] += 1
    assert boards == games  # forfeits included, as forfeits
    # The played boards (the division's rated games) agree with the tournament, for every division.
    assert federation.league_disagreements(divisions=Division.objects.all()) == []


def test_match_points_are_the_boards(generated):
    match = Match.objects.order_by("pk").first()
    halves = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1), "+-": (2, 0), "-+": (0, 2), "--": (0, 0)}
    home = sum(halves[b.result][0] for b in match.boards.all())
    away = sum(halves[b.result][1] for b in match.boards.all())
    assert (match.home_board_points_halves, match.away_board_points_halves) == (home, away)
    expected = (2, 0) if home > away else (0, 2) if home < away else (1, 1)
    assert (match.home_match_points, match.away_match_points) == expected
