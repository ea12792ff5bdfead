"""The league models against the real database: good rows save, the constraints refuse bad ones."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from leagues.core.table import Tiebreak
from leagues.models import (
    Board,
    Division,
    DivisionPart,
    Match,
    MatchStatus,
    RankingEntry,
    RankingList,
    Season,
    Team,
)
from tests.factories import ClubFactory, OrganisationFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db
DAY = datetime.date(2025, 9, 14)


@pytest.fixture
def league():
    organisation = OrganisationFactory(code="C05", name="Bezirk Stuttgart")
    season = Season.objects.create(
        organisation=organisation, name="2025/26", reference_date=datetime.date(2025, 8, 1)
    )
    director = UserFactory(username="staffelleiter")
    division = Division.objects.create(
        season=season, name="Bezirksliga Nord", boards=8, rounds=9, director=director
    )
    alpha, beta = ClubFactory(zps="C0501", name="SK Alpha"), ClubFactory(zps="C0502", name="SV Beta")
    home = Team.objects.create(division=division, club=alpha, number=1, name="SK Alpha 1", draw_number=1)
    away = Team.objects.create(division=division, club=beta, number=1, name="SV Beta 1", draw_number=2)
    return division, home, away


def refused(**kwargs):
    model = kwargs.pop("model")
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.create(**kwargs)


def test_a_whole_match(league):
    division, home, away = league
    match = Match.objects.create(division=division, round=1, home=home, away=away, scheduled_date=DAY)
    p, q = PlayerFactory(surname="Alpha"), PlayerFactory(surname="Beta")
    board = Board.objects.create(match=match, number=1, home_player=p, away_player=q, result="1-0")
    empty = Board.objects.create(match=match, number=2, home_player=None, away_player=q, result="-+")
    assert str(match) == "R1: SK Alpha 1 – SV Beta 1"
    assert str(board).endswith("Brett 1: Alpha, " + p.first_name + " – Beta, " + q.first_name + " 1-0")
    assert "–" in str(empty)
    assert match.date == DAY
    match.played_on = DAY + datetime.timedelta(days=30)
    assert match.date == match.played_on
    assert list(p.league_home_boards.all()) == [board]
    assert division.tiebreak_order == (Tiebreak.MATCH_POINTS, Tiebreak.BOARD_POINTS, Tiebreak.DIRECT)
    assert str(division) == "Bezirksliga Nord 2025/26"
    assert str(division.season) == "2025/26 (C05)"
    assert division.director.directed_divisions.get() == division


def test_match_constraints(league):
    division, home, away = league
    base = {"model": Match, "division": division, "scheduled_date": DAY}
    refused(**base, round=1, home=home, away=home)  # home = away
    refused(**base, round=0, home=home, away=away)
    refused(**base, round=1, home=home, away=None)  # no opponent, not a bye
    refused(**base, round=1, home=home, away=away, status=MatchStatus.BYE)  # a bye with an opponent
    refused(**base, round=1, home=home, away=away, cycle=3)
    Match.objects.create(division=division, round=1, home=home, away=away, scheduled_date=DAY)
    refused(**base, round=1, home=home, away=None, status=MatchStatus.BYE)  # home twice in round 1
    bye = Match(division=division, round=2, home=away, away=None, status=MatchStatus.BYE, scheduled_date=DAY)
    bye.full_clean()
    bye.save()
    clash = Match(division=division, round=2, home=home, away=away, scheduled_date=DAY)
    with pytest.raises(ValidationError):
        clash.full_clean()  # away plays (home) already in round 2
    other = Division.objects.create(season=division.season, name="Kreisliga", rounds=7)
    stranger = Team.objects.create(division=other, club=home.club, number=2, name="SK Alpha 2")
    with pytest.raises(ValidationError):
        Match(division=division, round=3, home=home, away=stranger, scheduled_date=DAY).full_clean()


def test_board_constraints(league):
    division, home, away = league
    match = Match.objects.create(division=division, round=1, home=home, away=away, scheduled_date=DAY)
    p = PlayerFactory()
    Board.objects.create(match=match, number=1, home_player=p, result="1/2-1/2")
    refused(model=Board, match=match, number=1)  # board 1 twice
    refused(model=Board, match=match, number=0)
    refused(model=Board, match=match, number=2, home_player=p, away_player=p)
    refused(model=Board, match=match, number=3, result="2-0")
    refused(model=Board, match=match, number=3, rated_result="+")
    with pytest.raises(ValidationError) as info:
        Board(match=match, number=9).full_clean()
    assert info.value.message_dict["number"] == ["Die Staffel spielt an 8 Brettern."]
    Board(match=match, number=8).full_clean()


def test_season_division_team_constraints(league):
    division, home, _away = league
    season = division.season
    refused(model=Season, organisation=season.organisation, name="2025/26", reference_date=DAY)
    Season.objects.create(name="2025/26", reference_date=DAY)  # without an organisation: once
    refused(model=Season, name="2025/26", reference_date=DAY)
    refused(model=Season, name="x", reference_date=DAY, rule_400_width=0)
    refused(
        model=Season, name="y", reference_date=DAY, start_date=DAY, end_date=DAY - datetime.timedelta(days=1)
    )
    refused(model=Division, season=season, name="Bezirksliga Nord", rounds=9)
    refused(model=Division, season=season, name="a", rounds=9, boards=0)
    refused(model=Division, season=season, name="b", rounds=0)
    refused(model=Division, season=season, name="c", rounds=7, cycles=3)
    refused(model=Division, season=season, name="d", rounds=7, points_win=1, points_draw=2)
    refused(model=Team, division=division, club=home.club, number=1, name="SK Alpha 1b")  # team number twice
    refused(model=Team, division=division, club=home.club, number=2, name="SK Alpha 1")  # name twice
    refused(model=Team, division=division, club=home.club, number=2, name="SK Alpha 2", draw_number=1)
    refused(model=Team, division=division, club=home.club, number=0, name="SK Alpha 0")
    # The team number is unique per club in the whole season (checked by clean(): another division).
    other = Division.objects.create(season=season, name="Kreisliga", rounds=7)
    second = Team(division=other, club=home.club, number=1, name="SK Alpha 1")
    with pytest.raises(ValidationError) as info:
        second.full_clean()
    assert "number" in info.value.message_dict
    Team(division=other, club=home.club, number=2, name="SK Alpha 2").full_clean()


def test_division_parts(league):
    division, _home, _away = league
    tournament = TournamentFactory()
    whole = DivisionPart.objects.create(division=division, tournament=tournament)
    assert tournament.league_part == whole
    assert str(whole) == "Bezirksliga Nord 2025/26, Teil 1"
    DivisionPart.objects.create(
        division=division, number=2, from_date=datetime.date(2026, 4, 1), from_round=9
    )
    refused(model=DivisionPart, division=division, number=3)  # a second part from the start
    refused(model=DivisionPart, division=division, number=1, from_date=DAY)  # part 1 starts at the start
    refused(model=DivisionPart, division=division, number=2, from_date=DAY)  # number twice
    refused(model=DivisionPart, division=division, number=4, from_date=datetime.date(2026, 4, 1))
    refused(model=DivisionPart, division=division, number=5, from_date=DAY, tournament=tournament)


def test_ranking_list(league):
    division, home, _away = league
    ranking = RankingList.objects.create(season=division.season, club=home.club)
    p, q = PlayerFactory(surname="Erster"), PlayerFactory(surname="Zweiter")
    first = RankingEntry.objects.create(ranking_list=ranking, player=p, rank=1, team_number=1, dwz=1850)
    assert str(first).startswith("1. Erster")
    assert str(ranking) == "SK Alpha 2025/26 (offen)"
    refused(model=RankingEntry, ranking_list=ranking, player=p, rank=2)  # a player twice
    refused(model=RankingEntry, ranking_list=ranking, player=q, rank=1)  # a rank twice
    refused(model=RankingEntry, ranking_list=ranking, player=q, rank=0)
    refused(model=RankingEntry, ranking_list=ranking, player=q, rank=3, team_number=0)
    refused(model=RankingList, season=division.season, club=home.club)  # the same group twice
    RankingList.objects.create(season=division.season, club=home.club, group="youth")


def test_the_models_feed_the_core(league):
    from leagues.core.eligibility import RankingEntry as CoreEntry
    from leagues.core.eligibility import Rules, eligibility
    from leagues.core.table import WithdrawalRule, table
    from leagues.core.types import Board as CoreBoard

    division, home, away = league
    home.match_point_deduction = 1
    home.save()
    p, q = PlayerFactory(), PlayerFactory()
    match = Match.objects.create(
        division=division, round=1, home=home, away=away, scheduled_date=DAY, status=MatchStatus.PLAYED
    )
    Board.objects.create(
        match=match, number=1, home_player=p, away_player=q, result="1-0", rated_result="0-1"
    )
    Board.objects.create(match=match, number=2, home_player=None, away_player=q, result="-+")
    core_match = Match.objects.prefetch_related("boards").get().as_core()
    assert core_match.boards == (
        CoreBoard(1, str(p.pk), str(q.pk), "1-0", "0-1"),
        CoreBoard(2, None, str(q.pk), "-+"),
    )
    assert core_match.home == str(home.pk) and core_match.away == str(away.pk) and core_match.day == DAY
    teams = [t.as_core() for t in Team.objects.all()]
    rows = table(
        teams, [core_match], boards=2, points=division.match_points, tiebreaks=division.tiebreak_order
    )
    # 1:1 on the boards, a draw: 1 match point each, the home team's docked one.
    assert [(r.team, r.match_points, r.board_points) for r in rows] == [
        (str(away.pk), 1, 2),
        (str(home.pk), 0, 2),
    ]
    assert division.season.withdrawal_rule == WithdrawalRule.ANNUL
    assert division.season.rules == Rules()
    ranking = RankingList.objects.create(season=division.season, club=home.club)
    RankingEntry.objects.create(ranking_list=ranking, player=p, rank=1, dwz=1600, exception_note="genehmigt")
    assert ranking.as_core().entries == (CoreEntry(str(p.pk), 1, None, dwz=1600, exception=True),)
    warnings = eligibility(teams, [core_match], {ranking.club.zps: ranking.as_core()})
    # p is on SK Alpha's list; SV Beta has none, so q is warned on both boards.
    assert [(w.players, w.board) for w in warnings] == [((str(q.pk),), 1), ((str(q.pk),), 2)]
