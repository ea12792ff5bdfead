"""Property tests (hypothesis) of the engine's invariants."""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.dwz import GameInput, PlayerInput, TournamentInput, evaluate
from ratings.dwz.development import AgeClass, classic_e, classic_rating, wo2026_k, wo2026_rating
from ratings.dwz.editions import CLASSIC, WO2026
from ratings.dwz.expectation import expected_score, expected_sum
from ratings.dwz.performance import performance
from ratings.dwz.search import solve
from tests.conftest import examples

RESULTS = ["1-0", "0-1", "1/2-1/2"]
ratings = st.integers(min_value=300, max_value=2700)


@st.composite
def tournaments(draw, *, all_rated: bool = False, end: datetime.date | None = None):
    m = draw(st.integers(min_value=2, max_value=9))
    players = []
    for k in range(m):
        kind = "dwz" if all_rated else draw(st.sampled_from(["dwz", "dwz", "dwz", "fide", "none"]))
        players.append(
            PlayerInput(
                id=f"P{k}",
                birth_year=draw(st.one_of(st.none(), st.integers(min_value=1940, max_value=2018))),
                dwz=draw(ratings) if kind == "dwz" else None,
                index=draw(st.integers(min_value=0, max_value=40)) if kind == "dwz" else None,
                fide_elo=draw(ratings) if kind == "fide" else None,
            )
        )
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs) + 3))
    games = tuple(
        GameInput(f"P{a}", f"P{b}", draw(st.sampled_from([*RESULTS, *RESULTS, "+-"]))) for a, b in chosen
    )
    if end is None:
        end = draw(st.dates(min_value=datetime.date(2010, 1, 1), max_value=datetime.date(2030, 12, 31)))
    return TournamentInput(end_date=end, players=tuple(players), games=games)


@settings(max_examples=examples(50), deadline=None)
@given(tournaments())
def test_we_between_0_and_n(t):
    for p in evaluate(t).players:
        if p.expected is not None:
            assert 0 <= p.expected <= 1000 * p.n
            assert 0 <= p.points <= 1000 * p.n


@settings(max_examples=examples(35), deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_independent_of_game_and_player_order(t, rnd: random.Random):
    games, players = list(t.games), list(t.players)
    rnd.shuffle(games)
    rnd.shuffle(players)
    shuffled = dataclasses.replace(t, games=tuple(games), players=tuple(players))

    def canonical(result):
        # Handed-back Restpartien follow the input game order, so compare them as a multiset.
        return {
            p.id: dataclasses.replace(
                p, restpartien=tuple(sorted(p.restpartien, key=lambda r: (r.opponent_rating, r.score)))
            )
            for p in result.players
        }

    assert canonical(evaluate(t)) == canonical(evaluate(shuffled))


@settings(max_examples=examples(35), deadline=None)
@given(tournaments(all_rated=True, end=datetime.date(2026, 6, 7)))
def test_editions_agree_on_level_and_performance(t):
    """All-rated tournaments: entry ratings do not depend on the edition, so neither do level and
    performance (2026-06-07 classic vs 2026-06-08 WO2026, same age). We differs only by rounding: per game
    (classic) against the unrounded sum rounded once (WO2026, spec §16), at most (n + 1) / 2 thousandths."""
    classic = evaluate(t)
    wo = evaluate(dataclasses.replace(t, end_date=datetime.date(2026, 6, 8)))
    assert (classic.edition, wo.edition) == ("classic", "wo2026")
    for a, b in zip(classic.players, wo.players, strict=True):
        assert (a.level, a.performance, a.n, a.points) == (b.level, b.performance, b.n, b.points)
        assert (a.expected is None) == (b.expected is None)
        if a.expected is not None:
            assert 2 * abs(a.expected - b.expected) <= a.n + 1


@settings(max_examples=examples(100), deadline=None)
@given(
    r0=ratings,
    age=st.sampled_from(list(AgeClass)),
    index=st.integers(min_value=0, max_value=30),
    n=st.integers(min_value=1, max_value=15),
    data=st.data(),
)
def test_more_points_never_lower_the_rating(r0, age, index, n, data):
    """For fixed opponents (fixed We), Rn is non-decreasing in W in both editions."""
    expected = data.draw(st.integers(min_value=0, max_value=1000 * n))
    previous_classic = previous_wo = None
    for w in range(0, 1000 * n + 1, 500):
        e = classic_e(r0, age, index, w, expected, CLASSIC.classic)
        rc = classic_rating(r0, e, n, w, expected, CLASSIC.classic)
        k = wo2026_k(r0, age, index, w, expected, WO2026.wo2026)
        rw = wo2026_rating(r0, k, w, expected, WO2026.wo2026)
        if previous_classic is not None:
            assert rc >= previous_classic and rw >= previous_wo
        previous_classic, previous_wo = rc, rw


@settings(max_examples=examples(35), deadline=None)
@given(tournaments(all_rated=True, end=datetime.date(2015, 6, 1)), st.data())
def test_better_result_never_lowers_own_rating_in_a_tournament(t, data):
    """Before the Ausnahmespieler rule (2016-08-01) entry ratings are the R0s, so turning one of a
    player's losses into a draw or a draw into a win can only raise his Rn."""
    k = data.draw(st.integers(min_value=0, max_value=len(t.games) - 1))
    g = t.games[k]
    better = {"0-1": "1/2-1/2", "1/2-1/2": "1-0"}.get(g.result)
    if better is None:
        return
    improved = dataclasses.replace(
        t, games=(*t.games[:k], dataclasses.replace(g, result=better), *t.games[k + 1 :])
    )
    before = {p.id: p for p in evaluate(t).players}[g.white]
    after = {p.id: p for p in evaluate(improved).players}[g.white]
    assert after.dwz_new >= before.dwz_new


@settings(max_examples=examples(70), deadline=None)
@given(st.lists(ratings, min_size=5, max_size=20))
def test_performance_increases_with_points(opponents):
    n = len(opponents)
    values = [performance(opponents, w) for w in range(0, 1000 * n + 1, 500)]
    assert values == sorted(values)
    inner = values[1:-1]
    assert all(a < b for a, b in itertools.pairwise(inner))


@settings(max_examples=examples(70), deadline=None)
@given(st.lists(ratings, min_size=1, max_size=20), st.data())
def test_solve_minimises_the_distance(opponents, data):
    """No integer in the search range comes closer to W than the solution."""
    n = len(opponents)
    w = data.draw(st.integers(min_value=1, max_value=2 * n - 1)) * 500
    r = solve(opponents, w)
    best = abs(expected_sum(r, opponents) - w)
    for x in range(min(opponents) - 1500, max(opponents) + 1501, 7):
        assert abs(expected_sum(x, opponents) - w) >= best


@settings(max_examples=examples(35), deadline=None)
@given(tournaments(all_rated=True), st.data())
def test_player_beating_everyone_gains(t, data):
    hero = data.draw(st.sampled_from(t.players)).id
    others = [p.id for p in t.players if p.id != hero]
    games = tuple(GameInput(hero, o, "1-0") for o in others) + tuple(
        g for g in t.games if hero not in (g.white, g.black)
    )
    result = {p.id: p for p in evaluate(dataclasses.replace(t, games=games)).players}[hero]
    assert result.dwz_new >= result.dwz_old
    # Not asserted: performance >= R0. With 100 % the fictitious draw against the level can put the
    # performance below R0 (692 beating five 300s: 691), which is what the rule says.


def test_near_tie_of_the_unrounded_sums_does_not_depend_on_game_order():
    """Found by the property above. P3 (300) becomes an Ausnahmespieler, and P0's performance lies where
    f(1218) and f(1219) tie with unrounded sums within float rounding of each other: a running sum picked
    1218 or 1219 depending on the order of the games. The sums are now rounded once (``math.fsum``)."""
    players = (
        PlayerInput(id="P0", dwz=1565, index=0),
        PlayerInput(id="P1"),
        PlayerInput(id="P2", dwz=869, index=0),
        PlayerInput(id="P3", dwz=300, index=0),
    )
    pairings = [
        ("P2", "P3", "0-1"), ("P0", "P2", "1/2-1/2"), ("P0", "P1", "1-0"), ("P0", "P3", "0-1"),
        ("P0", "P3", "0-1"), ("P2", "P3", "1-0"), ("P0", "P3", "1/2-1/2"), ("P0", "P2", "1-0"),
        ("P0", "P2", "1-0"),
    ]  # fmt: skip
    games = [GameInput(white=w, black=b, result=r) for w, b, r in pairings]
    rnd = random.Random(7)
    performances = set()
    for _ in range(300):
        rnd.shuffle(games)
        result = evaluate(TournamentInput(datetime.date(2017, 1, 1), players, tuple(games)))
        performances.add(next(p.performance for p in result.players if p.id == "P0"))
    assert performances == {1219}


@given(st.integers(0, 3000), st.lists(st.integers(0, 3000), max_size=12))
def test_expected_sum_is_the_sum_of_the_per_game_expected_scores(rating, opponents):
    assert expected_sum(rating, opponents) == sum(expected_score(rating - o) for o in opponents)
