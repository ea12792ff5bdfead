"""``reevaluate``: a tournament evaluated again after some players' inputs changed gives exactly what
``evaluate`` gives, and keeps the previous results of the players the change cannot reach."""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.dwz import GameInput, PlayerInput, TournamentInput, evaluate
from ratings.dwz.contract import parse_tournament
from ratings.dwz.expectation import expected_sum
from ratings.dwz.reevaluate import reevaluate
from ratings.dwz.replay import normalise
from tests.conftest import examples

from .random_tournaments import DrawSource, make_tournament


@st.composite
def corrections(draw):
    """A random tournament, its result, and the same tournament with some players' inputs changed: mostly
    rated players' DWZ (small steps and jumps that make or unmake an Ausnahmespieler), index and birth
    year; sometimes a rated player loses his DWZ or an unrated one gains one or other Restpartien."""
    before = parse_tournament(make_tournament(DrawSource(draw)))
    previous = evaluate(before)
    if draw(st.booleans()):  # as stored: non-members' Restpartien dropped
        previous = normalise(previous, lambda pid: draw(st.booleans()))
    players = list(before.players)
    changed = []
    for i, p in enumerate(players):
        if not draw(st.integers(0, 99)) < 35:
            continue
        changed.append(p.id)
        if p.dwz is not None and draw(st.integers(0, 9)) > 0:
            step = draw(st.sampled_from([1, 5, 40, 150, 350, 700]))
            dwz = max(0, p.dwz + draw(st.sampled_from([-1, 1])) * draw(st.integers(0, step)))
            index = p.index if draw(st.booleans()) else draw(st.integers(0, 60))
            birth = p.birth_year if draw(st.booleans()) else draw(st.sampled_from([None, 1950, 2005, 2012]))
            players[i] = dataclasses.replace(p, dwz=dwz, index=index, birth_year=birth)
        elif p.dwz is not None:
            players[i] = dataclasses.replace(p, dwz=None, index=None)
        else:
            dwz = draw(st.sampled_from([None, 900, 1500, 2100]))
            players[i] = dataclasses.replace(p, dwz=dwz, index=None if dwz is None else 0, restpartien=())
    return before, previous, dataclasses.replace(before, players=tuple(players)), changed


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corrections())
def test_reevaluate_is_evaluate(case):
    _before, previous, after, changed = case
    assert reevaluate(after, previous, changed) == evaluate(after)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corrections())
def test_nothing_changed_is_the_previous_result(case):
    before, _previous, _after, _changed = case
    result = evaluate(before)
    assert reevaluate(before, result, ()) == result


def _swiss() -> TournamentInput:
    """Eight rated players, two rounds of four boards: A meets B and C, H never meets A's opponents."""
    players = tuple(
        PlayerInput(pid, 1980, dwz, 20)
        for pid, dwz in zip("ABCDEFGH", (1800, 1700, 1650, 1600, 1550, 1500, 1450, 1400), strict=True)
    )
    pairs = [("A", "B"), ("C", "D"), ("E", "F"), ("G", "H"), ("C", "A"), ("B", "E"), ("D", "G"), ("F", "H")]
    games = tuple(GameInput(w, b, "1/2-1/2") for w, b in pairs)
    return TournamentInput(datetime.date(2025, 3, 1), players, games)


def test_players_out_of_reach_keep_their_previous_result():
    before = _swiss()
    previous = evaluate(before)
    after = dataclasses.replace(
        before, players=(dataclasses.replace(before.players[0], dwz=1900), *before.players[1:])
    )
    result = reevaluate(after, previous, ["A"])
    assert result == evaluate(after)
    # A and his opponents B and C are computed again; everyone else's result is the previous object.
    kept = {p.id for p, old in zip(result.players, previous.players, strict=True) if p is old}
    assert kept == set("DEFGH")


def test_a_changed_player_without_a_dwz_in_both_evaluates_everything():
    before = _swiss()
    previous = evaluate(before)
    after = dataclasses.replace(
        before, players=(dataclasses.replace(before.players[0], dwz=None, index=None), *before.players[1:])
    )
    result = reevaluate(after, previous, ["A"])
    assert result == evaluate(after)
    assert not any(p is old for p, old in zip(result.players, previous.players, strict=True))


CASE = Path(__file__).resolve().parent.parent / "data" / "reevaluate_first_rating_case.json"


def test_a_changed_player_meeting_a_first_rating_reaches_its_other_opponents():
    """A changed player meets a Zusatzstufe player: the first ratings move, and with them the pass-1
    performance of a player who never met the changed one, across the Ausnahmespieler margin."""
    case = json.loads(CASE.read_text(encoding="utf-8"))
    before = parse_tournament(case["tournament"])
    previous = evaluate(before)
    players = [
        p if p.id != case["changed"] else dataclasses.replace(p, dwz=case["dwz"]) for p in before.players
    ]
    after = dataclasses.replace(before, players=tuple(players))
    expected = evaluate(after)
    # The case reaches the rule: someone who did not meet the changed player is an Ausnahmespieler in one
    # evaluation and not in the other.
    met = {g.white for g in before.games if g.black == case["changed"]}
    met |= {g.black for g in before.games if g.white == case["changed"]}
    flipped = {
        new.id
        for old, new in zip(previous.players, expected.players, strict=True)
        if new.dwz_old is not None and (old.entry_rating != old.dwz_old) != (new.entry_rating != new.dwz_old)
    }
    assert flipped - met - {case["changed"]}
    assert reevaluate(after, previous, [case["changed"]]) == expected


def test_a_previous_result_of_another_edition_evaluates_everything():
    """Rows stored under another edition (the editions' dates moved since) are not kept."""
    before = _swiss()
    previous = evaluate(before)
    other = dataclasses.replace(previous, edition="wo2026" if previous.edition == "classic" else "classic")
    result = reevaluate(before, other, ())
    assert result == evaluate(before)
    assert not any(p is old for p, old in zip(result.players, other.players, strict=True))


def _far_below() -> TournamentInput:
    """A (R0 -8601, far below the tables) loses five games to B: his Leistung 1609 makes him an
    Ausnahmespieler; C (R0 1000, 3.5 of 6) is one too and beats A, so A is computed again in pass 2 with
    his performance as entry rating: his R0 - an opponent lies outside the packed table (found by the
    adversarial review)."""
    players = (
        PlayerInput("A", None, -8601, 0),
        PlayerInput("B", None, 2000, 0),
        PlayerInput("C", None, 1000, 0),
    )
    games = (
        *(GameInput("B", "A", "1-0") for _ in range(5)),
        *(GameInput("B", "C", "1/2-1/2") for _ in range(5)),
        GameInput("C", "A", "1-0"),
    )
    return TournamentInput(datetime.date(2020, 1, 1), players, games)


def test_an_ausnahmespieler_far_below_the_tables_gets_we_from_the_definition():
    result = evaluate(_far_below()).players
    a, c = result[0], result[2]
    assert a.entry_rating != a.dwz_old and c.entry_rating != c.dwz_old  # both Ausnahmespieler
    assert a.expected == expected_sum(-8601, [2000] * 5 + [c.entry_rating])  # 0, not 6.000


def test_far_below_the_tables_reevaluate_is_evaluate():
    t = _far_below()
    previous = evaluate(t)
    assert reevaluate(t, previous, ["A"]) == previous


def test_rows_stored_without_entry_ratings_evaluate_everything():
    """Rows stored before migration 0004 have no entry rating: nothing of them can be compared."""
    before = _swiss()
    legacy = evaluate(before)
    legacy = dataclasses.replace(
        legacy, players=tuple(dataclasses.replace(p, entry_rating=None) for p in legacy.players)
    )
    after = dataclasses.replace(
        before, players=(dataclasses.replace(before.players[0], dwz=1900), *before.players[1:])
    )
    result = reevaluate(after, legacy, ["A"])
    assert result == evaluate(after)
    assert not any(p is old for p, old in zip(result.players, legacy.players, strict=True))
