"""The full recalculation, streamed: the replay from scratch runs in date windows of about ``WINDOW``
entries, each loaded, replayed, compared and written before the next, so memory is bounded by a window and
the players' states, not by the years of history (issue 16: 4.1 GB at 2 M evaluations before)."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Generator, Hashable
from contextlib import closing, nullcontext
from operator import itemgetter
from typing import Any, cast

from django.db.models import Count
from django.utils import timezone

from ratings import bulk
from ratings.dwz.digest import InputDigest
from ratings.dwz.replay import Event, PlayerState, TournamentEvent, day_start, gives_rating, replay
from ratings.dwz.types import GameInput, TournamentInput, TournamentResult
from ratings.models import (
    Evaluation,
    EvaluationDigest,
    Player,
    RatingState,
    Restpartie,
    Tournament,
    TournamentEntry,
)

from ._base import EngineIds, RecalculationReport, chunks, code_digest, engine_id, without_cyclic_gc
from ._load import (
    RESULT_ROW,
    StoredTournament,
    game_inputs,
    load_adjustment_events,
    load_members,
    load_start_values,
    load_stored,
    load_tournament_events,
    start_state,
)
from ._spans import rebuild as rebuild_spans
from ._write import Decimals, evaluation_rows, orphan_restpartien, replace_rows, update_players

WINDOW = 50_000  # entries (player evaluations) per window: ~100 MB of rows, games and results at most
WORK_MEM_MB = 64  # PostgreSQL: a window's sorts in memory

Window = tuple[datetime.date, datetime.date | None]  # [first, until); until None: open


def tournament_key(event: TournamentEvent) -> int:
    """The tournament's pk: the engine types event keys as ``Hashable``; this replay keys them by pk."""
    return cast(int, event.key)


def windows(since: datetime.date, size: int | None = None) -> list[Window]:
    """Whole-day date ranges that split the rated tournaments ending on or after ``since`` into windows of
    about ``size`` entries (more only if a single day holds more)."""
    size = WINDOW if size is None else size
    per_day = (
        TournamentEntry.objects.filter(tournament__rated=True, tournament__end_date__gte=since)
        .order_by("tournament__end_date")
        .values_list("tournament__end_date")
        .annotate(entries=Count("pk"))
    )
    bounds: list[Window] = []
    first, filled = since, 0
    for day, entries in per_day:
        if filled and filled + entries > size:
            bounds.append((first, day))
            first, filled = day, 0
        filled += entries
    bounds.append((first, None))
    return bounds


_first = itemgetter(0)


class Certificates:
    """Stored rows that their digest (``ratings.dwz.digest``) certifies are reused, not evaluated again.

    ``known`` is the replay's hook: it hashes every input it is shown (kept in ``inputs`` for the digest of
    a new result) and returns the stored result where the stored digest matches the input and the rows
    now. The replay shows it the window's tournaments after ``window`` gave it their stored rows.

    Besides the input, a result's rows depend on ``members`` only (``replay.normalise`` keeps Restpartien
    for members): whether each player is one is hashed with the input.

    The window's events come without games: their pairings are hashed as the database's rows (``games``,
    ``load_tournament_events(raw_games=...)``), and ``games_of`` builds the engine's games for the few
    tournaments evaluated. Building 7.7 M ``GameInput``s to hash them was a fifth of a full recalculation
    of 2 M certified evaluations."""

    def __init__(self, members: set[int]) -> None:
        self.members = {engine_id(pk) for pk in members}  # looked up by the players' engine ids
        self.code = code_digest()
        self.names = EngineIds()
        self.inputs: dict[int, InputDigest] = {}
        self.reused: set[int] = set()
        self.stored: dict[int, StoredTournament] = {}
        self.digests: dict[int, str] = {}
        self.games: dict[int, list[tuple[Any, ...]]] = {}

    def window(
        self,
        stored: dict[int, StoredTournament],
        digests: dict[int, str],
        games: dict[int, list[tuple[Any, ...]]],
    ) -> None:
        self.stored, self.digests, self.games = stored, digests, games
        self.inputs = {}
        self.reused = set()

    def games_of(self, event: TournamentEvent) -> tuple[GameInput, ...]:
        return tuple(game_inputs(self.games.get(tournament_key(event), ()), self.names))

    def known(self, event: TournamentEvent, given: TournamentInput) -> TournamentResult | None:
        tid = tournament_key(event)
        try:
            members = list(map(self.members.__contains__, map(_first, event.players)))
            games = self.games.get(tid, [])
            hashed = self.inputs[tid] = InputDigest(self.code, given, members, games)
        except ValueError:  # not in the canonical form: evaluated (and never certified)
            return None
        before, digest = self.stored.get(tid), self.digests.get(tid)
        if before is None or digest is None or before.edition is None or before.order != event.order:
            return None
        try:
            if hashed.of(before.edition, before.rows) != digest:
                return None
        except ValueError:
            return None
        self.reused.add(tid)
        return before.result()

    def of(self, tid: int, result: TournamentResult) -> str | None:
        """The digest of a new result (None: its input had no canonical form)."""
        hashed = self.inputs.get(tid)
        if hashed is None:
            return None
        try:
            return hashed.of(result.edition, map(RESULT_ROW, result.players))
        except ValueError:
            return None


def load_digests(window: Window) -> dict[int, str]:
    """The stored digests of the window's rated tournaments."""
    first, until = window
    query = EvaluationDigest.objects.filter(tournament__rated=True, tournament__end_date__gte=first)
    if until is not None:
        query = query.filter(tournament__end_date__lt=until)
    return dict(bulk.select_rows(query.order_by().values_list("tournament_id", "digest")))


def replay_in_windows(
    states: dict[str, PlayerState],
    *,
    members: set[int],
    evaluator: Callable[[TournamentInput], TournamentResult],
    progress: Callable[[int, int], None] | None = None,
    snapshot: str | None = None,
    certificates: Certificates | None = None,
) -> Generator[
    tuple[Window, dict[int, TournamentEvent], dict[Hashable, TournamentResult], dict[int, StoredTournament]],
    None,
    None,
]:
    """Replay every rated tournament and dated adjustment from scratch, one window at a time: yields each
    window, its tournaments (by pk), their results in evaluation order and the window's stored rows;
    ``states`` carry over (updated in place). Tournament and adjustment events are keyed by pk: a full
    replay evaluates only tournaments.

    ``snapshot`` (``bulk.shared_snapshot``; PostgreSQL): the next window is read on a second connection
    (``bulk.read_ahead``) while this one is replayed and written, and this connection reads nothing while
    the caller iterates. The caller writes only the rows of the window it was given, never those of a later
    one, so the reader sees what this connection would.

    ``certificates``: the window's stored digests are read too, and certified stored rows are reused.
    """
    since = datetime.date.min
    total = Tournament.objects.filter(rated=True).count()
    adjustments = load_adjustment_events(day_start(since), set())
    done = [0]

    def on_event(event: Event) -> None:
        if progress is not None and isinstance(event, TournamentEvent):
            done[0] += 1
            progress(done[0], total)

    birth_years = dict(Player.objects.order_by().values_list("pk", "birth_year"))

    def load(
        window: Window,
    ) -> tuple[list[TournamentEvent], dict[int, StoredTournament], dict[Any, Any], dict[Any, Any]]:
        first, until = window
        if certificates is None:
            events = load_tournament_events(first, set(), until=until, birth_years=birth_years)
            return events, load_stored(since, window=window), {}, {}
        games: dict[int, list[tuple[Any, ...]]] = {}
        events = load_tournament_events(first, set(), until=until, birth_years=birth_years, raw_games=games)
        return events, load_stored(since, window=window), load_digests(window), games

    loaded = bulk.read_ahead(windows(since), load, snapshot=snapshot, prepare=_tune)
    with closing(loaded):
        for (first, until), (t_events, stored, digests, games) in loaded:
            in_window = [
                a for a in adjustments if first <= a.order[0] and (until is None or a.order[0] < until)
            ]
            if certificates is not None:
                certificates.window(stored, digests, games)
            outcome = replay(
                [*t_events, *in_window],
                states,
                members=lambda pid: int(pid) in members,
                evaluator=evaluator,
                on_event=on_event,
                known=None if certificates is None else certificates.known,
                games_of=None if certificates is None else certificates.games_of,
            )
            yield (first, until), {tournament_key(ev): ev for ev in t_events}, outcome.evaluated, stored


def _tune() -> None:
    bulk.tune_window_reads(work_mem_mb=WORK_MEM_MB)


@without_cyclic_gc
def recalculate_full(
    *,
    evaluator: Callable[[TournamentInput], TournamentResult],
    progress: Callable[[int, int], None] | None = None,
    read_ahead: bool = False,
    reuse: bool = True,
) -> RecalculationReport:
    """Replay every event from scratch (window by window) and write what differs. The lock must be held.

    Every player starts from his start value; a window's stored rows are compared with its results and only
    the tournaments that differ are rewritten (a consistent database writes nothing). The players' last
    evaluations are known from the replay itself.

    ``reuse``: a tournament whose stored rows are certified by their digest for the input the replay gives
    it (``Certificates``) is not evaluated again: its rows are the result. Every tournament evaluated gets
    the digest of its input and its result (``EvaluationDigest``), so the next recalculation of a database
    in which nothing changed evaluates nothing. ``reuse=False`` evaluates every tournament.

    ``read_ahead`` (the caller's transaction has written nothing but the rating lock): on PostgreSQL the
    next window is read on a second connection on this transaction's snapshot, and each window's rows are
    written in a thread (``bulk.WriteBehind``) while the next is replayed. ``progress`` must then not use
    the database.
    """
    started = time.perf_counter()
    bulk.tune_window_reads(work_mem_mb=WORK_MEM_MB)
    report = RecalculationReport()
    start_values = load_start_values()
    players = set(Player.objects.order_by().values_list("pk", flat=True))
    states = {engine_id(pk): start_state(start_values.get(pk)) for pk in players}
    last_by_id: dict[str, datetime.date] = {}  # by engine id: converted once per player at the end
    decimals = Decimals()
    members = load_members()
    snapshot = bulk.shared_snapshot() if read_ahead else None
    certificates = Certificates(members) if reuse else None
    replayed = replay_in_windows(
        states,
        members=members,
        evaluator=evaluator,
        progress=progress,
        snapshot=snapshot,
        certificates=certificates,
    )
    behind = bulk.WriteBehind() if snapshot is not None else None
    rewritten: set[int] = set()  # players whose rows are rewritten: their rating spans too
    renewed: list[tuple[int, str]] = []  # (tournament, digest) to store
    outdated: list[int] = []  # tournaments whose stored digest is replaced
    with closing(replayed), behind or nullcontext():  # on an error: the reader stops, the writer finishes
        for _window, events, evaluated, stored in replayed:
            clear: list[int] = []
            evaluations: list[tuple[Any, ...]] = []
            restpartien: list[tuple[Any, ...]] = []
            for key, result in evaluated.items():
                event = events[key]  # type: ignore[index]  # tournament events are keyed by pk here
                tid = tournament_key(event)
                report.tournaments.append(tid)
                report.evaluations += len(result.players)
                for pr in result.players:
                    if gives_rating(pr):
                        last_by_id[pr.id] = event.end_date  # evaluation order: the last one wins
                if certificates is not None:
                    if tid in certificates.reused:
                        report.reused += len(result.players)
                        continue
                    digest = certificates.of(tid, result)
                    if digest is not None and digest != certificates.digests.get(tid):
                        renewed.append((tid, digest))
                        if tid in certificates.digests:
                            outdated.append(tid)
                before = stored.get(tid)
                if before is not None and before.same_as(result, event.order):
                    continue
                clear.append(tid)
                rewritten |= {int(pr.id) for pr in result.players}
                if before is not None:
                    rewritten |= before.player_ids()
                rows, rps = evaluation_rows(tid, event, result, decimals)
                evaluations += rows
                restpartien += rps
            replace_rows(clear, evaluations, restpartien, behind=behind)
    for chunk in chunks(outdated):
        EvaluationDigest.objects.filter(tournament_id__in=chunk).delete()
    bulk.insert_rows(EvaluationDigest, ("tournament_id", "digest"), renewed)
    # Rows of tournaments no longer rated; their players' rows are compared below like everyone's.
    unrated = Evaluation.objects.filter(tournament__rated=False)
    rewritten |= set(unrated.order_by().values_list("player_id", flat=True).distinct())
    unrated.delete()
    Restpartie.objects.filter(tournament__rated=False).delete()
    orphan_restpartien().delete()
    updated = update_players(states, players, report, last={int(pid): day for pid, day in last_by_id.items()})
    # The spans of the players whose rows or values changed: a row deleted behind the services' back
    # changes the next row of its player or, if it was his last, his values. Without reuse every player's
    # spans are written again.
    rebuild_spans(players=rewritten | updated if reuse else None)
    RatingState.objects.filter(pk=1).update(last_recalculated_at=timezone.now())
    report.elapsed = time.perf_counter() - started
    return report
