"""The league services: the division's DWZ tournament follows every approved change (and nothing before
approval), forfeits and empty boards are never rated, the end date moves with a postponed match, the
officer's split into parts, the ranking list's DWZ at the reference date, the roles' scopes;
``ratings_verify`` is clean after each step."""

import datetime

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError

from leagues.models import Board, DivisionPart, RankingEntry
from leagues.services.division_tournament import division_evaluate, division_split
from leagues.services.matches import (
    BoardReport,
    board_result_change,
    match_approve,
    match_report_save,
    match_status_set,
)
from leagues.services.ranking import ranking_snapshot
from leagues.services.roles import captain_invite
from ratings.enums import AdjustmentKind
from ratings.models import Evaluation, Game, RatingAdjustment, Tournament, TournamentDraft
from ratings.recalculation import ratings_verify
from ratings.services import adjustment_save
from tests.builders import make_tournament
from tests.leagues.league_data import small_league

pytestmark = pytest.mark.django_db
D = datetime.date


@pytest.fixture
def league():
    return small_league(boards=4)


def _report(league, match, results, *, swap=False):
    home, away = league["players"][::-1] if swap else league["players"]
    return [BoardReport(n, home[n - 1].pk, away[n - 1].pk, r) for n, r in enumerate(results, start=1)]


def _part(league):
    return DivisionPart.objects.select_related("tournament").get(division=league["division"], number=1)


def test_reported_is_not_rated_until_approved_then_a_draft_until_evaluated(league):
    m = league["match1"]
    match_report_save(
        match=m, boards=_report(league, m, ["1-0", "0-1", "1/2-1/2", "+-"]), user=league["captain1"]
    )
    m.refresh_from_db()
    assert (m.home_board_points_halves, m.away_board_points_halves, m.home_match_points) == (5, 3, 2)
    assert not DivisionPart.objects.exists() and not Tournament.objects.exists()
    match_approve(match=m, user=league["director"])
    part = _part(league)
    draft = TournamentDraft.objects.get(tournament=part.tournament)
    assert len(draft.games) == 3  # the forfeit on board 4 is not a game
    assert {g["white"] for g in draft.games} == {
        league["players"][0][0].pk,
        league["players"][1][1].pk,
        league["players"][0][2].pk,
    }
    assert not Evaluation.objects.exists()
    assert part.tournament.end_date == D(2025, 10, 5)
    assert ratings_verify() == []
    assert division_evaluate(division=league["division"], user=league["officer"]) == 1
    assert Evaluation.objects.filter(tournament=part.tournament).count() == 6
    assert Board.objects.filter(match=m, game__isnull=False).count() == 3
    assert ratings_verify() == []


def test_evaluated_tournament_follows_approved_changes_and_the_postponed_day(league):
    m1, m2 = league["match1"], league["match2"]
    match_report_save(match=m1, boards=_report(league, m1, ["1-0"] * 4), user=league["captain1"])
    match_approve(match=m1, user=league["director"])
    division_evaluate(division=league["division"], user=league["officer"])
    tournament = _part(league).tournament
    # The director scores board 1 as lost for the table; the game keeps its real result.
    board = Board.objects.get(match=m1, number=1)
    board_result_change(board=board, result="0-1", user=league["director"])
    board.refresh_from_db()
    assert (board.result, board.rated_result) == ("0-1", "1-0")
    assert set(Game.objects.filter(tournament=tournament).values_list("result", flat=True)) == {"1-0", "0-1"}
    assert ratings_verify() == []
    # Round 2 postponed into January: the end date moves, the evaluation follows at once.
    m2.played_on = D(2026, 1, 11)
    m2.save()
    match_report_save(
        match=m2, boards=_report(league, m2, ["1/2-1/2"] * 4, swap=True), user=league["captain2"]
    )
    match_approve(match=m2, user=league["director"])
    tournament.refresh_from_db()
    assert tournament.end_date == D(2026, 1, 11)
    assert Game.objects.filter(tournament=tournament).count() == 8
    assert Evaluation.objects.filter(tournament=tournament, n=2).count() == 8
    # Every board points to its new game (the replaced games are new rows).
    linked = Board.objects.filter(match__division=league["division"], game__tournament=tournament)
    assert [{b.game.white_id, b.game.black_id} for b in linked.select_related("game")] == [
        {b.home_player_id, b.away_player_id} for b in linked
    ]
    assert linked.count() == 8
    assert ratings_verify() == []
    # A forfeited match takes its games out again.
    match_status_set(match=m2, status="home_forfeit", user=league["director"])
    tournament.refresh_from_db()
    assert tournament.end_date == D(2025, 10, 5)
    assert Game.objects.filter(tournament=tournament).count() == 4
    m2.refresh_from_db()
    assert (m2.home_match_points, m2.away_match_points, m2.away_board_points_halves) == (0, 2, 8)
    assert ratings_verify() == []


def test_split_into_parts_after_a_break(league):
    m1, m2 = league["match1"], league["match2"]
    for m, swap, user in ((m1, False, "captain1"), (m2, True, "captain2")):
        match_report_save(match=m, boards=_report(league, m, ["1-0"] * 4, swap=swap), user=league[user])
        match_approve(match=m, user=league["director"])
    with pytest.raises(ValidationError):
        division_split(division=league["division"], from_dates=[D(2025, 11, 1)], user=league["officer"])
    parts = division_split(division=league["division"], from_dates=[D(2025, 12, 21)], user=league["officer"])
    assert [p.number for p in parts] == [1, 2]
    division_evaluate(division=league["division"], user=league["officer"])
    ends = [
        p.tournament.end_date
        for p in DivisionPart.objects.filter(division=league["division"]).select_related("tournament")
    ]
    assert ends == [D(2025, 10, 5), D(2025, 12, 21)]
    assert Evaluation.objects.count() == 16
    assert ratings_verify() == []
    division_split(division=league["division"], from_dates=[], user=league["officer"])
    assert DivisionPart.objects.filter(division=league["division"]).count() == 1
    assert Game.objects.filter(tournament=_part(league).tournament).count() == 8
    assert ratings_verify() == []


def test_ranking_snapshot_is_the_dwz_at_the_reference_date(league):
    player = league["players"][0][0]  # start value 2100
    opponent = league["players"][1][0]
    make_tournament([player, opponent], [(1, player, opponent, "1-0")], end=D(2025, 7, 20), name="Sommer")
    before = Evaluation.objects.get(tournament__name="Sommer", player=player).dwz_new
    make_tournament(
        [player, opponent], [(1, player, opponent, "0-1")], end=D(2025, 8, 2), name="Nach Stichtag"
    )
    entry = RankingEntry.objects.get(player=player)
    ranking_snapshot(ranking_list=entry.ranking_list)
    entry.refresh_from_db()
    assert before != 2100 and entry.dwz == before
    player.refresh_from_db()
    assert player.dwz != before  # today's DWZ is another
    adjustment_save(
        adjustment=RatingAdjustment(
            player=player, kind=AdjustmentKind.CORRECTION, dwz=1999, index=5, date=D(2025, 7, 25)
        )
    )
    ranking_snapshot(ranking_list=entry.ranking_list)
    entry.refresh_from_db()
    assert (entry.dwz, entry.dwz_index) == (1999, 5)


def test_captain_scope(league):
    m1, m2 = league["match1"], league["match2"]
    boards = _report(league, m1, ["1-0"] * 4)
    outsider = small_league_outsider(league)
    with pytest.raises(PermissionDenied):
        match_report_save(match=m1, boards=boards, user=outsider)
    match_report_save(match=m1, boards=boards, user=league["captain2"])  # the opposing captain may correct
    with pytest.raises(PermissionDenied):
        match_approve(match=m1, user=league["captain1"])
    match_approve(match=m1, user=league["director"])
    with pytest.raises(PermissionDenied):
        match_report_save(match=m1, boards=boards, user=league["captain1"])
    with pytest.raises(PermissionDenied):
        board_result_change(
            board=Board.objects.filter(match=m1).first(), result="0-1", user=league["captain1"]
        )
    assert m2.pk  # his other match stays open to him
    match_report_save(match=m2, boards=_report(league, m2, ["1-0"] * 4, swap=True), user=league["captain1"])


def small_league_outsider(league):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username="fremd", password="geheim-123")


def test_invitation_creates_the_captain_and_mails_him(league):
    team = league["teams"][0]
    captain_invite(team=team, email="Neu@Example.org", user=league["director"])
    team.refresh_from_db()
    assert team.captain.email == "neu@example.org"
    assert len(mail.outbox) == 1 and "neu@example.org" in mail.outbox[0].to
    with pytest.raises(PermissionDenied):
        captain_invite(team=team, email="x@example.org", user=league["captain1"])


def test_a_board_with_an_empty_side_cannot_be_played(league):
    m = league["match1"]
    boards = [BoardReport(1, league["players"][0][0].pk, None, "1-0")]
    with pytest.raises(ValidationError):
        match_report_save(match=m, boards=boards, user=league["captain1"])


def test_a_bye_is_stored_and_never_rated(league):
    from leagues.models import Match

    bye = Match.objects.create(
        division=league["division"],
        round=2,
        home=league["teams"][0],
        away=None,
        scheduled_date=D(2025, 12, 21),
        status="bye",
    )
    league["match2"].delete()
    match_approve(match=bye, user=league["director"])
    bye.refresh_from_db()
    assert bye.home_match_points is None  # a bye counts for nobody
    assert not DivisionPart.objects.exists() and not Tournament.objects.exists()
    assert ratings_verify() == []
