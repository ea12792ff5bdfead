"""Batched replay (``evaluate_many`` over independent consecutive tournaments) equals one-by-one replay.

Pure: no database. Random federations (small pools force many player repeats and flushes, large pools give
long batches) with rated, FIDE-only and unrated players (some members with Restpartien), dated adjustments,
forfeits, coded and uncoded tournaments across the edition change; full replays and incremental replays
(changed results, late tournaments, changed adjustments) must give the same evaluated tournaments in the same
order, the same end states and the same dirty players.
"""

from __future__ import annotations

import dataclasses
import datetime
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ratings.dwz.replay as replay_module
from ratings.dwz import GameInput, Restpartie, evaluate, evaluate_many
from ratings.dwz.replay import (
    AdjustmentEvent,
    PlayerState,
    TournamentEvent,
    adjustment_order,
    replay,
    tournament_order,
)

D = datetime.date
RESULTS = ["1-0", "0-1", "1/2-1/2"]


@pytest.fixture(autouse=True)
def every_batch_vectorised(monkeypatch):
    """Send every batch of two or more through ``evaluate_many`` (production only does it from
    ``MIN_BATCH`` on, where it is faster), so the equivalence is checked on many short batches too."""
    monkeypatch.setattr(replay_module, "MIN_BATCH", 2)


FORFEITS = ["+-", "-+", "--"]


def federation(seed: int):
    rng = random.Random(seed)
    n_players = rng.choice([8, 15, 40, 150, 400])
    start = D(2024, 1, 1) + datetime.timedelta(days=rng.randint(0, 700))
    birth = {str(i): rng.choice([None, *range(1945, 2016)]) for i in range(1, n_players + 1)}
    states: dict[str, PlayerState] = {}
    members: set[str] = set()
    for pid in birth:
        kind = rng.random()
        if kind < 0.6:
            states[pid] = PlayerState(rng.randint(600, 2500), rng.randint(0, 60))
        elif kind < 0.7:
            states[pid] = PlayerState(fide_elo=rng.randint(1400, 2300))
        elif kind < 0.9:
            rps = tuple(
                Restpartie(rng.randint(800, 2200), rng.choice([0, 500, 1000]), start - datetime.timedelta(d))
                for d in sorted(rng.sample(range(1, 900), rng.randint(0, 6)), reverse=True)
            )
            states[pid] = PlayerState(restpartien=rps)
            members.add(pid)
        # else: unknown so far (no start value), not a member
    events: list = []
    n_tournaments = rng.randint(5, 60)
    pk = 0
    for _ in range(n_tournaments):
        pk += 1
        events.append(tournament(rng, pk, list(birth), birth, start))
    for _ in range(rng.randint(0, 8)):
        pk += 1
        date = start + datetime.timedelta(days=rng.randint(0, 3 * 365))
        events.append(
            AdjustmentEvent(
                ("a", pk), adjustment_order(date, pk), rng.choice(list(birth)), rng.randint(800, 2300), 5
            )
        )
    return rng, states, members, events, pk


def tournament(rng: random.Random, pk: int, pool: list[str], birth: dict, start: datetime.date):
    size = min(len(pool), rng.choice([2, 3, 4, 6, 8, 10, 12, 20]))
    players = rng.sample(pool, size)
    games = []
    if size <= 10:
        pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    else:
        pairs = []
        for _ in range(5):
            order = rng.sample(players, size)
            pairs += [(order[i], order[i + 1]) for i in range(0, size - 1, 2)]
    for a, b in pairs:
        if rng.random() < 0.85:
            result = rng.choice(FORFEITS) if rng.random() < 0.05 else rng.choice(RESULTS)
            games.append(GameInput(a, b, result))
    end = start + datetime.timedelta(days=rng.randint(0, 3 * 365))
    code = None
    if rng.random() < 0.4:
        code = f"2{rng.randint(0, 9)}{rng.randint(10, 52)}-C00-{rng.randint(0, 999):03d}"
    return TournamentEvent(
        key=("t", pk),
        order=tournament_order(end, code, pk),
        end_date=end,
        players=tuple((p, birth[p]) for p in players),
        games=tuple(games),
        code=code,
        name=f"T{pk}",
    )


class Counting:
    def __init__(self) -> None:
        self.sizes: list[int] = []

    def __call__(self, inputs):
        self.sizes.append(len(inputs))
        return evaluate_many(inputs)


def run(events, states, members, *, batched: bool, **kwargs):
    counting = Counting()
    outcome = replay(
        events,
        dict(states),
        members=members.__contains__,
        batch_evaluator=counting if batched else None,
        **kwargs,
    )
    return outcome, counting.sizes


def same(a, b) -> None:
    assert list(a.evaluated.items()) == list(b.evaluated.items())  # same results in the same order
    assert a.states == b.states
    assert a.dirty == b.dirty


def check_seed(seed: int) -> list[int]:
    rng, states, members, events, pk = federation(seed)
    seq, _ = run(events, states, members, batched=False)
    bat, sizes = run(events, states, members, batched=True)
    same(bat, seq)

    # Incremental: the full replay's results are stored; change some results, add late tournaments and
    # change or add adjustments, then replay everything incrementally.
    stored = dict(seq.evaluated)
    changed = set()
    new_events = []
    for event in events:
        if isinstance(event, TournamentEvent) and event.games and rng.random() < 0.1:
            games = list(event.games)
            i = rng.randrange(len(games))
            games[i] = dataclasses.replace(games[i], result=rng.choice(RESULTS))
            event = dataclasses.replace(event, games=tuple(games))
            changed.add(event.key)
        elif isinstance(event, AdjustmentEvent) and rng.random() < 0.3:
            event = dataclasses.replace(event, dwz=event.dwz + rng.choice([-50, 1, 80]))
            changed.add(event.key)
        new_events.append(event)
    pool = sorted({pid for e in events if isinstance(e, TournamentEvent) for pid, _ in e.players})
    birth = {pid: b for e in events if isinstance(e, TournamentEvent) for pid, b in e.players}
    for _ in range(rng.randint(0, 3)):
        pk += 1
        late = tournament(rng, pk, pool, birth, D(2024, 6, 1))
        new_events.append(late)
        changed.add(late.key)
    if rng.random() < 0.5:
        pk += 1
        date = D(2024, 6, 1) + datetime.timedelta(days=rng.randint(0, 900))
        adj = AdjustmentEvent(("a", pk), adjustment_order(date, pk), rng.choice(pool), 1500, 10)
        new_events.append(adj)
        changed.add(adj.key)
    dirty = {e.player for e in new_events if isinstance(e, AdjustmentEvent) and e.key in changed}
    kwargs = {"stored": stored, "changed": changed, "dirty": dirty}
    inc_seq, _ = run(new_events, states, members, batched=False, **kwargs)
    inc_bat, inc_sizes = run(new_events, states, members, batched=True, **kwargs)
    same(inc_bat, inc_seq)
    # And the incremental end state is the full replay's.
    full, _ = run(new_events, states, members, batched=True)
    assert inc_bat.states == full.states
    for key, result in full.evaluated.items():
        assert inc_bat.evaluated.get(key, stored.get(key)) == result
    return sizes + inc_sizes


@pytest.mark.parametrize("seed", range(40))
def test_batched_replay_equals_one_by_one(seed):
    check_seed(seed)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_batched_replay_equals_one_by_one_random(seed):
    check_seed(seed)


def test_batches_are_formed():
    """Not vacuous: large pools give real batches (and small ones still flush correctly)."""
    sizes = [n for seed in range(40) for n in check_seed(seed)]
    assert max(sizes) >= 5
    assert sum(sizes) > 200


def test_flush_before_adjustment_and_repeat():
    """A player's adjustment (or his next tournament) must see his batched tournament's result first."""
    d = D(2025, 3, 1)
    birth = 1980
    t1 = TournamentEvent(("t", 1), tournament_order(d, None, 1), d, (("1", birth), ("2", birth)),
                         (GameInput("1", "2", "1-0"),))  # fmt: skip
    t2 = TournamentEvent(("t", 2), tournament_order(d, None, 2), d, (("3", birth), ("4", birth)),
                         (GameInput("3", "4", "1/2-1/2"),))  # fmt: skip
    adj = AdjustmentEvent(("a", 3), adjustment_order(d + datetime.timedelta(1), 3), "1", 1700, 3)
    t3 = TournamentEvent(("t", 4), tournament_order(d + datetime.timedelta(2), None, 4),
                         d + datetime.timedelta(2), (("1", birth), ("3", birth)),
                         (GameInput("3", "1", "0-1"),))  # fmt: skip
    states = {str(i): PlayerState(1500 + 10 * i, 10) for i in range(1, 5)}
    events = [t3, adj, t2, t1]
    seq, _ = run(events, states, set(), batched=False)
    bat, sizes = run(events, states, set(), batched=True)
    same(bat, seq)
    assert sizes == [2]  # t1 + t2 together; t3 alone goes through the single evaluator
    assert bat.evaluated[("t", 4)].players[0].dwz_old == 1700


def test_single_evaluator_is_the_default_without_batches():
    _, states, members, events, _ = federation(3)
    calls = []
    outcome = replay(events, dict(states), members=members.__contains__,
                     evaluator=lambda t: calls.append(t) or evaluate(t))  # fmt: skip
    assert len(calls) == len(outcome.evaluated)
