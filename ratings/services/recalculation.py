"""Chronological recalculation (spec §9): the only code that writes evaluations, Restpartien and the derived
``Player.dwz`` / ``index`` / ``last_evaluated``.

Shape: take the lock, load everything from the changed point onward in a few queries, replay in memory
(``ratings.dwz.replay``), delete + bulk-create the rows of the tournaments whose results changed, bulk-update
the players. Callers run inside ``transaction.atomic()`` (``recalculate`` opens one itself as well).
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import gc
import itertools
import operator
import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError, connection, transaction
from django.db.models import F, IntegerField, Max
from django.db.models.functions import Cast, Round
from django.utils import timezone

from ratings.dwz import evaluate, sets_rating
from ratings.dwz.codes import order_suffix
from ratings.dwz.replay import (
    AdjustmentEvent,
    Event,
    OrderKey,
    PlayerState,
    TournamentEvent,
    adjustment_order,
    day_start,
    gives_rating,
    replay,
    tournament_order,
)
from ratings.dwz.types import GameInput, PlayerResult, RestpartieValue, TournamentResult
from ratings.enums import PAIRING_RESULTS, AdjustmentKind, EvaluationStatus
from ratings.models import (
    Evaluation,
    Game,
    Membership,
    Player,
    RatingAdjustment,
    RatingState,
    Restpartie,
    Tournament,
    TournamentEntry,
)

ADVISORY_LOCK_KEY = 0x44575A  # "DWZ"
BATCH = 500
IN_CHUNK = 900  # stay below SQLite's bound-parameter limit
END_OF_TIME = datetime.date.max
THOUSAND = Decimal(1000)
EMPTY_STATE = PlayerState()


@dataclass(slots=True)
class RecalculationReport:
    tournaments: list[int] = field(default_factory=list)  # re-evaluated tournament ids, in evaluation order
    rating_changes: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)  # pk: (old, new)
    evaluations: int = 0  # player evaluations computed by the engine
    elapsed: float = 0.0

    def merge(self, other: RecalculationReport) -> None:
        self.tournaments += [t for t in other.tournaments if t not in self.tournaments]
        for pk, (old, new) in other.rating_changes.items():
            first = self.rating_changes.get(pk, (old, new))[0]
            self.rating_changes[pk] = (first, new)
        self.evaluations += other.evaluations
        self.elapsed += other.elapsed


class RatingLockTimeout(Exception):
    """The rating lock was not free within ``settings.RATING_LOCK_TIMEOUT`` (a long import or recalculation
    holds it); nothing was written. Pages answer "Bitte gleich noch einmal" (``RatingLockBusyMiddleware``)."""


def is_lock_timeout(exc: BaseException) -> bool:
    """A lock wait that ran out: ours, PostgreSQL's ``lock_timeout`` (55P03) or SQLite's busy timeout."""
    if isinstance(exc, RatingLockTimeout):
        return True
    if not isinstance(exc, OperationalError):
        return False
    if getattr(exc.__cause__, "sqlstate", None) == "55P03":
        return True
    return "database is locked" in str(exc)


def lock_ratings() -> None:
    """Serialise all rating writes: one lock, taken first, inside the caller's transaction.

    Waits at most ``settings.RATING_LOCK_TIMEOUT`` seconds (on SQLite the IMMEDIATE transaction's busy
    timeout waits already when the caller's transaction begins), then raises ``RatingLockTimeout``.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_ratings() must run inside transaction.atomic()")
    try:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # Every later lock of this transaction (row locks included) waits as long at most.
                cursor.execute(f"SET LOCAL lock_timeout = '{int(settings.RATING_LOCK_TIMEOUT)}s'")
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ADVISORY_LOCK_KEY])
        state = RatingState.objects.select_for_update().filter(pk=1).first()
        if state is None:
            RatingState.objects.get_or_create(pk=1)
    except OperationalError as exc:
        if is_lock_timeout(exc):
            raise RatingLockTimeout from exc
        raise


def _without_cyclic_gc(function):
    """Run ``function`` with Python's cyclic garbage collector paused.

    A full replay allocates millions of small acyclic objects (rows, pairings, states) that reference
    counting frees anyway; the cyclic collector would traverse the growing heap again and again, about 20 %
    of a full recalculation at 200k evaluations. Only ever re-enabled by the call that disabled it.
    """

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        enabled = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return wrapper


def _chunks(values: Iterable, size: int = IN_CHUNK) -> Iterator[list]:
    values = list(values)
    for i in range(0, len(values), size):
        yield values[i : i + size]


def _pid(pk: int) -> str:
    return str(pk)


class _Names(dict):
    """Player pk -> engine id (``str(pk)``), one shared string per player."""

    def __missing__(self, pk: int) -> str:
        self[pk] = name = str(pk)
        return name


def _stored_order(end: datetime.date, suffix: str | None, tid: int) -> OrderKey:
    return (end, 1, 0, suffix, tid) if suffix else (end, 1, 1, "", tid)


def _thousandths(value: Decimal | None) -> int | None:
    return None if value is None else int(value * THOUSAND)


# --- loading ---------------------------------------------------------------------------------------------


def _load_tournament_events(
    since: datetime.date, exclude: set[int], *, games_of: set[int] | None = None
) -> list[TournamentEvent]:
    """Rated tournaments ending on or after ``since`` with their entries and pairings: three queries.

    ``games_of``: load the pairings of these tournaments only (the others get none; the caller never lets
    the engine see them).
    """
    tournaments = {
        pk: (end, code, name)
        for pk, end, code, name in Tournament.objects.filter(rated=True, end_date__gte=since).values_list(
            "pk", "end_date", "code", "name"
        )
        if pk not in exclude
    }
    players: dict[int, list[tuple[str, int | None]]] = defaultdict(list)
    non_members: dict[int, set[str]] = defaultdict(set)
    entries = (
        TournamentEntry.objects.filter(tournament__rated=True, tournament__end_date__gte=since)
        .order_by("tournament_id", F("start_rank").asc(nulls_last=True), "pk")
        .values_list("tournament_id", "player_id", "player__birth_year", "member")
    )
    names = _Names()
    for tid, player_id, birth_year, member in entries:
        if tid in tournaments:
            players[tid].append((names[player_id], birth_year))
            if not member:
                non_members[tid].add(names[player_id])
    games = _load_games(games_of, since, names)
    return [
        TournamentEvent(
            key=pk,
            order=tournament_order(end, code, pk),
            end_date=end,
            players=tuple(players.get(pk, ())),
            games=tuple(games.get(pk, ())),
            code=code,
            name=name,
            non_members=frozenset(non_members.get(pk, ())),
        )
        for pk, (end, code, name) in tournaments.items()
    ]


def _load_games(
    tournaments: set[int] | None, since: datetime.date = datetime.date.min, names: _Names | None = None
) -> dict:
    """Pairings (two players) of ``tournaments``, or of every rated tournament ending on or after ``since``,
    in round / board / creation order."""
    games: dict[int, list[GameInput]] = defaultdict(list)
    pairings = (
        Game.objects.filter(result__in=sorted(PAIRING_RESULTS))
        .order_by("tournament_id", "round", F("board").asc(nulls_last=True), "pk")
        .values_list("tournament_id", "white_id", "black_id", "result")
    )
    if tournaments is None:
        pairings = pairings.filter(tournament__rated=True, tournament__end_date__gte=since)
    names = _Names() if names is None else names
    for queryset in _by_tournament(pairings, tournaments):
        for tid, rows in itertools.groupby(queryset, key=operator.itemgetter(0)):
            games[tid] += [GameInput(names[white], names[black], result) for _, white, black, result in rows]
    return games


def _reach(
    t_events: list[TournamentEvent], *, seeds: set[int], stored: set[int], hot: set[str]
) -> tuple[set[int], set[int]]:
    """The tournaments an incremental replay may evaluate, and the others it must still apply.

    A tournament can be evaluated only if it changed, has no stored results, or a player of it may be dirty
    when it comes; a player may be dirty from the start (``hot``) or after any such tournament of his. This
    superset (``reach``) is what needs pairings. ``sharing`` are the other tournaments of its players: their
    stored results carry those players' states (applied, never evaluated). Tournaments of other players
    cannot matter and are not loaded at all.
    """
    hot = set(hot)
    reach: set[int] = set()
    for ev in sorted(t_events, key=lambda e: e.order):
        if ev.key in seeds or ev.key not in stored or any(pid in hot for pid, _ in ev.players):
            reach.add(ev.key)
            hot.update(pid for pid, _ in ev.players)
    sharing = {ev.key for ev in t_events if ev.key not in reach and any(pid in hot for pid, _ in ev.players)}
    return reach, sharing


def _load_adjustment_events(since: OrderKey, exclude: set[int]) -> list[AdjustmentEvent]:
    rows = RatingAdjustment.objects.filter(date__isnull=False, date__gte=since[0]).values_list(
        "pk", "player_id", "date", "dwz", "index"
    )
    events = []
    for pk, player_id, date, dwz, index in rows:
        order = adjustment_order(date, pk)
        if pk not in exclude and order >= since:
            events.append(AdjustmentEvent(pk, order, _pid(player_id), dwz, index))
    return events


def _by_tournament(queryset, tournaments: set[int] | None):
    """``queryset`` as is, or one query per chunk of ``tournaments`` (SQLite's parameter limit)."""
    if tournaments is None:
        return [queryset]
    return [queryset.filter(tournament_id__in=chunk) for chunk in _chunks(sorted(tournaments))]


# A stored evaluation as a tuple in ``PlayerResult`` field order: ``PlayerResult(*row)`` builds one, and
# ``RESULT_ROW(result)`` reads a replayed result as the same tuple (compared without building objects).
RESULT_ROW = operator.attrgetter(*(f.name for f in dataclasses.fields(PlayerResult)))


@dataclass(slots=True)
class StoredTournament:
    """The stored evaluation rows of one tournament (``rows`` in ``PlayerResult`` field order)."""

    edition: str | None  # None if the rows disagree (then the tournament is always rewritten)
    order: OrderKey
    rows: list[tuple] = field(default_factory=list)

    def player_ids(self) -> set[int]:
        return {int(row[0]) for row in self.rows}

    def same_as(self, result: TournamentResult, order: OrderKey) -> bool:
        """Equal rows at the same position: rows stored under an old end date or code are stale even when
        every number still matches (later saves find them by their stored position)."""
        return (
            self.order == order
            and self.edition == result.edition
            and self.rows == list(map(RESULT_ROW, result.players))
        )

    def result(self) -> TournamentResult:
        return TournamentResult(self.edition or "", tuple(PlayerResult(*row) for row in self.rows))


def _scaled(name: str, factor: int) -> Cast:
    """A decimal column as an exact integer (value x ``factor``) computed by the database: skips the
    per-value Decimal conversion of the ORM (the values have at most log10(factor) decimals)."""
    return Cast(Round(F(name) * factor), IntegerField())


def _load_stored(since: datetime.date, tournaments: set[int] | None = None) -> dict[int, StoredTournament]:
    """Stored evaluations (and their Restpartien) of tournaments ending on or after ``since`` (of
    ``tournaments`` only, if given), as plain tuples."""
    rp_rows: dict[tuple[int, int], list[RestpartieValue]] = defaultdict(list)
    rp_query = (
        Restpartie.objects.filter(end_date__gte=since)
        .order_by("tournament_id", "player_id", "seq")
        .values_list("tournament_id", "player_id", "opponent_rating", _scaled("score", 1000), "end_date")
    )
    for queryset in _by_tournament(rp_query, tournaments):
        for tid, player_id, opp, score, end in queryset:
            rp_rows[(tid, player_id)].append(RestpartieValue(opp, score, end))
    restpartien = {key: tuple(rps) for key, rps in rp_rows.items()}
    stored: dict[int, StoredTournament] = {}
    heads = (
        Evaluation.objects.filter(end_date__gte=since)
        .order_by()
        .values_list("tournament_id", "end_date", "code_suffix", "edition")
        .distinct()
    )
    for queryset in _by_tournament(heads, tournaments):
        for tid, end, suffix, edition in queryset:
            if tid in stored:  # rows of one tournament that disagree: never equal to a replay
                stored[tid].edition = None
                stored[tid].order = min(stored[tid].order, _stored_order(end, suffix, tid))
            else:
                stored[tid] = StoredTournament(edition, _stored_order(end, suffix, tid))
    query = (
        Evaluation.objects.filter(end_date__gte=since)
        .order_by("tournament_id", "pk")
        .values_list(
            "tournament_id",
            "player_id",
            "status",
            "dwz_old",
            "index_old",
            "n",
            _scaled("points", 1000),
            _scaled("expected", 1000),
            _scaled("coefficient", 10),
            "level",
            "performance",
            "dwz_new",
            "index_new",
            "fide_takeover",
            "entry_rating",
        )
    )
    coefficients: dict[int | None, Decimal | None] = {None: None}
    no_restpartien = ()
    current, rows = None, []
    for queryset in _by_tournament(query, tournaments):
        for (tid, player_id, status, dwz_old, index_old, n, points, expected, coefficient, level, performance,
             dwz_new, index_new, takeover, entry_rating) in queryset:  # fmt: skip
            if tid != current:
                current, rows = tid, stored[tid].rows
            if coefficient not in coefficients:
                coefficients[coefficient] = Decimal(coefficient).scaleb(-1)
            rows.append(
                (
                    str(player_id),
                    status,
                    dwz_old,
                    index_old,
                    n,
                    points,
                    expected,
                    coefficients[coefficient],
                    level,
                    performance,
                    dwz_new,
                    index_new,
                    restpartien.get((tid, player_id), no_restpartien),
                    takeover,
                    entry_rating,
                )
            )
    return {tid: t for tid, t in stored.items() if t.rows}


def _start_values() -> dict[int, tuple[int | None, int | None, int | None]]:
    return {
        player_id: (dwz, index, fide)
        for player_id, dwz, index, fide in RatingAdjustment.objects.filter(
            kind=AdjustmentKind.START
        ).values_list("player_id", "dwz", "index", "fide_elo")
    }


def _members() -> set[int]:
    return set(Membership.objects.values_list("player_id", flat=True).distinct())


def _start_state(start: tuple[int | None, int | None, int | None] | None) -> PlayerState:
    if start is None:
        return PlayerState()
    dwz, index, fide = start
    return PlayerState(dwz, (index or 0) if dwz is not None else None, fide)


def _restpartien_before(players: set[int], since: datetime.date) -> dict[int, tuple[RestpartieValue, ...]]:
    """Stored Restpartien played before ``since`` that can still be valid on or after it (2-year window)."""
    oldest = datetime.date(max(since.year - 2, 1), 1, 1)
    found: dict[int, list[RestpartieValue]] = defaultdict(list)
    rows = (
        Restpartie.objects.filter(end_date__gte=oldest, end_date__lt=since)
        .order_by("end_date", "tournament_id", "seq")
        .values_list("player_id", "opponent_rating", "score", "end_date")
    )
    for player_id, opp, score, end in rows:
        if player_id in players:
            found[player_id].append(RestpartieValue(opp, _thousandths(score), end))
    return {pk: tuple(v) for pk, v in found.items()}


_ENTERED_WITH_DWZ = (EvaluationStatus.RATED, EvaluationStatus.NON_MEMBER)


def _states_before(
    *,
    since: OrderKey,
    players: set[int],
    reset: set[int],
    stored: dict[int, StoredTournament],
    old_adjustments: list[tuple[OrderKey, int, int]],
    start_values: dict,
) -> dict[str, PlayerState]:
    """Each player's state just before ``since``, read off the stored data (spec §9 inputs).

    The first stored event at or after ``since`` tells it: an evaluation records the player's input
    (``dwz_old`` / ``index_old``; none for a first rating, a not-rated player or a FIDE take-over).
    Without stored events from there on, his current row is his state. A dated adjustment records
    nothing of the state before it; then his earlier history is read directly.
    """
    first: dict[int, tuple[OrderKey, str, object]] = {}
    for t in stored.values():
        order = t.order
        for row in t.rows:
            pk = int(row[0])
            if pk in players and pk not in reset and (pk not in first or order < first[pk][0]):
                first[pk] = (order, "evaluation", row)
    for order, adj_pk, player_id in old_adjustments:
        if player_id in players and (player_id not in first or order < first[player_id][0]):
            first[player_id] = (order, "adjustment", adj_pk)

    current = {}
    need_current = [pk for pk in players if pk not in first and pk not in reset]
    for chunk in _chunks(need_current):
        current.update(
            {
                pk: (dwz, index)
                for pk, dwz, index in Player.objects.filter(pk__in=chunk).values_list("pk", "dwz", "index")
            }
        )
    # A dated adjustment sets the state only from its own date on: tournaments between ``since`` and it
    # need the state before ``since``, which only the earlier history tells.
    fallback = {pk for pk, (_, kind, _) in first.items() if kind == "adjustment"}
    fallback -= reset
    history = _history_before(fallback, since) if fallback else {}

    states: dict[str, PlayerState] = {}
    no_dwz: set[int] = set()
    for pk in players:
        start = _start_state(start_values.get(pk))
        if pk in reset:
            state = start
        elif pk in fallback:
            dwz, index = history.get(pk, (start.dwz, start.index))
            state = PlayerState(dwz, index, start.fide_elo)
        elif pk in first:
            _, kind, ref = first[pk]
            if kind == "evaluation":
                ref = PlayerResult(*ref)
            # A non-member entered like a rated player (his DWZ is kept, WO 3.4.3) or without a DWZ.
            if kind == "evaluation" and ref.status in _ENTERED_WITH_DWZ and not ref.fide_takeover:
                state = PlayerState(ref.dwz_old, ref.index_old, start.fide_elo)
            else:
                state = PlayerState(None, None, start.fide_elo)
        else:
            dwz, index = current.get(pk, (None, None))
            state = PlayerState(dwz, index, start.fide_elo)
        if state.dwz is None and pk not in reset:
            no_dwz.add(pk)
        states[_pid(pk)] = state
    if no_dwz and since[0] != datetime.date.min:
        for pk, rps in _restpartien_before(no_dwz, since[0]).items():
            s = states[_pid(pk)]
            states[_pid(pk)] = PlayerState(s.dwz, s.index, s.fide_elo, rps)
    return states


def _history_before(players: set[int], since: OrderKey) -> dict[int, tuple[int | None, int | None]]:
    """DWZ and index of ``players`` just before ``since`` from their full stored history (rarely needed)."""
    last: dict[int, tuple[OrderKey, int | None, int | None]] = {}
    for chunk in _chunks(players):
        rows = Evaluation.objects.filter(player_id__in=chunk, end_date__lte=since[0]).values_list(
            "player_id", "tournament_id", "end_date", "code_suffix", "status", "n", "dwz_new", "index_new"
        )
        for player_id, tid, end, suffix, status, n, dwz, index in rows:
            order = _stored_order(end, suffix, tid)
            if (
                sets_rating(status, n)
                and order < since
                and (player_id not in last or order > last[player_id][0])
            ):
                last[player_id] = (order, dwz, index)
        adjustments = RatingAdjustment.objects.filter(
            player_id__in=chunk, date__isnull=False, date__lte=since[0]
        ).values_list("pk", "player_id", "date", "dwz", "index")
        for pk, player_id, date, dwz, index in adjustments:
            order = adjustment_order(date, pk)
            if order < since and (player_id not in last or order > last[player_id][0]):
                last[player_id] = (order, dwz, index)
    return {pk: (dwz, index) for pk, (_, dwz, index) in last.items()}


# --- writing ---------------------------------------------------------------------------------------------


# Model fields in ``concrete_fields`` order: rows are built positionally (Django's fast constructor path, the
# one ``from_db`` uses), which skips the per-keyword handling of ``Model(**kwargs)``. Checked at import.
EVALUATION_FIELDS = (
    "id", "tournament_id", "player_id", "end_date", "code_suffix", "edition", "status", "dwz_old",
    "index_old", "n", "points", "expected", "coefficient", "level", "performance", "dwz_new", "index_new",
    "fide_takeover", "entry_rating",
)  # fmt: skip
RESTPARTIE_FIELDS = ("id", "player_id", "tournament_id", "seq", "opponent_rating", "score", "end_date")
for _model, _fields in ((Evaluation, EVALUATION_FIELDS), (Restpartie, RESTPARTIE_FIELDS)):
    if tuple(f.attname for f in _model._meta.concrete_fields) != _fields:
        raise ImproperlyConfigured(f"recalculation: update the field order of {_model.__name__}")


class _Decimals(dict):
    """Thousandths -> ``Decimal`` (the same value as ``Decimal(k) / 1000``), computed once per value."""

    def __missing__(self, thousandths: int | None) -> Decimal | None:
        self[thousandths] = value = None if thousandths is None else Decimal(thousandths) / THOUSAND
        return value


def _evaluation_rows(tid: int, event: TournamentEvent, result: TournamentResult, decimals: _Decimals):
    evaluations, restpartien = [], []
    suffix = order_suffix(event.code)
    end_date, edition = event.end_date, result.edition
    for pr in result.players:
        player_id = int(pr.id)
        evaluations.append(
            Evaluation(
                None,
                tid,
                player_id,
                end_date,
                suffix,
                edition,
                pr.status,
                pr.dwz_old,
                pr.index_old,
                pr.n,
                decimals[pr.points],
                decimals[pr.expected],
                pr.coefficient,
                pr.level,
                pr.performance,
                pr.dwz_new,
                pr.index_new,
                pr.fide_takeover,
                pr.entry_rating,
            )
        )
        for seq, rp in enumerate(pr.restpartien):
            restpartien.append(
                Restpartie(None, player_id, tid, seq, rp.opponent_rating, decimals[rp.score], rp.end_date)
            )
    return evaluations, restpartien


def _update_players(states: dict[str, PlayerState], touched: set[int], report: RecalculationReport) -> None:
    """Write each touched player's DWZ, index and last evaluation where they changed.

    Updates are grouped by value (one ``UPDATE ... WHERE id IN (...)`` per field and distinct new value):
    ratings take a few thousand distinct values, so this stays a bounded number of cheap statements, where
    ``bulk_update``'s per-row ``CASE WHEN`` costs about a millisecond per player to build.
    """
    changes: dict[str, dict[object, list[int]]] = {
        "dwz": defaultdict(list),
        "index": defaultdict(list),
        "last_evaluated": defaultdict(list),
    }
    # Many players (a full recalculation): two queries over all rows beat dozens of ``IN (...)`` chunks.
    chunks = [None] if len(touched) > 4 * IN_CHUNK else _chunks(touched)
    for chunk in chunks:
        last_query = Evaluation.objects.setting_rating()
        rows = Player.objects.values_list("pk", "dwz", "index", "last_evaluated")
        if chunk is not None:
            last_query = last_query.filter(player_id__in=chunk)
            rows = rows.filter(pk__in=chunk)
        last = dict(
            last_query.values("player_id").annotate(last=Max("end_date")).values_list("player_id", "last")
        )
        for pk, dwz, index, last_evaluated in rows:
            if chunk is None and pk not in touched:
                continue
            state = states.get(_pid(pk)) or EMPTY_STATE
            if dwz != state.dwz:
                report.rating_changes[pk] = (dwz, state.dwz)
                changes["dwz"][state.dwz].append(pk)
            if index != state.index:
                changes["index"][state.index].append(pk)
            new_last = last.get(pk)
            if last_evaluated != new_last:
                changes["last_evaluated"][new_last].append(pk)
    for name, groups in changes.items():
        for value, pks in groups.items():
            for chunk in _chunks(pks):
                Player.objects.filter(pk__in=chunk).update(**{name: value})


# --- the recalculation -----------------------------------------------------------------------------------


@_without_cyclic_gc
def recalculate_changes(
    *,
    since: OrderKey | None,
    dirty: Iterable[int] = (),
    reset: Iterable[int] = (),
    changed_tournaments: Iterable[int] = (),
    removed_tournaments: Iterable[int] = (),
    changed_adjustments: Iterable[int] = (),
    removed_adjustments: Iterable[int] = (),
    everything: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> RecalculationReport:
    """Replay from ``since`` (an order key) everything reachable from the changed inputs; write the changes.

    ``dirty`` players' inputs changed at ``since``; ``reset`` players start from their start value there
    (their start value changed and ``since`` lies before their first event). ``removed_*`` objects still
    exist in the database while this runs (their stored rows are read) and are left out of the replay;
    the caller deletes them afterwards. ``everything`` replays every event from ``since`` on.
    The lock must be held.
    """
    started = time.perf_counter()
    report = RecalculationReport()
    dirty_pks, reset_pks = set(dirty), set(reset)
    removed_t, removed_a = set(removed_tournaments), set(removed_adjustments)
    changed = {("t", pk) for pk in changed_tournaments} | {("a", pk) for pk in changed_adjustments}
    if since is None:
        since = day_start(END_OF_TIME)
    since_date = since[0]

    a_events = _load_adjustment_events(since, removed_a)
    old_adjustments = [
        (adjustment_order(date, pk), pk, player_id)
        for pk, player_id, date in RatingAdjustment.objects.filter(
            date__isnull=False, date__gte=since_date
        ).values_list("pk", "player_id", "date")
        if adjustment_order(date, pk) >= since
    ]
    changed_t = {pk for kind, pk in changed if kind == "t"}
    changed_adj = {pk for kind, pk in changed if kind == "a"} | removed_a
    reach: set[int] | None = None  # the tournaments the replay may evaluate (None: all)
    if everything:
        t_events = _load_tournament_events(since_date, removed_t)
        stored = _load_stored(since_date)
    else:
        # Load pairings and stored results only for what the change can reach (see ``_reach``).
        t_events = _load_tournament_events(since_date, removed_t, games_of=set())
        hot = dirty_pks | reset_pks
        hot |= {player_id for _, pk, player_id in old_adjustments if pk in changed_adj}
        hot |= {int(ev.player) for ev in a_events if ev.key in changed_adj}
        for chunk in _chunks(changed_t | removed_t):
            hot.update(Evaluation.objects.filter(tournament_id__in=chunk).values_list("player_id", flat=True))
        with_rows = set(
            Evaluation.objects.filter(end_date__gte=since_date)
            .values_list("tournament_id", flat=True)
            .distinct()
        )
        reach, sharing = _reach(t_events, seeds=changed_t, stored=with_rows, hot={_pid(pk) for pk in hot})
        # Stored rows of tournaments no longer rated here (or moved away) must be found and cleared.
        stale = with_rows - {ev.key for ev in t_events}
        games = _load_games(reach)
        t_events = [
            dataclasses.replace(ev, games=tuple(games.get(ev.key, ()))) if ev.key in reach else ev
            for ev in t_events
            if ev.key in reach or ev.key in sharing
        ]
        stored = _load_stored(since_date, reach | sharing | changed_t | removed_t | stale)
    start_values = _start_values()
    members = _members()

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
    for ev in a_events:
        players.add(int(ev.player))
    if everything:
        dirty_pks |= players
    states = _states_before(
        since=since,
        players=players,
        reset=reset_pks,
        stored=stored,
        old_adjustments=old_adjustments,
        start_values=start_values,
    )

    # Events carry typed keys so tournament and adjustment pks never collide.
    events: list[Event] = [
        TournamentEvent(("t", e.key), e.order, e.end_date, e.players, e.games, e.code, e.name, e.non_members)
        for e in t_events
    ] + [AdjustmentEvent(("a", e.key), e.order, e.player, e.dwz, e.index) for e in a_events]
    # A full replay (``everything``) evaluates every event anyway: it needs no stored results as objects.
    stored_keyed: dict[Hashable, TournamentResult] | None = None
    if not everything:
        stored_keyed = {("t", tid): t.result() for tid, t in stored.items()}
    if everything:
        changed |= {e.key for e in events}
    total = len(t_events)
    done = [0]

    def on_event(event: Event) -> None:
        if progress is not None and isinstance(event, TournamentEvent):
            done[0] += 1
            progress(done[0], total)

    outcome = replay(
        events,
        states,
        members=lambda pid: int(pid) in members,
        dirty={_pid(pk) for pk in dirty_pks | reset_pks},
        changed=changed,
        stored=stored_keyed,
        evaluator=lambda t: evaluate(t),
        on_event=on_event,
    )

    if reach is not None and not {key[1] for key in outcome.evaluated} <= reach:
        # Never expected (``_reach`` is a superset by construction); without pairings it would be wrong.
        raise RuntimeError("recalculation: a tournament outside the loaded reach was evaluated")
    by_key = {e.key: e for e in events}
    write: list[int] = []
    new_evaluations, new_restpartien = [], []
    decimals = _Decimals()
    touched: set[int] = {int(p) for p in outcome.dirty} | dirty_pks | reset_pks
    touched |= {int(e.player) for e in a_events if e.key in changed}
    for key, result in outcome.evaluated.items():
        tid = key[1]
        report.tournaments.append(tid)
        report.evaluations += len(result.players)
        before = stored.get(tid)
        if before is not None and before.same_as(result, by_key[key].order):
            continue  # unchanged: keep the stored rows (replaying a consistent database writes nothing)
        write.append(tid)
        evaluations, restpartien = _evaluation_rows(tid, by_key[key], result, decimals)
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
    for chunk in _chunks(clear):
        Evaluation.objects.filter(tournament_id__in=chunk).delete()
        Restpartie.objects.filter(tournament_id__in=chunk).delete()
    Evaluation.objects.bulk_create(new_evaluations, batch_size=BATCH)
    Restpartie.objects.bulk_create(new_restpartien, batch_size=BATCH)
    _update_players(outcome.states, touched, report)
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
        return recalculate_changes(
            since=start,
            reset=set(Player.objects.values_list("pk", flat=True)) if since is None else (),
            everything=True,
            progress=progress,
        )


def player_first_event(player_id: int) -> OrderKey | None:
    """The position before the player's earliest stored event (evaluation or dated adjustment)."""
    dates = [
        *Evaluation.objects.filter(player_id=player_id)
        .order_by("end_date")
        .values_list("end_date", flat=True)[:1],
        *RatingAdjustment.objects.filter(player_id=player_id, date__isnull=False)
        .order_by("date")
        .values_list("date", flat=True)[:1],
    ]
    return day_start(min(dates)) if dates else None


def earliest(*orders: OrderKey | None) -> OrderKey | None:
    present = [o for o in orders if o is not None]
    return min(present) if present else None


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


@_without_cyclic_gc
def ratings_verify(*, progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Replay everything from scratch in memory and list every stored value that differs (writes nothing)."""
    t_events = _load_tournament_events(datetime.date.min, set())
    a_events = _load_adjustment_events(day_start(datetime.date.min), set())
    start_values = _start_values()
    members = _members()
    rows = {
        pk: (dwz, index, last)
        for pk, dwz, index, last in Player.objects.values_list("pk", "dwz", "index", "last_evaluated")
    }
    states = {_pid(pk): _start_state(start_values.get(pk)) for pk in rows}
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
    stored = {tid: t.result() for tid, t in _load_stored(datetime.date.min).items()}
    positions: dict[int, dict[str, tuple]] = defaultdict(dict)
    for tid, player_id, end, suffix, edition in Evaluation.objects.values_list(
        "tournament_id", "player_id", "end_date", "code_suffix", "edition"
    ):
        positions[tid][_pid(player_id)] = (end, suffix, edition)
    evaluated_pairs = {(tid, pid) for tid, rows in positions.items() for pid in rows}
    problems: list[str] = [
        f"tournament {tid}, player {player_id}: Restpartien without an evaluation"
        for tid, player_id in Restpartie.objects.values_list("tournament_id", "player_id").distinct()
        if (tid, _pid(player_id)) not in evaluated_pairs
    ]
    last: dict[int, datetime.date] = {}
    by_key = {e.key: e for e in t_events}
    for tid, result in outcome.evaluated.items():
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
        state = outcome.states.get(_pid(pk)) or PlayerState()
        want = (state.dwz, state.index, last.get(pk))
        if (dwz, index, last_evaluated) != want:
            problems.append(
                f"player {pk}: stored dwz/index/last {(dwz, index, last_evaluated)}, replay {want}"
            )
    return problems
