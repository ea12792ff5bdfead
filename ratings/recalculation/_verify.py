"""``ratings_verify``: a replay from scratch compared with every stored value (writes nothing), streamed in
the full recalculation's date windows: memory is bounded by a window, not by the history."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable
from contextlib import closing
from typing import Any

from django.db import transaction

from ratings import bulk
from ratings.dwz import evaluate
from ratings.dwz.codes import order_suffix
from ratings.dwz.replay import (
    PlayerState,
    TournamentEvent,
    gives_rating,
)
from ratings.dwz.types import PlayerResult
from ratings.models import (
    Evaluation,
    Player,
)

from ._base import chunks, engine_id, without_cyclic_gc
from ._full import WORK_MEM_MB, replay_in_windows
from ._load import (
    load_members,
    load_start_values,
    start_state,
)
from ._spans import differences as span_differences
from ._write import orphan_restpartien


def _position_problems(
    tid: int, event: TournamentEvent, edition: str, rows: dict[str, tuple[Any, ...]]
) -> list[str]:
    """Stored copies of the tournament's position (end date, code suffix) and edition that differ from
    what a replay would write: stale positions mislead every later incremental recalculation."""
    want = (event.end_date, order_suffix(event.code), edition)
    problems = []
    for player_id, have in sorted(rows.items()):
        for name, a, b in zip(("end_date", "code_suffix", "edition"), have, want, strict=True):
            if a != b:
                problems.append(f"tournament {tid}, player {player_id}: {name} stored {a!r}, replay {b!r}")
    return problems


def _positions(tournaments: set[int]) -> dict[int, dict[str, tuple[Any, ...]]]:
    positions: dict[int, dict[str, tuple[Any, ...]]] = defaultdict(dict)
    for chunk in chunks(sorted(tournaments)):
        for tid, player_id, end, suffix, edition in (
            Evaluation.objects.filter(tournament_id__in=chunk)
            .order_by()
            .values_list("tournament_id", "player_id", "end_date", "code_suffix", "edition")
        ):
            positions[tid][engine_id(player_id)] = (end, suffix, edition)
    return positions


def ratings_verify(*, progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Replay everything from scratch in memory and list every stored value that differs (writes nothing).

    One transaction: every window reads the same snapshot on PostgreSQL (a save between two windows cannot
    show up as a difference), with the full recalculation's memory for sorts.
    """
    outermost = (
        not transaction.get_connection().in_atomic_block
    )  # nothing written: the next window read ahead
    with transaction.atomic():
        bulk.tune_window_reads(work_mem_mb=WORK_MEM_MB)
        return _verify(progress, read_ahead=outermost)


@without_cyclic_gc
def _verify(progress: Callable[[int, int], None] | None, *, read_ahead: bool) -> list[str]:  # noqa: C901 -- existing; issue 27
    start_values = load_start_values()
    rows = {
        pk: (dwz, index, last)
        for pk, dwz, index, last in Player.objects.order_by().values_list(
            "pk", "dwz", "index", "last_evaluated"
        )
    }
    states = {engine_id(pk): start_state(start_values.get(pk)) for pk in rows}
    orphans = (
        orphan_restpartien()
        .order_by("tournament_id", "player_id")
        .values_list("tournament_id", "player_id")
        .distinct()
    )
    problems: list[str] = [
        f"tournament {tid}, player {player_id}: Restpartien without an evaluation"
        for tid, player_id in orphans
    ]
    last: dict[int, datetime.date] = {}
    replayed = replay_in_windows(
        states,
        members=load_members(),
        evaluator=lambda t: evaluate(t),
        progress=progress,
        snapshot=bulk.shared_snapshot() if read_ahead else None,
    )
    with closing(replayed):  # closed on an error: stops the reader
        for _window, events, evaluated, stored in replayed:
            for key, result in evaluated.items():
                event = events[key]  # type: ignore[index]  # tournament events are keyed by pk here
                tid = int(key)  # type: ignore[call-overload]
                before = stored.pop(tid, None)
                for pr in result.players:
                    if gives_rating(pr):
                        last[int(pr.id)] = event.end_date  # evaluation order: the last one wins
                if before is None:
                    if not result.players:
                        continue  # a head without entries yet (officer workflow): nothing to store
                    problems.append(f"tournament {tid}: no stored evaluation")
                    continue
                # The full recalculation's test: equal row tuples at the same position and edition leave
                # nothing to report. Only a tournament that differs is compared value by value (and its rows'
                # positions read), which costs more than the replay itself at 2 M evaluations.
                if before.same_as(result, event.order):
                    continue
                have = before.result()
                problems += _position_problems(tid, event, result.edition, _positions({tid}).get(tid, {}))
                stored_by_id = {pr.id: pr for pr in have.players}
                for pr in result.players:
                    old = stored_by_id.pop(pr.id, None)
                    if old is None:
                        problems.append(f"tournament {tid}, player {pr.id}: evaluation missing")
                        continue
                    for name in PlayerResult.__slots__:
                        a, b = getattr(old, name), getattr(pr, name)
                        if a != b:
                            problems.append(
                                f"tournament {tid}, player {pr.id}: {name} stored {a!r}, replay {b!r}"
                            )
                problems += [
                    f"tournament {tid}, player {pid}: stored evaluation not in replay" for pid in stored_by_id
                ]
    not_evaluated = (
        Evaluation.objects.filter(tournament__rated=False)
        .order_by("tournament_id")
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    problems += [
        f"tournament {tid}: stored evaluation of a tournament that is not evaluated" for tid in not_evaluated
    ]
    # The spans the lists at a Stichtag read are a function of the stored rows just compared.
    problems += [f"player {pk}: rating spans differ from his stored rows" for pk in span_differences()]
    for pk, (dwz, index, last_evaluated) in rows.items():
        state = states.get(engine_id(pk)) or PlayerState()
        want = (state.dwz, state.index, last.get(pk))
        if (dwz, index, last_evaluated) != want:
            problems.append(
                f"player {pk}: stored dwz/index/last {(dwz, index, last_evaluated)}, replay {want}"
            )
    return problems
