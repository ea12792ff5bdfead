"""``ratings_verify``: a replay from scratch in memory compared with every stored value (writes nothing)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable

from ratings.dwz import evaluate
from ratings.dwz.codes import order_suffix
from ratings.dwz.replay import (
    Event,
    PlayerState,
    TournamentEvent,
    day_start,
    gives_rating,
    replay,
)
from ratings.dwz.types import PlayerResult
from ratings.models import (
    Evaluation,
    Player,
    Restpartie,
)

from .base import engine_id, without_cyclic_gc
from .load import (
    load_adjustment_events,
    load_members,
    load_start_values,
    load_stored,
    load_tournament_events,
    start_state,
)


def _position_problems(tid: int, event: TournamentEvent, edition: str, rows: dict[str, tuple]) -> list[str]:
    """Stored copies of the tournament's position (end date, code suffix) and edition that differ from
    what a replay would write: stale positions mislead every later incremental recalculation."""
    want = (event.end_date, order_suffix(event.code), edition)
    problems = []
    for player_id, have in sorted(rows.items()):
        for name, a, b in zip(("end_date", "code_suffix", "edition"), have, want, strict=True):
            if a != b:
                problems.append(f"tournament {tid}, player {player_id}: {name} stored {a!r}, replay {b!r}")
    return problems


@without_cyclic_gc
def ratings_verify(*, progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Replay everything from scratch in memory and list every stored value that differs (writes nothing)."""
    t_events = load_tournament_events(datetime.date.min, set())
    a_events = load_adjustment_events(day_start(datetime.date.min), set())
    start_values = load_start_values()
    members = load_members()
    rows = {
        pk: (dwz, index, last)
        for pk, dwz, index, last in Player.objects.values_list("pk", "dwz", "index", "last_evaluated")
    }
    states = {engine_id(pk): start_state(start_values.get(pk)) for pk in rows}
    total = len(t_events)
    done = [0]

    def on_event(event: Event) -> None:
        if progress is not None and isinstance(event, TournamentEvent):
            done[0] += 1
            progress(done[0], total)

    events: list[Event] = [*t_events, *a_events]
    outcome = replay(
        events,
        states,
        members=lambda pid: int(pid) in members,
        evaluator=lambda t: evaluate(t),
        on_event=on_event,
    )
    stored = {tid: t.result() for tid, t in load_stored(datetime.date.min).items()}
    positions: dict[int, dict[str, tuple]] = defaultdict(dict)
    for tid, player_id, end, suffix, edition in Evaluation.objects.values_list(
        "tournament_id", "player_id", "end_date", "code_suffix", "edition"
    ):
        positions[tid][engine_id(player_id)] = (end, suffix, edition)
    evaluated_pairs = {(tid, pid) for tid, rows in positions.items() for pid in rows}
    problems: list[str] = [
        f"tournament {tid}, player {player_id}: Restpartien without an evaluation"
        for tid, player_id in Restpartie.objects.values_list("tournament_id", "player_id").distinct()
        if (tid, engine_id(player_id)) not in evaluated_pairs
    ]
    last: dict[int, datetime.date] = {}
    by_key = {e.key: e for e in t_events}
    for key, result in outcome.evaluated.items():
        tid = int(key)  # type: ignore[call-overload]  # tournament events are keyed by pk here
        have = stored.pop(tid, None)
        for pr in result.players:
            if gives_rating(pr):
                last[int(pr.id)] = max(last.get(int(pr.id), datetime.date.min), by_key[tid].end_date)
        if have is None:
            if not result.players:
                continue  # a head without entries yet (officer workflow): nothing to store
            problems.append(f"tournament {tid}: no stored evaluation")
            continue
        problems += _position_problems(tid, by_key[tid], result.edition, positions.pop(tid, {}))
        stored_by_id = {pr.id: pr for pr in have.players}
        for pr in result.players:
            old = stored_by_id.pop(pr.id, None)
            if old is None:
                problems.append(f"tournament {tid}, player {pr.id}: evaluation missing")
                continue
            for name in PlayerResult.__slots__:
                a, b = getattr(old, name), getattr(pr, name)
                if a != b:
                    problems.append(f"tournament {tid}, player {pr.id}: {name} stored {a!r}, replay {b!r}")
        problems += [
            f"tournament {tid}, player {pid}: stored evaluation not in replay" for pid in stored_by_id
        ]
    problems += [
        f"tournament {tid}: stored evaluation of a tournament that is not evaluated" for tid in stored
    ]
    for pk, (dwz, index, last_evaluated) in rows.items():
        state = outcome.states.get(engine_id(pk)) or PlayerState()
        want = (state.dwz, state.index, last.get(pk))
        if (dwz, index, last_evaluated) != want:
            problems.append(
                f"player {pk}: stored dwz/index/last {(dwz, index, last_evaluated)}, replay {want}"
            )
    return problems
