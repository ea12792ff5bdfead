"""Incremental recalculation: replay only the tournaments a change reaches, loading them as they are found.

A tournament must be evaluated again only if it changed, has no stored results, or one of its players is
*dirty* when it comes (his input may differ from the stored one). A dirty player's next event is therefore
always replayed, and nothing else of his: the frontier is a heap of the next events of the dirty players
(plus the changed tournaments and adjustments), walked in the official order. Only the tournaments popped
from it are loaded with pairings and stored rows, and only the players met there are loaded with their
own events from the changed point on (indexed lookups by player and tournament). A clean player's state
at a tournament is his state at the changed point advanced through his own stored results and dated
adjustments up to it, exactly what a replay of every event would give him. The per-tournament rules
(evaluate, compare with the stored result, dirty or clean again) are those of ``ratings.dwz.replay``.

The cost is therefore the reach of the change (typically a few dozen to a few hundred tournaments), not
the size of the history after the changed point.
"""

from __future__ import annotations

import bisect
import datetime
import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from ratings.dwz import sets_rating
from ratings.dwz.replay import (
    EMPTY,
    OrderKey,
    PlayerState,
    TournamentEvent,
    advance,
    gives_rating,
    normalise,
    tournament_input,
)
from ratings.dwz.types import PlayerResult, TournamentResult

from .base import END_OF_TIME, engine_id
from .load import (
    PlayerEvents,
    StoredTournament,
    load_player_events,
    load_tournament_events,
    states_before,
)

Key = tuple[str, int]  # ("t", tournament pk), ("a", adjustment pk) or ("d", player pk): dirty from here
AFTER_EVERYTHING: OrderKey = (END_OF_TIME, 9, 9, "", 0)
# A dirty player's tournaments loaded when a loading round runs (``Frontier.ahead``). The late chain at
# 2 M evaluations: 61 rounds loading only the queue, 37 with two per dirty player, 32 with four or more;
# also loading the next tournament of every player of a queued one made 10 rounds at 2 M but tracked
# 63,000 players instead of 35,000 (an open of 300 brings 300 players' next tournaments), slower overall.
AHEAD = 4
BEFORE_EVERYTHING: OrderKey = (datetime.date.min, -9, 0, "", 0)  # a player's events start at ``since``


def just_after(order: OrderKey) -> OrderKey:
    """A position after ``order`` and before every later event (a longer tuple sorts after its prefix)."""
    return cast(OrderKey, (*order, 1))


@dataclass(slots=True)
class Frontier:
    """The state of an incremental replay (see the module docstring)."""

    since: OrderKey
    removed_t: set[int]
    removed_a: set[int]
    changed: set[Key]
    reset: set[int]
    stored: dict[int, StoredTournament]  # full stored rows of the tournaments loaded so far
    seeds: dict[int, TournamentEvent]  # changed and never evaluated tournaments (current entries)
    stale: set[int]  # stored rows, no longer rated
    from_history: set[int] = field(default_factory=set)  # their stored rows from ``since`` on may be stale
    events: dict[int, TournamentEvent] = field(default_factory=dict)
    players: dict[int, PlayerEvents] = field(default_factory=dict)
    states: dict[str, PlayerState] = field(default_factory=dict)
    position: dict[int, OrderKey] = field(default_factory=dict)  # the player's last applied event
    adjustment_player: dict[int, int] = field(default_factory=dict)
    stored_order: dict[int, OrderKey] = field(default_factory=dict)  # of every stored row seen
    seen: dict[int, StoredTournament] = field(
        default_factory=dict
    )  # the tracked players' rows, by tournament
    members: set[int] = field(default_factory=set)
    dirty: set[str] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)  # ever dirty or evaluated
    evaluated: dict[int, TournamentResult] = field(default_factory=dict)
    heap: list[tuple[OrderKey, Key]] = field(default_factory=list)
    queued: set[Key] = field(default_factory=set)
    rounds: int = 0  # loading rounds (for the profile)

    def push(self, order: OrderKey, key: Key) -> None:
        if key[0] == "d":
            # A stop marker per stop: two stopped replays (two saves while the job waits) may leave one
            # player dirty at two points, and an event between them may make him clean again.
            heapq.heappush(self.heap, (order, key))
        elif key not in self.queued:
            self.queued.add(key)
            heapq.heappush(self.heap, (order, key))

    def track(self, pks: set[int]) -> None:
        """Load the players' own events from the changed point on and their states just before it."""
        new = {pk for pk in pks if pk not in self.players}
        if not new:
            return
        loaded = load_player_events(
            new,
            self.since,
            removed_t=self.removed_t,
            removed_a=self.removed_a,
            seeds=self.seeds,
            stale=self.stale,
        )
        self.players.update(loaded.events)
        self.stored_order.update({tid: t.order for tid, t in loaded.stored.items()})
        for tid, t in loaded.stored.items():
            known = self.seen.get(tid)
            if known is None:
                self.seen[tid] = t
                continue
            known.rows += t.rows
            if (known.edition, known.order) != (t.edition, t.order):  # rows that disagree: never equal
                known.edition, known.order = None, min(known.order, t.order)
        for pk, mine in loaded.events.items():
            self.adjustment_player.update(dict.fromkeys(mine.adjustments, pk))
        self.members |= loaded.members
        historic = new & self.from_history
        for players, from_history in ((new - historic, False), (historic, True)):
            if players:
                states = states_before(
                    since=self.since,
                    players=players,
                    reset=self.reset & players,
                    stored=loaded.stored,
                    old_adjustments=loaded.old_adjustments,
                    start_values=loaded.start_values,
                    from_history=from_history,
                )
                self.states.update(states)
        for pk in new:
            self.position[pk] = BEFORE_EVERYTHING

    def catch_up(self, pk: int, until: OrderKey, *, inclusive: bool = False) -> None:
        """Advance a player through his own stored results and adjustments up to ``until``."""
        mine = self.players[pk]
        pid = str(pk)
        state = self.states.get(pid) or EMPTY
        position = self.position[pk]
        for order, key in mine.events:
            if order <= position:
                continue
            if order > until or (order == until and not inclusive):
                break
            kind, obj = key
            if kind == "a":
                dwz, index = mine.adjustments[obj]
                state = PlayerState(dwz, index, state.fide_elo, ())
            else:
                row = mine.rows.get(obj)
                if row is None or obj in self.evaluated:
                    # Never expected: a tournament without his stored row is changed or new, so it is
                    # evaluated (and the player caught up there) before anyone passes it.
                    raise RuntimeError(f"recalculation: tournament {obj} passed without its stored result")
                state = advance(state, PlayerResult(*row), order[0])
            position = order
        self.states[pid] = state
        self.position[pk] = position

    def push_next(self, pk: int, after: OrderKey, *, inclusive: bool = False) -> None:
        """Queue the player's first event after ``after`` (at or after it, if ``inclusive``)."""
        for order, key in self.players[pk].events:
            if order > after or (inclusive and order == after):
                self.push(order, key)
                return

    def load(self, first: int) -> None:
        """Load ``first``, every other tournament waiting in the heap (all of them will be evaluated) and the
        ones likely to follow (``ahead``)."""
        wanted = {first} | {pk for _, (kind, pk) in self.heap if kind == "t"}
        wanted |= self.ahead()
        wanted -= self.events.keys()
        self.rounds += 1
        events = load_tournament_events(self.since[0], self.removed_t, only=wanted)
        self.add(events)
        self.track({int(pid) for ev in events for pid, _ in ev.players})
        # A tournament's stored rows are its players' rows, all tracked now (no query of their own).
        for ev in events:
            tid = cast(int, ev.key)
            rows = self.seen.get(tid)
            if tid not in self.stored and rows is not None:
                place = {pid: i for i, (pid, _) in enumerate(ev.players)}
                rows.rows.sort(key=lambda row: place.get(row[0], len(place)))
                self.stored[tid] = rows

    def ahead(self) -> set[int]:
        """The next ``AHEAD`` tournaments of every dirty player (his queued one and the ones after it): a
        dirty player mostly stays dirty, so they are likely the next rounds' tournaments, loaded now in
        the same queries. A guess costs rows in queries that run anyway; a tournament missed costs a
        loading round."""
        found: set[int] = set()
        for pid in self.dirty:
            pk = int(pid)
            found.update(self.next_tournaments(pk, self.position.get(pk, AFTER_EVERYTHING), AHEAD))
        return found - self.evaluated.keys()

    def next_tournaments(self, pk: int, after: OrderKey, count: int) -> list[int]:
        """The player's first ``count`` tournaments after ``after`` (none if he is not tracked)."""
        mine = self.players.get(pk)
        if mine is None or count <= 0:
            return []
        start = bisect.bisect_right(mine.events, (after, ("~", 0)))
        found: list[int] = []
        for _, (kind, tid) in itertools.islice(mine.events, start, None):
            if kind == "t":
                found.append(tid)
                if len(found) == count:
                    break
        return found

    def add(self, events: list[TournamentEvent]) -> None:
        self.events.update({cast(int, ev.key): ev for ev in events})

    def tournament(self, tid: int, evaluator: Callable) -> None:
        if tid not in self.events:
            self.load(tid)
        event = self.events.get(tid)
        if event is None:
            return  # no longer rated (its stored rows are cleared by the caller)
        pks = [int(pid) for pid, _ in event.players]
        for pk in pks:
            self.catch_up(pk, event.order)
        stored = self.stored.get(tid)
        before = stored.result() if stored is not None else None
        must = before is None or ("t", tid) in self.changed or any(str(pk) in self.dirty for pk in pks)
        if not must:  # every player clean (never expected from the heap): apply the stored result
            assert before is not None
            for pr in before.players:
                self.states[pr.id] = advance(self.states.get(pr.id) or EMPTY, pr, event.end_date)
                self.position[int(pr.id)] = event.order
            return
        result = normalise(evaluator(tournament_input(event, self.states)), lambda p: int(p) in self.members)
        self.evaluated[tid] = result
        old_by_id = {} if before is None else {pr.id: pr for pr in before.players}
        for pr in result.players:
            self.states[pr.id] = advance(self.states.get(pr.id) or EMPTY, pr, event.end_date)
            self.position[int(pr.id)] = event.order
            self.touched.add(pr.id)
            if still_dirty(old_by_id.get(pr.id), pr, was_dirty=pr.id in self.dirty):
                self.dirty.add(pr.id)
                self.push_next(int(pr.id), event.order)
            else:
                self.dirty.discard(pr.id)

    def adjustment(self, order: OrderKey, apk: int) -> None:
        pk = self.adjustment_player[apk]
        self.catch_up(pk, order, inclusive=True)
        pid = str(pk)
        if ("a", apk) in self.changed:
            self.dirty.add(pid)
            self.touched.add(pid)
            self.push_next(pk, order)
        else:
            self.dirty.discard(pid)

    def marker(self, order: OrderKey, pk: int) -> None:
        """A replay stopped at ``order`` left the player dirty: his stored rows after it may be stale."""
        self.catch_up(pk, order, inclusive=True)
        pid = engine_id(pk)
        self.dirty.add(pid)
        self.touched.add(pid)
        self.push_next(pk, order)

    def run(
        self,
        evaluator: Callable,
        progress: Callable[[int, int], None] | None = None,
        *,
        until: OrderKey | None = None,
    ) -> None:
        """Walk the heap in order (up to and including ``until``, if given)."""
        while self.heap:
            if until is not None and self.heap[0][0] > until:
                break
            order, (kind, pk) = heapq.heappop(self.heap)
            if kind == "t":
                self.tournament(pk, evaluator)
                if progress is not None:
                    progress(len(self.evaluated), len(self.evaluated) + len(self.heap))
            elif kind == "a":
                self.adjustment(order, pk)
            else:
                self.marker(order, pk)

    def finish(self, pks: set[int], *, until: OrderKey | None = None) -> None:
        """Bring the players to their final states (after all their events, or those up to ``until``)."""
        self.track(pks)
        for pk in pks:
            self.catch_up(pk, AFTER_EVERYTHING if until is None else until, inclusive=True)

    def last_rating_dates(self, pks: set[int]) -> tuple[dict[int, datetime.date], set[int]]:
        """Each player's last evaluation that set his DWZ from ``since`` on (replayed or stored), and the
        players without one there (their last one lies before ``since``)."""
        replayed = {(tid, pr.id): pr for tid, result in self.evaluated.items() for pr in result.players}
        known: dict[int, datetime.date] = {}
        for pk in pks:
            pid = str(pk)
            for order, (kind, tid) in reversed(self.players[pk].events):
                if kind != "t":
                    continue
                pr = replayed.get((tid, pid))
                if pr is not None:
                    sets = sets_rating(pr.status, pr.n)
                else:
                    row = self.players[pk].rows.get(tid)
                    sets = row is not None and sets_rating(row[1], row[4])  # status, n
                if sets:
                    known[pk] = order[0]
                    break
        return known, pks - known.keys()

    def has_event_after(self, pk: int, until: OrderKey) -> bool:
        """True if the player has an event, or stored rows of a tournament, after ``until``."""
        mine = self.players[pk]
        if mine.events and mine.events[-1][0] > until:
            return True
        return any(self.stored_order[tid] > until for tid in mine.rows)


def still_dirty(old: PlayerResult | None, new: PlayerResult, *, was_dirty: bool) -> bool:
    """``ratings.dwz.replay``'s rule: a player stays clean only with his stored result, and becomes clean
    again with the stored DWZ and index."""
    if old is not None and old == new and not was_dirty:
        return False
    return not (
        old is not None
        and gives_rating(new)
        and gives_rating(old)
        and (old.dwz_new, old.index_new) == (new.dwz_new, new.index_new)
    )
