"""The recalculation itself: replay from a changed point everything the change can reach, write what
differs."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, cast

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from ratings import bulk
from ratings.dwz import evaluate, sets_rating
from ratings.dwz.reevaluate import reevaluate
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
    RatingAdjustment,
    RatingState,
    Restpartie,
    Tournament,
    TournamentEntry,
)

from ._base import END_OF_TIME, RecalculationReport, chunks, engine_id, without_cyclic_gc
from ._full import recalculate_full
from ._incremental import Frontier, just_after
from ._load import (
    RESULT_ROW,
    StoredTournament,
    load_adjustment_events,
    load_members,
    load_start_values,
    load_stored,
    load_tournament_events,
    start_state,
    states_before,
)
from ._lock import lock_ratings
from ._players import update_in_place
from ._spans import rebuild as rebuild_spans
from ._write import (
    RESTPARTIE_FIELDS,
    Decimals,
    evaluation_rows,
    last_evaluations,  # the stored ones, by player (indexed)
    replace_rows,
    update_players,
)


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
    # Replays stopped by ``until`` (``RecalculationReport.unfinished``): ``(until, players)``. The players'
    # stored rows after ``until`` may be stale; they turn dirty there, and their states at ``since`` are
    # read from their history before it. Everything before ``since`` must be consistent.
    unfinished: Collection[tuple[OrderKey, Collection[int]]] = ()
    # Events the players' stored histories lost (an adjustment moved away from there): ``(place, players)``.
    # The players turn dirty at ``place``, whatever the events before it give them; their stored rows after
    # it still count the lost event. Removed and moved tournaments are found from their stored rows.
    lost: Collection[tuple[OrderKey, Collection[int]]] = ()


def _typed_key(key: Hashable) -> tuple[str, int]:
    """An event key as built below, ``("t" | "a", pk)``; the engine types keys as ``Hashable``."""
    return cast(tuple[str, int], key)


@without_cyclic_gc
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
    if not changes.everything and not changes.stale_after:  # stale stored rows: replay everything
        return _recalculate_reach(changes, progress=progress, until=until)
    started = time.perf_counter()
    report = RecalculationReport()
    reset_pks = set(changes.reset)
    since = changes.since or day_start(END_OF_TIME)
    since_date = since[0]

    removed_t = set(changes.removed_tournaments)
    a_events = load_adjustment_events(since, set(changes.removed_adjustments))
    old_adjustments = [
        (adjustment_order(date, pk), pk, player_id)
        for pk, player_id, date in RatingAdjustment.objects.filter(date__isnull=False, date__gte=since_date)
        .order_by()
        .values_list("pk", "player_id", "date")
        if date is not None and adjustment_order(date, pk) >= since  # narrowing: the query has no NULLs
    ]
    t_events = load_tournament_events(since_date, removed_t)
    stored = load_stored(since_date)
    start_values = load_start_values()
    members = load_members()

    players: set[int] = set(reset_pks)
    for ev in t_events:
        players.update(int(p) for p, _ in ev.players)
    for aev in a_events:
        players.add(int(aev.player))
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
    later: list[Event] = []
    if until is not None:
        later = [e for e in events if e.order > until]
        events = [e for e in events if e.order <= until]
    total = sum(isinstance(e, TournamentEvent) for e in events)
    done = [0]

    def on_event(event: Event) -> None:
        if progress is not None and isinstance(event, TournamentEvent):
            done[0] += 1
            progress(done[0], total)

    # A full replay evaluates every event: it needs no stored results as objects.
    outcome = replay(
        events,
        states,
        members=lambda pid: int(pid) in members,
        evaluator=lambda t: evaluate(t),
        on_event=on_event,
    )
    touched = {int(p) for p in outcome.dirty} | reset_pks
    evaluated = {_typed_key(key)[1]: result for key, result in outcome.evaluated.items()}
    by_pk = {cast(int, e.key): e for e in t_events}
    written = _write(evaluated, by_pk, stored, removed=removed_t, report=report)
    _rewrite_spans(changes, written)
    touched |= written
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
    report.elapsed = time.perf_counter() - started
    return report


def _recalculate_reach(
    changes: Changes, *, progress: Callable[[int, int], None] | None, until: OrderKey | None
) -> RecalculationReport:
    """The incremental recalculation: replay only what the change reaches (see ``incremental``)."""
    started = time.perf_counter()
    report = RecalculationReport()
    frontier = replay_reach(changes, progress=progress, until=until)
    if until is not None:
        for order, (kind, pk) in frontier.heap:
            if kind == "d" and order > until:
                report.lost_after.setdefault(order, set()).add(pk)

    written = _write(
        frontier.evaluated, frontier.events, frontier.stored, removed=frontier.removed_t, report=report
    )
    _rewrite_spans(changes, written)
    touched = {int(p) for p in frontier.touched} | written
    frontier.finish(touched, until=until)
    if until is not None:
        # Players with a later event keep the DWZ their stored later rows give them, until the chain is done.
        touched = {pk for pk in touched if not frontier.has_event_after(pk, until)}
        report.unfinished = frontier.left_after(until)  # a dirty player without a later event is done
    # The last rating evaluations from ``since`` on are known here; only older ones are read.
    last, before = frontier.last_rating_dates(touched)
    last.update(last_evaluations(before))
    update_players(frontier.states, touched, report, last)
    report.elapsed = time.perf_counter() - started
    return report


def replay_reach(  # noqa: C901 -- existing; issue 27
    changes: Changes,
    *,
    progress: Callable[[int, int], None] | None = None,
    until: OrderKey | None = None,
    unsaved: Mapping[int, TournamentEvent | None] = MappingProxyType({}),
) -> Frontier:
    """Load, seed and run the incremental replay of ``changes`` (up to ``until``): the ``Frontier`` holds
    what it evaluated (``evaluated``, in evaluation order) and the players still dirty. Reads only: no
    lock, no row written.

    ``unsaved``: changed tournaments as their saves would store them (``unsaved_tournament_event``; None:
    not rated once saved), replayed instead of their stored heads, entries and games (a preview; their
    stored rows are the old ones either way: the save rewrites them only in the replay's write)."""
    since = changes.since or day_start(END_OF_TIME)
    since_date = since[0]
    dirty_pks, reset_pks = set(changes.dirty), set(changes.reset)
    removed_t, removed_a = set(changes.removed_tournaments), set(changes.removed_adjustments)
    changed_t, changed_a = set(changes.tournaments) - removed_t, set(changes.adjustments) - removed_a
    changed = {("t", pk) for pk in changed_t} | {("a", pk) for pk in changed_a}

    with_rows = Evaluation.objects.filter(tournament=OuterRef("pk"), end_date__gte=since_date)
    # Unrated tournaments still holding rows (never expected: a change of ``rated`` is a changed tournament).
    stale = set(Tournament.objects.filter(rated=False).filter(Exists(with_rows)).values_list("pk", flat=True))
    # Rated tournaments with entries and no stored results (never evaluated) are evaluated wherever they lie
    # (up to ``until``: the later ones are for the replay that finishes the chain, which finds them again).
    candidates = Tournament.objects.filter(rated=True, end_date__gte=since_date)
    if until is not None:
        candidates = candidates.filter(end_date__lte=until[0])
    unevaluated = set(
        candidates.filter(Exists(TournamentEntry.objects.filter(tournament=OuterRef("pk"))))
        .exclude(Exists(with_rows))
        .values_list("pk", flat=True)
    )
    # Unsaved tournaments: rated ones are seeded with their given event, the others are stale if they
    # still hold rows (as the stored heads and rows will say once saved).
    assert unsaved.keys() <= changed_t, "an unsaved tournament is a changed one"
    given = set(unsaved)
    stale -= given
    not_rated = {pk for pk, ev in unsaved.items() if ev is None}
    if not_rated:
        rows_of = Evaluation.objects.filter(tournament_id__in=not_rated, end_date__gte=since_date)
        stale |= set(rows_of.values_list("tournament_id", flat=True))
    old = load_stored(since_date, changed_t | removed_t | stale)
    seeds = load_tournament_events(since_date, removed_t, only=(changed_t | unevaluated) - stale - given)
    seeds += [ev for ev in unsaved.values() if ev is not None]
    frontier = Frontier(
        since,
        removed_t,
        removed_a,
        changed,
        reset_pks,
        stored=dict(old),
        seeds={cast(int, ev.key): ev for ev in seeds},
        stale=stale,
    )
    frontier.add(seeds)
    current = {cast(int, ev.key): ev for ev in seeds}

    # Players whose stored history lost an event are dirty from its old place on (``lost``): the old
    # players of removed tournaments and those dropped from changed ones; a tournament that moved in the
    # order loses all its old players at its old place. Not from ``since``: an earlier event of theirs (a
    # tournament the same day) may give them their stored result again, and the replay's rule would make
    # them clean there although their stored rows after it still count the lost event.
    lost: dict[OrderKey, set[int]] = {}
    for place, pks in changes.lost:
        lost.setdefault(place, set()).update(pks)
    for tid in (removed_t | changed_t | stale) & old.keys():
        old_players = old[tid].player_ids()
        ev = current.get(tid)
        if ev is not None and old[tid].order == ev.order:
            old_players -= {int(p) for p, _ in ev.players}
        if old_players:
            lost.setdefault(old[tid].order, set()).update(old_players)
    adjusted = set(
        RatingAdjustment.objects.filter(pk__in=changed_a | removed_a).values_list("player_id", flat=True)
    )
    dirty_pks |= adjusted
    hot = dirty_pks | reset_pks
    resumed = {pk for _, pks in changes.unfinished for pk in pks}
    # A dated adjustment that moved away is no longer stored at its old place: the players' stored rows from
    # there on still count it, so their state at ``since`` comes from their history before it.
    frontier.from_history = resumed | {pk for _, pks in changes.lost for pk in pks}
    losing = {pk for pks in lost.values() for pk in pks}
    frontier.track(hot | resumed | losing | {int(p) for ev in seeds for p, _ in ev.players})
    frontier.dirty = {engine_id(pk) for pk in hot}
    frontier.touched |= frontier.dirty
    for ev in seeds:
        frontier.push(ev.order, ("t", cast(int, ev.key)))
    for pk in hot:
        frontier.push_next(pk, since, inclusive=True)
    for pk in adjusted:
        for order, key in frontier.players[pk].events:
            if key in changed:
                frontier.push(order, key)
    for stopped, pks in changes.unfinished:
        for pk in pks:
            frontier.push(just_after(stopped), ("d", pk))
    for place, pks in lost.items():
        for pk in pks:
            frontier.push(place, ("d", pk))
    frontier.run(evaluate, reevaluate, progress, until=until)
    return frontier


def _write(
    evaluated: dict[int, TournamentResult],
    events: Mapping[int, TournamentEvent],
    stored: dict[int, StoredTournament],
    *,
    removed: set[int],
    report: RecalculationReport,
) -> set[int]:
    """Replace the rows of the tournaments whose results changed and clear those of removed (or no longer
    rated) ones; return the players whose rows changed.

    A tournament at its stored position with the same players in the same order and edition keeps its
    rows: only the rows that differ are updated in place (and their Restpartien replaced where those
    differ). A late chain changes about one row in nine of the tournaments it re-evaluates; rewriting
    whole tournaments cost the deletes, the inserts into three indexes and their foreign-key checks for
    all of them."""
    write: list[int] = []
    new_evaluations: list[tuple[Any, ...]] = []
    new_restpartien: list[tuple[Any, ...]] = []
    in_place: list[tuple[Any, ...]] = []
    renewed: set[tuple[int, int]] = set()  # (tournament, player) whose Restpartien are replaced
    decimals = Decimals()
    touched: set[int] = set()
    for tid, result in evaluated.items():
        report.tournaments.append(tid)
        report.evaluations += len(result.players)
        before = stored.get(tid)
        event = events[tid]
        order = event.order
        now = list(map(RESULT_ROW, result.players))  # each new row once, as a stored row (``same_as``)
        same_place = before is not None and before.order == order and before.edition == result.edition
        if before is not None and same_place and before.rows == now:
            continue  # unchanged: keep the stored rows (replaying a consistent database writes nothing)
        if (
            before is None
            or not same_place
            or [row[0] for row in before.rows] != [pr.id for pr in result.players]
        ):
            # rows stay in entry order (a re-ranked tournament comes with its stored rows in id order)
            evaluations, restpartien = evaluation_rows(tid, event, result, decimals)
            touched |= _rows_changed(before, result, order)
            write.append(tid)
            new_evaluations += evaluations
            new_restpartien += restpartien
            continue
        # The same players in the same order: only the rows that differ (a late chain changes about one in
        # nine), built and compared once each; their players' own rows change where the part these rows
        # give them does (``_rows_changed``).
        differ = [
            (pr, old, new)
            for pr, old, new in zip(result.players, before.rows, now, strict=True)
            if old != new
        ]
        evaluations, restpartien = evaluation_rows(
            tid, event, TournamentResult(result.edition, tuple(pr for pr, _, _ in differ)), decimals
        )
        in_place += evaluations
        for pr, old, new in differ:
            if _player_part(old) != _player_part(new):
                touched.add(int(pr.id))
            if old[12] != new[12]:  # the Restpartien
                renewed.add((tid, int(pr.id)))
        new_restpartien += [rp for rp in restpartien if (rp[1], rp[0]) in renewed]  # (player, tournament, …)
    # Tournaments that must lose their rows: rewritten, removed, or no longer rated.
    clear = set(write) | removed | {tid for tid in stored if tid not in events}
    for tid in (clear - set(write)) & stored.keys():
        touched |= stored[tid].player_ids()
    replace_rows(clear, new_evaluations, [])
    update_in_place(in_place, renewed)
    bulk.insert_rows(Restpartie, RESTPARTIE_FIELDS[1:], new_restpartien)
    RatingState.objects.filter(pk=1).update(last_recalculated_at=timezone.now())
    return touched


def _rewrite_spans(changes: Changes, written: set[int]) -> None:
    """Rewrite the rating spans of the players whose stored rows changed: ``written`` (their evaluation
    rows, ``_write``), the players of the changed, moved and removed adjustments and the dirty ones, from
    ``changes.since`` on (nothing before it changed); the reset ones (a start value, a merge) whole. Removed
    adjustments still exist here: they are left out."""
    removed = changes.removed_adjustments
    players = set(written) | set(changes.dirty)
    since = changes.since[0] if changes.since is not None else None
    for place, lost in changes.lost:
        players |= set(lost)
        since = min(since, place[0]) if since is not None else None
    for chunk in chunks([*changes.adjustments, *removed]):
        players |= set(RatingAdjustment.objects.filter(pk__in=chunk).values_list("player_id", flat=True))
    reset = set(changes.reset)
    rebuild_spans(players=reset, removed_adjustments=removed)
    rebuild_spans(players=players - reset, since=since, removed_adjustments=removed)


def _rows_changed(before: StoredTournament | None, result: TournamentResult, order: OrderKey) -> set[int]:
    """The players whose DWZ, index or last evaluation the tournament's new rows may change: all of them if
    it moved or is new, otherwise those whose row now sets another DWZ or index, or sets it where it did
    not (or the other way round), and those who entered or left it. Another Leistung or expected score
    alone leaves the player's row in the list as it is."""
    if before is None or before.order != order or before.edition != result.edition:
        return {int(pr.id) for pr in result.players} | (before.player_ids() if before is not None else set())
    old = {row[0]: row for row in before.rows}
    changed = set()
    for pr in result.players:
        row, now = old.pop(pr.id, None), RESULT_ROW(pr)
        if row != now and (row is None or _player_part(row) != _player_part(now)):  # equal rows: equal parts
            changed.add(int(pr.id))
    return changed | {int(pid) for pid in old}


def _player_part(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a stored row gives the player's own row: whether it sets his DWZ, and DWZ and index after it."""
    return sets_rating(row[1], row[4]), row[10], row[11]  # status, n, dwz_new, index_new


def recalculate(
    *,
    since: datetime.date | None = None,
    progress: Callable[[int, int], None] | None = None,
    reuse: bool = True,
) -> RecalculationReport:
    """Full (``since=None``) or partial replay of every event from ``since`` on, in one transaction.

    The full one streams the history in date windows (``full``) and, with ``reuse``, takes the stored rows
    their digest certifies instead of evaluating again; a partial one starts from the stored states at
    ``since`` and holds what follows at once.
    """
    outermost = not transaction.get_connection().in_atomic_block  # nothing written: windows read ahead
    with transaction.atomic():
        lock_ratings()
        if since is None:
            return recalculate_full(
                evaluator=lambda t: evaluate(t), progress=progress, read_ahead=outermost, reuse=reuse
            )
        return recalculate_changes(Changes(since=day_start(since), everything=True), progress=progress)


def recalculate_start_values(*, players: Collection[int]) -> RecalculationReport:
    """What ``recalculate_changes`` does for players without any event (no evaluation, no dated adjustment)
    whose start value changed: the replay from the end of time reaches nothing, so each player's state is his
    start value and his last evaluation none. The same writes, without loading an empty history (a new
    player's start value costs a third of the queries). Callers hold the rating lock."""
    started = time.perf_counter()
    report = RecalculationReport()
    start_values = load_start_values(players)
    states = {engine_id(pk): start_state(start_values.get(pk)) for pk in players}
    update_players(states, set(players), report, {})
    rebuild_spans(players=players)
    RatingState.objects.filter(pk=1).update(last_recalculated_at=timezone.now())
    report.elapsed = time.perf_counter() - started
    return report
