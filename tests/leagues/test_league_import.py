"""``import_league`` and ``league_import``: the generated division (forfeits, an empty board, a forfeited
match, a postponed match, a sporting result that differs from the rated one) imports, its players' DWZ equal
an independent evaluation of the boards actually played, its end date is the postponed match's day; bad files
name the path and save nothing; the dry run saves nothing; ``--draft`` leaves the tournament a draft."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues.core.contract import parse_league
from leagues.models import Board, Division, DivisionPart, Match
from leagues.services.division_tournament import division_evaluate
from leagues.services.league_import import DryRun, league_import
from ratings.dwz import evaluate
from ratings.dwz.types import GameInput, PlayerInput, TournamentInput
from ratings.models import Evaluation, Game, Player, Tournament, TournamentDraft
from ratings.recalculation import ratings_verify
from tests.leagues.league_data import POSTPONED, clubs, generated_division, played_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def data():
    clubs()
    return generated_division()


def _independent(data: dict) -> dict[str, int | None]:
    games = played_games(data)
    seated = {p for w, b, _r in games for p in (w, b)}
    players = tuple(
        PlayerInput(p["id"], p["birth_year"], p["dwz"], p["index"])
        for p in data["players"]
        if p["id"] in seated
    )
    result = evaluate(
        TournamentInput(
            end_date=POSTPONED, players=players, games=tuple(GameInput(w, b, r) for w, b, r in games)
        )
    )
    return {r.id: r.dwz_new for r in result.players}


def test_generated_division_equals_independent_evaluation(data):
    result = league_import(league=parse_league(data))
    assert result.evaluated_parts == 1
    part = DivisionPart.objects.get(division=result.division)
    tournament = part.tournament
    assert tournament.end_date == POSTPONED
    expected = _independent(data)
    got = dict(Evaluation.objects.filter(tournament=tournament).values_list("player__key", "dwz_new"))
    assert got == expected
    # One game per board actually played; forfeits, the empty board and the forfeited match are not rated.
    assert Game.objects.filter(tournament=tournament).count() == len(played_games(data))
    assert not TournamentDraft.objects.filter(tournament=tournament).exists()
    # The sporting result is the table's, the rated one the game's.
    board = Board.objects.get(match__round=5, match__home__name="SV Ost 1", number=1)
    assert (board.result, board.rated_result) == ("1-0", "0-1")
    assert board.game is not None and board.game.result == "0-1"  # board 1: home has white
    forfeited = Match.objects.get(round=2, home__name="SK Nord 1")
    assert (forfeited.home_board_points_halves, forfeited.away_board_points_halves) == (8, 0)
    assert (forfeited.home_match_points, forfeited.away_match_points) == (2, 0)
    assert Player.objects.get(key="P11").dwz == expected["P11"]
    assert ratings_verify() == []


def test_draft_keeps_a_preview_and_nothing_rated(data):
    result = league_import(league=parse_league(data), draft=True)
    tournament = DivisionPart.objects.get(division=result.division).tournament
    draft = TournamentDraft.objects.get(tournament=tournament)
    assert len(draft.games) == len(played_games(data))
    assert not Evaluation.objects.filter(tournament=tournament).exists()
    assert tournament.end_date == POSTPONED
    assert ratings_verify() == []
    # The rating officer's "Auswerten" later gives the same ratings as the import without --draft.
    assert division_evaluate(division=result.division) == 1
    got = dict(Evaluation.objects.filter(tournament=tournament).values_list("player__key", "dwz_new"))
    assert got == _independent(data)
    assert ratings_verify() == []


def test_dry_run_saves_nothing(data):
    with pytest.raises(DryRun):
        league_import(league=parse_league(data), dry_run=True)
    assert not Division.objects.exists() and not Tournament.objects.exists() and not Player.objects.exists()


def test_command_names_the_path_and_saves_nothing(data, tmp_path):
    data["matches"][2]["boards"][2]["away"] = "P99"
    path = tmp_path / "liga.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as exc:
        call_command("import_league", str(path))
    assert "matches[2].boards[2].away: unknown player id" in str(exc.value)
    assert not Division.objects.exists() and not Player.objects.exists()


def test_command_refuses_an_unknown_club(data, tmp_path):
    data["teams"][1]["club"] = "C0999"
    path = tmp_path / "liga.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as exc:
        call_command("import_league", str(path))
    assert "teams[1].club: unknown club" in str(exc.value)


def test_command_dry_run_and_draft(data, tmp_path, capsys):
    path = tmp_path / "liga.json"
    path.write_text(json.dumps(data))
    call_command("import_league", str(path), "--dry-run")
    assert not Division.objects.exists()
    call_command("import_league", str(path), "--draft")
    assert Division.objects.count() == 1
    assert not Evaluation.objects.exists()


def _with_reserves(data: dict, reserves: int) -> dict:
    """The division with ``reserves`` more players at the end of every team's line-up (never playing)."""
    for t, team in enumerate(data["teams"]):
        for k in range(reserves):
            pid = f"R{t + 1}{k + 1}"
            data["players"].append(
                {"id": pid, "name": f"Ersatz{t + 1}{k + 1}, Test", "birth_year": 1990, "dwz": None}
            )
            team["line_up"].append(pid)
    return data


def _line_up_queries(data: dict) -> int:
    """The queries of an import that read or write the memberships and the ranking lists' entries."""
    with CaptureQueriesContext(connection) as queries:
        league_import(league=parse_league(data), draft=True)
    tables = ('"ratings_membership"', '"leagues_rankingentry"')
    return sum(1 for q in queries.captured_queries if any(t in q["sql"] for t in tables))


@pytest.mark.parametrize("reserves", [0, 6])
def test_line_ups_cost_queries_per_team_not_per_player(reserves):
    """Issue 29 (review): two reads and two inserts per team for the memberships and ranking entries of
    its line-up, however long (two to four queries per player before)."""
    clubs()
    assert _line_up_queries(_with_reserves(generated_division(), reserves)) <= 25  # 4 teams, 2 clubs
