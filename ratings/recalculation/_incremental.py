"""Incremental recalculation: replay only the tournaments a change reaches, loading them as they are found.

A tournament must be evaluated again only if it changed, has no stored results, or one of its players is
*dirty* when it comes (his input may differ from the stored one). A dirty player's next event is therefore
always replayed, and nothing else of his: the frontier is a heap of the next events of the dirty players
(plus the changed tournaments and adjustments), walked in the official order. Only the tournaments popped
from it are loaded with pairings and stored rows (by tournament, indexed). The per-tournament rules
(evaluate, compare with the stored result, dirty or clean again) are those of ``ratings.dwz.replay``.

A clean player's input to a re-evaluated tournament is the one stored in his row there (``row_state``):
the stored rows of a clean player are, by induction, what a replay of every event gives him. Only players
whose row does not tell it (no DWZ: Restpartien and FIDE ratings count) are *tracked* from the start:
their own events from the changed point on are loaded by player and their state is carried from event to
event. A player who turns dirty untracked is tracked from that tournament on (one query for the players
that tournament made dirty) before the next event is taken from the heap.

The cost is therefore the reach of the change (typically a few dozen to a few hundred tournaments and the
players who turn dirty there), not the size of the history after the changed point.
"""

from __future__ import annotations

import bisect
import datetime
import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

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
from ratings.dwz.types import PlayerResult, Status, TournamentResult

from ._base import END_OF_TIME, engine_id
from ._load import (
    RESULT_ROW,
    BirthYears,
    PlayerEvents,
    StoredTournament,
    load_members,
    load_player_events,
    load_stored,
    load_tournament_events,
    states_before,
)
from ._players import dated_adjustments

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
    members: set[int] = field(default_factory=set)
    member_known: set[int] = field(default_factory=set)  # players whose memberships were read
    dirty: set[str] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)  # ever dirty
    # Players evaluated without being tracked (clean there, state read off their stored row): the position
    # of their last evaluated tournament and their state after it, until they are tracked from there on.
    untracked: dict[int, tuple[OrderKey, PlayerState]] = field(default_factory=dict)
    pending: set[int] = field(default_factory=set)  # untracked players turned dirty: track, queue next
    adjustments: dict[int, list[tuple[OrderKey, int, int, int]]] | None = None  # dated, by player
    evaluated: dict[int, TournamentResult] = field(default_factory=dict)
    heap: list[tuple[OrderKey, Key]] = field(default_factory=list)
    queued: set[Key] = field(default_factory=set)
    rounds: int = 0  # loading rounds (for the profile)
    # The inputs read off a loaded tournament's stored rows (``stored_inputs``), until it is evaluated.
    inputs: dict[int, dict[str, PlayerState | None]] = field(default_factory=dict)
    birth_years: BirthYears = field(default_factory=BirthYears)  # of the players of the loaded tournaments

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
        for pk, mine in loaded.events.items():
            self.adjustment_player.update(dict.fromkeys(mine.adjustments, pk))
        self.members |= loaded.members
        self.member_known |= new
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
            if pk in self.untracked:  # evaluated before: go on from there
                self.position[pk], self.states[str(pk)] = self.untracked.pop(pk)

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
        ones likely to follow (``ahead``), with their stored rows (by tournament: a tournament's rows lie
        together, a player's are scattered over the table).

        Only the players whose input the stored row does not tell (``row_state``) are tracked here; the
        others enter with their stored input and are tracked only if they turn dirty (``pending``). Reading
        ahead the rows of the dirty players' opponents, the likeliest to turn dirty, saved queries but cost
        more: at 2 M about 6,000 players' rows were read, 580 of them used, and once ``reevaluate`` made the
        engine cheap the chain was faster without (docs/recalculation.md, "Late chain, fifth round")."""
        wanted = {first} | {pk for _, (kind, pk) in self.heap if kind == "t"}
        wanted |= self.ahead()
        wanted -= self.events.keys()
        self.rounds += 1
        events = load_tournament_events(
            self.since[0], self.removed_t, only=wanted, birth_years=self.birth_years
        )
        self.add(events)
        rows = load_stored(
            self.since[0], {cast(int, ev.key) for ev in events} - self.stored.keys(), in_order=False
        )
        need: set[int] = set()
        for ev in events:
            tid = cast(int, ev.key)
            stored = rows.get(tid)
            if tid not in self.stored and stored is not None:
                place = {pid: i for i, (pid, _) in enumerate(ev.players)}
                stored.rows.sort(key=lambda row: place.get(row[0], len(place)))
                self.stored[tid] = stored
                self.stored_order[tid] = stored.order
            inputs = self.inputs[tid] = stored_inputs(ev, self.stored.get(tid))
            need.update(int(pid) for pid, state in inputs.items() if state is None)
        self.track(need)

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

    def tournament(self, tid: int, evaluator: Callable[..., Any], reevaluator: Callable[..., Any]) -> None:  # noqa: C901, PLR0912 -- existing; issue 27
        if tid not in self.events:
            self.load(tid)
        event = self.events.get(tid)
        if event is None:
            return  # no longer rated (its stored rows are cleared by the caller)
        pks = [int(pid) for pid, _ in event.players]
        stored = self.stored.get(tid)
        inputs = self.inputs.pop(tid, None)
        if inputs is None:  # a changed or new tournament (never loaded by ``load``)
            inputs = stored_inputs(event, stored)
        for pk in pks:
            if pk in self.players:
                self.catch_up(pk, event.order)
                continue
            # Clean and not tracked: his input is the one stored with this tournament.
            state = inputs[str(pk)]
            if state is None:
                raise RuntimeError(f"recalculation: player {pk} untracked without his stored input in {tid}")
            self.states[str(pk)] = state
        must = stored is None or ("t", tid) in self.changed or not self.dirty.isdisjoint(inputs)
        if not must:  # every player clean (never expected from the heap): apply the stored result
            assert stored is not None
            for pr in stored.result().players:
                self.moved(int(pr.id), event, advance(self.states.get(pr.id) or EMPTY, pr, event.end_date))
            return
        given = tournament_input(event, self.states)
        previous: tuple[PlayerResult, ...] = ()
        if stored is not None and stored.order == event.order and ("t", tid) not in self.changed:
            # The same tournament evaluated before with only the dirty players' inputs different: the
            # players the change cannot reach keep their stored results (``reevaluate``; a late chain's
            # tournaments have a few dirty players among dozens).
            before = stored.result()
            previous = before.players
            result = reevaluator(given, before, self.dirty.intersection(inputs))
        else:
            result = evaluator(given)
        unknown = {int(pr.id) for pr in result.players if pr.restpartien} - self.member_known
        if unknown:  # never expected: Restpartien go to players without a DWZ, who are tracked
            self.members |= load_members(unknown)
            self.member_known |= unknown
        result = normalise(result, lambda p: int(p) in self.members)
        self.evaluated[tid] = result
        # Rows stored at another place (the tournament moved) are no stored result here: the players' later
        # stored inputs did not count it at this place, so nobody turns clean with them.
        old_rows = (
            {} if stored is None or stored.order != event.order else {row[0]: row for row in stored.rows}
        )
        kept = {id(pr) for pr in previous}  # results ``reevaluate`` kept: the stored rows of clean players
        for pr in result.players:
            pk = int(pr.id)
            self.moved(pk, event, advance(self.states.get(pr.id) or EMPTY, pr, event.end_date))
            if id(pr) in kept:
                continue  # clean (a changed player is computed) with his stored row: stays clean
            row, was_dirty = old_rows.get(pr.id), pr.id in self.dirty
            # A clean player with his stored row stays clean (``still_dirty``'s first rule), compared as
            # tuples: most players of a late chain, without building a stored result for each.
            if row is not None and not was_dirty and row == RESULT_ROW(pr):
                self.dirty.discard(pr.id)
            elif still_dirty(None if row is None else PlayerResult(*row), pr, was_dirty=was_dirty):
                self.dirty.add(pr.id)
                self.touched.add(pr.id)
                if pk in self.players:
                    self.push_next(pk, event.order)
                else:
                    self.pending.add(pk)  # his next event is queued once he is tracked (``run``)
            else:
                self.dirty.discard(pr.id)

    def moved(self, pk: int, event: TournamentEvent, state: PlayerState) -> None:
        """The player's state after ``event``; tracked: his position too, untracked: for ``track_from``."""
        self.states[str(pk)] = state
        if pk in self.players:
            self.position[pk] = event.order
        else:
            self.untracked[pk] = (event.order, state)

    def track_from(self, pks: set[int]) -> None:
        """Track untracked players from their last evaluated tournament on (``untracked``)."""
        new = {pk for pk in pks if pk not in self.players}
        if not new:
            return
        found = self.player_rows(new, min(self.untracked[pk][0][0] for pk in new))
        for pk, mine in found.items():
            self.players[pk] = mine
            self.position[pk], self.states[str(pk)] = self.untracked.pop(pk)

    def player_rows(self, pks: set[int], first: datetime.date) -> dict[int, PlayerEvents]:
        """The players' events from ``first`` on: their stored rows (without Restpartien) and their dated
        adjustments, for players tracked from a tournament they entered with a DWZ (``row_state``): there
        Restpartien and the FIDE rating of a start value no longer reach their inputs (a dated adjustment
        always sets a DWZ), and the rows compared with a replay are the tournaments' own (``stored``)."""
        if self.adjustments is None:
            self.adjustments = dated_adjustments(self.since, self.removed_a)
        stored = load_stored(first, players=pks, include_restpartien=False, in_order=False)
        events = {pk: PlayerEvents() for pk in pks}
        for tid, t in stored.items():
            self.stored_order.setdefault(tid, t.order)
            listed = tid not in self.removed_t and tid not in self.seeds and tid not in self.stale
            for row in t.rows:
                mine = events[int(row[0])]
                mine.rows[tid] = row
                if listed:
                    mine.events.append((t.order, ("t", tid)))
        for tid, ev in self.seeds.items():
            for pid, _ in ev.players:
                if int(pid) in events:
                    events[int(pid)].events.append((ev.order, ("t", tid)))
        for pk, mine in events.items():
            for order, apk, dwz, index in self.adjustments.get(pk, ()):
                mine.events.append((order, ("a", apk)))
                mine.adjustments[apk] = (dwz, index)
                self.adjustment_player[apk] = pk
            mine.events.sort()
        return events

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
        evaluator: Callable[..., Any],
        reevaluator: Callable[..., Any],
        progress: Callable[[int, int], None] | None = None,
        *,
        until: OrderKey | None = None,
    ) -> None:
        """Walk the heap in order (up to and including ``until``, if given), evaluating with the engine's
        ``evaluate`` and ``reevaluate``."""
        while True:
            if self.pending:  # their next events may come before the heap's first
                pending, self.pending = self.pending, set()
                self.track_from(pending)
                for pk in pending:
                    self.push_next(pk, self.position[pk])
            if not self.heap or (until is not None and self.heap[0][0] > until):
                break
            order, (kind, pk) = heapq.heappop(self.heap)
            if kind == "t":
                self.tournament(pk, evaluator, reevaluator)
                if progress is not None:
                    progress(len(self.evaluated), len(self.evaluated) + len(self.heap))
            elif kind == "a":
                self.adjustment(order, pk)
            else:
                self.marker(order, pk)

    def finish(self, pks: set[int], *, until: OrderKey | None = None) -> None:
        """Bring the players to their final states (after all their events, or those up to ``until``)."""
        self.track_from(pks & self.untracked.keys())
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

    def left_after(self, until: OrderKey) -> set[int]:
        """The players still dirty where the replay stopped at ``until`` who have an event after it: what
        a job has still to replay (a dirty player without one is done). Tracks the untracked first."""
        pks = {int(pid) for pid in self.dirty}
        self.track_from(pks & self.untracked.keys())
        self.track(pks)
        return {pk for pk in pks if self.has_event_after(pk, until)}

    def has_event_after(self, pk: int, until: OrderKey) -> bool:
        """True if the player has an event, or stored rows of a tournament, after ``until``."""
        mine = self.players[pk]
        if mine.events and mine.events[-1][0] > until:
            return True
        return any(self.stored_order[tid] > until for tid in mine.rows)


def stored_inputs(event: TournamentEvent, stored: StoredTournament | None) -> dict[str, PlayerState | None]:
    """Each player's input to ``event`` as his stored row there tells it (``row_state``), by engine id."""
    by_player = {} if stored is None else {row[0]: row for row in stored.rows}
    return {pid: row_state(by_player.get(pid), stored, event.order) for pid, _ in event.players}


_ENTERED_WITH_DWZ = (Status.RATED.value, Status.NON_MEMBER.value)


def row_state(
    row: tuple[Any, ...] | None, stored: StoredTournament | None, order: OrderKey
) -> PlayerState | None:
    """A clean player's state entering a tournament, read off his stored row there (``states_before`` reads
    the state at the changed point the same way), or None if the row does not tell it: no row, rows at
    another position, or an input without a DWZ (then the Restpartien and a FIDE rating count).

    With a DWZ only DWZ and index reach the input (a dated adjustment always sets both, so the DWZ never
    goes again); stored ``dwz_old`` / ``index_old`` are the input of the replay that wrote the row, which
    for a clean player is his state there."""
    if row is None or stored is None or stored.order != order or stored.edition is None:
        return None
    # row: id, status, dwz_old, index_old, ..., fide_takeover at 13
    if row[1] in _ENTERED_WITH_DWZ and row[2] is not None and not row[13]:
        return PlayerState(row[2], row[3])
    return None


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
