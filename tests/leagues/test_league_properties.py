"""Hypothesis properties of the league core: any division, any results."""

from __future__ import annotations

import datetime
import itertools

from hypothesis import given
from hypothesis import strategies as st

from leagues.core.completeness import completeness
from leagues.core.rated import PART_GAP, end_date, proposed_parts, rated_games
from leagues.core.table import Tiebreak, match_score, table
from leagues.core.types import PLAYED_RESULTS, RESULT_CODES, Board, Match, MatchPoints, MatchStatus, Team

START = datetime.date(2025, 9, 1)
STATUSES = [s.value for s in MatchStatus if s != MatchStatus.BYE]
DECISIVE = ["1-0", "0-1", "1/2-1/2", "+-", "-+"]


@st.composite
def boards_of(draw, n: int, *, complete: bool = False) -> tuple[Board, ...]:
    result = []
    for number in range(1, n + 1):
        if complete:
            result.append(Board(number, f"h{number}", f"a{number}", draw(st.sampled_from(DECISIVE))))
            continue
        home = draw(st.sampled_from([f"h{number}", None]))
        away = draw(st.sampled_from([f"a{number}", None]))
        code = draw(st.one_of(st.none(), st.sampled_from(sorted(RESULT_CODES))))
        rated = draw(st.one_of(st.none(), st.sampled_from(sorted(RESULT_CODES))))
        result.append(Board(number, home, away, code, rated))
    return tuple(result)


@st.composite
def divisions(draw):
    n = draw(st.integers(2, 6))
    boards = draw(st.integers(1, 8))
    teams = [Team(chr(65 + k)) for k in range(n)]
    matches = []
    for k in range(draw(st.integers(0, 12))):
        home, away = draw(st.lists(st.sampled_from(teams), min_size=2, max_size=2, unique=True))
        status = draw(st.sampled_from(STATUSES))
        day = START + datetime.timedelta(days=draw(st.integers(0, 300)))
        bs = draw(boards_of(boards)) if status == MatchStatus.PLAYED else ()
        matches.append(Match(k + 1, home.id, away.id, day, status, bs))
    points = draw(st.sampled_from([MatchPoints(2, 1, 0), MatchPoints(3, 1, 0), MatchPoints(1, 0, 0)]))
    return teams, matches, boards, points


@given(st.integers(1, 8).flatmap(lambda n: boards_of(n, complete=True)))
def test_board_points_sum_to_the_boards(bs):
    match = Match(1, "A", "B", START, MatchStatus.PLAYED, bs)
    score = match_score(match, len(bs))
    assert score is not None and score.home_halves + score.away_halves == 2 * len(bs)


@given(divisions())
def test_match_points_sum(division):
    teams, matches, boards, points = division
    expected = 0
    for match in matches:
        score = match_score(match, boards, points)
        if score is None:
            continue
        if match.status == MatchStatus.DOUBLE_FORFEIT:
            expected += 2 * points.loss
        elif score.home_halves == score.away_halves:
            expected += 2 * points.draw
        else:
            expected += points.win + points.loss
    rows = table(teams, matches, boards=boards, points=points)
    assert sum(r.match_points for r in rows) == expected
    assert sum(r.played for r in rows) == 2 * sum(1 for m in matches if m.status != MatchStatus.SCHEDULED)


@given(divisions(), st.lists(st.sampled_from(list(Tiebreak)), max_size=5))
def test_ranks_are_a_permutation_with_ties(division, tiebreaks):
    teams, matches, boards, points = division
    rows = table(teams, matches, boards=boards, points=points, tiebreaks=tiebreaks)
    assert sorted(r.team for r in rows) == sorted(t.id for t in teams)
    assert rows[0].rank == 1
    for position, (previous, row) in enumerate(itertools.pairwise(rows), start=2):
        assert row.rank in (previous.rank, position)
    if Tiebreak.MATCH_POINTS in tiebreaks[:1]:
        assert [r.match_points for r in rows] == sorted((r.match_points for r in rows), reverse=True)


@given(divisions())
def test_rated_games_and_parts(division):
    _teams, matches, _boards, _points = division
    games = rated_games(matches)
    assert all(g.result in PLAYED_RESULTS and g.white != g.black for g in games)
    assert len(games) <= sum(len(m.boards) for m in matches if m.status == MatchStatus.PLAYED)
    parts = proposed_parts(games)
    assert sum(p.games for p in parts) == len(games)
    assert all(b.from_date - a.to_date > PART_GAP for a, b in itertools.pairwise(parts))
    assert (parts[-1].to_date if parts else None) == end_date(games)


@given(divisions())
def test_completeness_counts(division):
    teams, matches, boards, _points = division
    for r in completeness(teams, matches, boards=boards):
        assert r.active_teams == len(teams)
        assert 0 <= r.expected_boards <= len(teams) // 2 * boards
        assert (r.message is None) == r.complete
