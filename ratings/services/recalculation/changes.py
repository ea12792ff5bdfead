"""The recalculation itself: replay from a changed point everything the change can reach, write what
differs."""

from __future__ import annotations

import dataclasses
import datetime
import time
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass
from typing import cast

from django.db import transaction
from django.utils import timezone

from ratings.dwz import evaluate
from ratings.dwz.replay import (
    AdjustmentEvent,
    Event,
    OrderKey,
    TournamentEvent,
    adjustment_order,
    day_start,
    replay,
)
from ratings.dwz.types import TournamentResult
from ratings.models import (
    Evaluation,
    Player,
    RatingAdjustment,
    RatingState,
)

from .base import END_OF_TIME, RecalculationReport, chunks, engine_id, without_cyclic_gc
from .load import (
    load_adjustment_events,
    load_games,
    load_members,
    load_start_values,
    load_stored,
    load_tournament_events,
    reachable,
    states_before,
)
from .lock import lock_ratings
from .write import Decimals, evaluation_rows, replace_rows, update_players


@dataclass(frozen=True, slots=True)
class Changes:
    """What changed, from which point of the order (spec §9) on.

    ``dirty`` players' inputs changed at ``since``; ``reset`` players start from their start value there
    (their start value changed and ``since`` lies before their first event). ``removed_*`` objects still
    exist in the database while the recalculation runs (their stored rows are read) and are left out of the
    replay; the caller deletes them afterwards. ``everything`` replays every event from ``since`` on.
    """

    since: OrderKey | None
    dirty: Collection[int] = ()
    reset: Collection[int] = ()
    tournaments: Collection[int] = ()
    removed_tournaments: Collection[int] = ()
    adjustments: Collection[int] = ()
    removed_adjustments: Collection[int] = ()
    everything: bool = False
    # The stored rows from ``since`` on may be stale (a replay with ``until`` stopped before them): read
    # each player's state before ``since`` from his history before it, not from his next stored row.
    stale_after: bool = False


@without_cyclic_gc
def _typed_key(key: Hashable) -> tuple[str, int]:
    """An event key as built below, ``("t" | "a", pk)``; the engine types keys as ``Hashable``."""
    return cast(tuple[str, int], key)


def recalculate_changes(
    changes: Changes,
    *,
    progress: Callable[[int, int], None] | None = None,
    until: OrderKey | None = None,
) -> RecalculationReport:
    """Replay from ``changes.since`` everything reachable from the changed inputs; write what differs.
    The lock must be held.

    ``until`` stops the replay after the event at that order key: later events keep their stored rows and
    players with a later event keep their stored DWZ, so the database is consistent only up to ``until``
    until a replay of everything from ``changes.since`` on with ``stale_after`` finishes the chain (the
    background recalculation, ``ratings.services.background``).
    """
    started = time.perf_counter()
    report = RecalculationReport()
    dirty_pks, reset_pks = set(changes.dirty), set(changes.reset)
    removed_t, removed_a = set(changes.removed_tournaments), set(changes.removed_adjustments)
    changed = {("t", pk) for pk in changes.tournaments} | {("a", pk) for pk in changes.adjustments}
    since = changes.since or day_start(END_OF_TIME)
    everything = changes.everything
    since_date = since[0]

    a_events = load_adjustment_events(since, removed_a)
    old_adjustments = [
        (adjustment_order(date, pk), pk, player_id)
        for pk, player_id, date in RatingAdjustment.objects.filter(
            date__isnull=False, date__gte=since_date
        ).values_list("pk", "player_id", "date")
        if date is not None and adjustment_order(date, pk) >= since  # narrowing: the query has no NULLs
    ]
    changed_t = {pk for kind, pk in changed if kind == "t"}
    changed_adj = {pk for kind, pk in changed if kind == "a"} | removed_a
    reach: set[int] | None = None  # the tournaments the replay may evaluate (None: all)
    if everything:
        t_events = load_tournament_events(since_date, removed_t)
        stored = load_stored(since_date)
    else:
        # Load pairings and stored results only for what the change can reach (see ``reachable``).
        t_events = load_tournament_events(since_date, removed_t, games_of=set())
        hot = dirty_pks | reset_pks
        hot |= {player_id for _, pk, player_id in old_adjustments if pk in changed_adj}
        hot |= {int(ev.player) for ev in a_events if ev.key in changed_adj}
        for chunk in chunks(changed_t | removed_t):
            hot.update(Evaluation.objects.filter(tournament_id__in=chunk).values_list("player_id", flat=True))
        with_rows = set(
            Evaluation.objects.filter(end_date__gte=since_date)
            .order_by()  # the model's ordering would take part in the DISTINCT (every row)
            .values_list("tournament_id", flat=True)
            .distinct()
        )
        reach, sharing = reachable(
            t_events, seeds=changed_t, stored=with_rows, hot={engine_id(pk) for pk in hot}
        )
        # Stored rows of tournaments no longer rated here (or moved away) must be found and cleared.
        stale = with_rows - {ev.key for ev in t_events}
        games = load_games(
            reach if until is None else {ev.key for ev in t_events if ev.key in reach and ev.order <= until}
        )
        t_events = [
            dataclasses.replace(ev, games=tuple(games.get(ev.key, ()))) if ev.key in reach else ev
            for ev in t_events
            if ev.key in reach or ev.key in sharing
        ]
        stored = load_stored(since_date, reach | sharing | changed_t | removed_t | stale)
    start_values = load_start_values()
    members = load_members()

    # Players whose stored history lost an event from ``since`` on are dirty from there: the old players
    # of removed tournaments and those dropped from changed ones, and the players of changed adjustments.
    # A tournament that moved in the order leaves all its old players dirty from its old place on.
    new_players = {ev.key: {int(p) for p, _ in ev.players} for ev in t_events}
    new_order = {ev.key: ev.order for ev in t_events}
    for tid in removed_t | changed_t:
        old = stored[tid].player_ids() if tid in stored else set()
        stayed = tid in new_order and tid in stored and stored[tid].order == new_order[tid]
        dirty_pks |= old - new_players[tid] if stayed else old
    dirty_pks |= {player_id for _, pk, player_id in old_adjustments if pk in changed_adj}
    dirty_pks |= {int(ev.player) for ev in a_events if ev.key in changed_adj}

    players: set[int] = set(dirty_pks) | reset_pks
    for ev in t_events:
        players.update(int(p) for p, _ in ev.players)
    for aev in a_events:
        players.add(int(aev.player))
    if everything:
        dirty_pks |= players
    states = states_before(
        since=since,
        players=players,
        reset=reset_pks,
        stored=stored,
        old_adjustments=old_adjustments,
        start_values=start_values,
        from_history=changes.stale_after,
    )

    # Events carry typed keys so tournament and adjustment pks never collide.
    events: list[Event] = [
        TournamentEvent(("t", e.key), e.order, e.end_date, e.players, e.games, e.code, e.name, e.non_members)
        for e in t_events
    ] + [AdjustmentEvent(("a", e.key), e.order, e.player, e.dwz, e.index) for e in a_events]
    by_key = {e.key: e for e in events}
    later: list[Event] = []
    if until is not None:
        later = [e for e in events if e.order > until]
        events = [e for e in events if e.order <= until]
    # A full replay (``everything``) evaluates every event anyway: it needs no stored results as objects.
    stored_keyed: dict[Hashable, TournamentResult] | None = None
    if not everything:
        stored_keyed = {("t", tid): t.result() for tid, t in stored.items()}
    if everything:
        changed |= {_typed_key(e.key) for e in events}
    total = sum(isinstance(e, TournamentEvent) for e in events)
    done = [0]

    def on_event(event: Event) -> None:
        if progress is not None and isinstance(event, TournamentEvent):
            done[0] += 1
            progress(done[0], total)

    outcome = replay(
        events,
        states,
        members=lambda pid: int(pid) in members,
        dirty={engine_id(pk) for pk in dirty_pks | reset_pks},
        changed=changed,
        stored=stored_keyed,
        evaluator=lambda t: evaluate(t),
        on_event=on_event,
    )

    if reach is not None and not {_typed_key(key)[1] for key in outcome.evaluated} <= reach:
        # Never expected (``reachable`` is a superset by construction); without pairings it would be wrong.
        raise RuntimeError("recalculation: a tournament outside the loaded reach was evaluated")
    write: list[int] = []
    new_evaluations: list[tuple] = []
    new_restpartien: list[tuple] = []
    decimals = Decimals()
    touched: set[int] = {int(p) for p in outcome.dirty} | dirty_pks | reset_pks
    touched |= {int(e.player) for e in a_events if e.key in changed}
    for key, result in outcome.evaluated.items():
        tid = _typed_key(key)[1]
        report.tournaments.append(tid)
        report.evaluations += len(result.players)
        before = stored.get(tid)
        if before is not None and before.same_as(result, by_key[key].order):
            continue  # unchanged: keep the stored rows (replaying a consistent database writes nothing)
        write.append(tid)
        event = by_key[key]
        assert isinstance(event, TournamentEvent)  # only tournaments are evaluated
        evaluations, restpartien = evaluation_rows(tid, event, result, decimals)
        new_evaluations += evaluations
        new_restpartien += restpartien
        touched.update(int(pr.id) for pr in result.players)
        if before is not None:
            touched |= before.player_ids()
    for tid in removed_t & stored.keys():
        touched |= stored[tid].player_ids()
    # Tournaments that must lose their rows: rewritten, removed, or no longer rated.
    clear = set(write) | removed_t | {tid for tid in stored if ("t", tid) not in by_key}
    for tid in (clear - set(write)) & stored.keys():
        touched |= stored[tid].player_ids()
    replace_rows(clear, new_evaluations, new_restpartien)
    if until is not None:
        # Players with a later event keep the DWZ their stored later rows give them, until the chain is done.
        for held in later:
            if isinstance(held, TournamentEvent):
                touched -= {int(p) for p, _ in held.players}
            else:
                touched.discard(int(held.player))
        for t in stored.values():
            if t.order > until:
                touched -= t.player_ids()
    update_players(outcome.states, touched, report)
    RatingState.objects.filter(pk=1).update(last_recalculated_at=timezone.now())
    report.elapsed = time.perf_counter() - started
    return report


def recalculate(
    *, since: datetime.date | None = None, progress: Callable[[int, int], None] | None = None
) -> RecalculationReport:
    """Full (``since=None``) or partial replay of every event from ``since`` on, in one transaction."""
    with transaction.atomic():
        lock_ratings()
        start = day_start(since or datetime.date.min)
        reset = set(Player.objects.values_list("pk", flat=True)) if since is None else ()
        return recalculate_changes(Changes(since=start, reset=reset, everything=True), progress=progress)
