"""Loading for the replay: events (tournaments, pairings, adjustments), stored results and the players'
states before the changed point, in a few queries."""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import operator
from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import F, IntegerField, Min, QuerySet
from django.db.models.functions import Cast, Round

from ratings.bulk import select_rows
from ratings.dwz import sets_rating
from ratings.dwz.replay import (
    AdjustmentEvent,
    OrderKey,
    PlayerState,
    TournamentEvent,
    adjustment_order,
    day_start,
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
    Restpartie,
    Tournament,
    TournamentEntry,
)

from ._base import (
    IN_CHUNK,
    EngineIds,
    chunks,
    engine_id,
    stored_order,
    thousandths,
)
from ._players import player_chunks, select_of


def load_tournament_events(
    since: datetime.date,
    exclude: set[int],
    *,
    games_of: set[int] | None = None,
    only: set[int] | None = None,
    names: EngineIds | None = None,
    until: datetime.date | None = None,
    birth_years: Mapping[int, int | None] | None = None,
    raw_games: dict[int, list[tuple[Any, ...]]] | None = None,
) -> list[TournamentEvent]:
    """Rated tournaments ending on or after ``since`` (and before ``until``, if given) with their entries
    and pairings: three queries.

    ``games_of``: load the pairings of these tournaments only (the others get none; the caller never lets
    the engine see them). ``only``: load these tournaments only (indexed lookups by id). ``birth_years``:
    every player's birth year, if the caller has them (a full replay reads them once instead of joining the
    player table for each of its 2 M entries), or a ``BirthYears`` the missing ones are read into.
    ``raw_games``: the pairings go there, by tournament, as the database's rows ``(tournament, white pk,
    black pk, result)``, and the events get none (a full replay that reuses certified rows only hashes
    most of them, and builds ``GameInput``s for those it evaluates).
    """
    untils = () if until is None else (until,)

    def head(since: datetime.date, *until: datetime.date) -> QuerySet[Any]:
        query = Tournament.objects.filter(rated=True, end_date__gte=since).order_by()
        return query.filter(end_date__lt=until[0]) if until else query

    columns: tuple[str, ...] = ("tournament_id", "player_id", "member")
    if birth_years is None:
        columns += ("player__birth_year",)

    def entries(*until: datetime.date) -> QuerySet[Any]:
        query = TournamentEntry.objects.order_by("tournament_id", F("start_rank").asc(nulls_last=True), "pk")
        if only is None:
            query = query.filter(tournament__rated=True, tournament__end_date__gte=since)
        # else by tournament id alone: the entries of tournaments not in ``only`` are skipped below, and
        # joining the tournaments made PostgreSQL hash all of them since ``since`` for each query.
        query = query.values_list(*columns)
        return query.filter(tournament__end_date__lt=until[0]) if until else query

    if only is not None:
        games_of = only if games_of is None else games_of & only
    tournaments = {
        pk: (end, code, name)
        for pk, end, code, name in _rows(
            ("events", len(untils)),
            lambda *dates: head(*dates).values_list("pk", "end_date", "code", "name"),
            only,
            "pk",
            since,
            *untils,
        )
        if pk not in exclude
    }
    names = EngineIds() if names is None else names
    rows: Iterable[tuple[Any, ...]] = _rows(
        ("entries", columns, len(untils)), entries, only, "tournament_id", *untils
    )
    if isinstance(birth_years, BirthYears):
        rows = [row for row in rows if row[0] in tournaments]
        birth_years.read({row[1] for row in rows})
    games = load_games(games_of, since, names, until=until, raw=raw_games is not None)
    if raw_games is not None:
        raw_games.update(games)
        games = {}
    return tournament_events(tournaments, rows, games, names, birth_years)


def tournament_events(
    tournaments: Mapping[int, tuple[datetime.date, str | None, str]],
    entries: Iterable[tuple[Any, ...]],
    games: Mapping[int, Sequence[GameInput]],
    names: EngineIds,
    birth_years: Mapping[int, int | None] | None,
) -> list[TournamentEvent]:
    """The events of ``tournaments`` (pk: end date, code, name) from their entry rows ``(tournament, player
    pk, member[, birth year])`` in entry order (the birth year joined if ``birth_years`` is None) and their
    pairings: ``load_tournament_events`` from the database, ``unsaved_tournament_event`` from a form."""
    players: dict[int, list[tuple[str, int | None]]] = defaultdict(list)
    non_members: dict[int, set[str]] = defaultdict(set)
    for tid, player_id, member, *joined in entries:
        if tid in tournaments:
            birth_year = joined[0] if birth_years is None else birth_years[player_id]
            players[tid].append((names[player_id], birth_year))
            if not member:
                non_members[tid].add(names[player_id])
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


def unsaved_tournament_event(
    *, tournament: Tournament, entries: Sequence[TournamentEntry], games: Sequence[Game]
) -> TournamentEvent:
    """The event ``load_tournament_events`` builds for ``tournament`` once ``entries`` and ``games`` are
    saved as its own (a preview of the save): entries by start rank (unranked last) and pairings by round
    and board (boardless last), each in the given order after that, as the queries' ``pk`` order puts
    rows created in that order. One query: the players' birth years."""
    pk = tournament.pk
    ranked = sorted(
        enumerate(entries), key=lambda ie: (ie[1].start_rank is None, ie[1].start_rank or 0, ie[0])
    )
    pairings = sorted(
        (
            (g.round, g.board is None, g.board or 0, i, g)
            for i, g in enumerate(games)
            if g.black_id is not None and str(g.result) in PAIRING_RESULTS
        ),
        key=lambda row: row[:4],
    )
    birth_years = BirthYears()
    birth_years.read({e.player_id for e in entries})
    # A player merged away meanwhile has none (his save would be refused; the preview goes on without).
    birth_years.update({e.player_id: None for e in entries if e.player_id not in birth_years})
    names = EngineIds()
    (event,) = tournament_events(
        {pk: (tournament.end_date, tournament.code or None, tournament.name)},
        [(pk, e.player_id, e.member) for _, e in ranked],
        {pk: game_inputs([(pk, g.white_id, g.black_id, str(g.result)) for *_, g in pairings], names)},
        names,
        birth_years,
    )
    return event


# After this many players' birth years read by id, every player's are read in one pass (``BirthYears``).
BIRTH_YEARS_ALL_AFTER = 8_000


class BirthYears(dict[int, int | None]):
    """Players' birth years, read when first needed and kept: an incremental replay meets many players in
    several loading rounds, and joining the player table to each round's entries cost an index lookup per
    entry in every round.

    A long chain meets a large part of the federation (38,500 of 100,000 players in 32 rounds at 2 M
    evaluations): once it has met ``BIRTH_YEARS_ALL_AFTER``, the whole table is read in one sequential
    pass (100,000 rows in 40 ms) instead of by id in every later round (an index lookup each)."""

    everyone: bool = False

    def read(self, players: set[int]) -> None:
        if self.everyone:
            return
        missing = players - self.keys()
        if len(self) + len(missing) >= BIRTH_YEARS_ALL_AFTER:
            self.update(select_rows(_birth_years()))
            self.everyone = True
        elif missing:
            self.update(select_of("birth years", _birth_years, missing, "id"))


def _birth_years() -> QuerySet[Any]:
    return Player.objects.order_by().values_list("pk", "birth_year")


def load_games(
    tournaments: set[int] | None,
    since: datetime.date = datetime.date.min,
    names: EngineIds | None = None,
    *,
    until: datetime.date | None = None,
    raw: bool = False,
) -> dict[Any, Any]:
    """Pairings (two players) of ``tournaments``, or of every rated tournament ending on or after ``since``
    (and before ``until``), in round / board / creation order: ``GameInput``s, or with ``raw`` the rows."""
    games: dict[int, list[Any]] = defaultdict(list[Any])

    def pairings() -> QuerySet[Any]:
        query = (
            Game.objects.filter(result__in=sorted(PAIRING_RESULTS))
            .order_by("tournament_id", "round", F("board").asc(nulls_last=True), "pk")
            .values_list("tournament_id", "white_id", "black_id", "result")
        )
        if tournaments is None:
            query = query.filter(tournament__rated=True, tournament__end_date__gte=since)
            if until is not None:
                query = query.filter(tournament__end_date__lt=until)
        return query

    names = EngineIds() if names is None else names
    by_tournament = itertools.groupby(
        _rows("games", pairings, tournaments, "tournament_id"), key=operator.itemgetter(0)
    )
    for tid, rows in by_tournament:
        games[tid] += rows if raw else game_inputs(rows, names)
    return games


def game_inputs(rows: Iterable[tuple[Any, ...]], names: EngineIds) -> list[GameInput]:
    """Pairing rows ``(tournament, white pk, black pk, result)`` as the engine's games."""
    return [GameInput(names[white], names[black], result) for _, white, black, result in rows]


def load_adjustment_events(since: OrderKey, exclude: set[int]) -> list[AdjustmentEvent]:
    rows = RatingAdjustment.objects.filter(date__isnull=False, date__gte=since[0]).values_list(
        "pk", "player_id", "date", "dwz", "index"
    )
    events = []
    for pk, player_id, date, dwz, index in rows:
        assert date is not None  # the query excludes undated adjustments
        order = adjustment_order(date, pk)
        if pk not in exclude and order >= since:
            events.append(AdjustmentEvent(pk, order, engine_id(player_id), dwz, index))
    return events


def _rows(
    key: Hashable,
    build: Callable[..., QuerySet[Any]],
    ids: Collection[int] | None,
    column: str,
    *dates: datetime.date,
) -> Iterator[tuple[Any, ...]]:
    """The rows of ``build(*dates)``, all of them (``ids`` None) or restricted to ``ids`` in ``column``
    (``select_of``: one array parameter on PostgreSQL, where an ``IN`` list costs psycopg a parameter each,
    the query compiled once per ``key``; chunks on SQLite)."""
    if ids is None:
        return select_rows(build(*dates))
    return select_of(key, build, ids, column, *dates)


# A stored evaluation as a tuple in ``PlayerResult`` field order: ``PlayerResult(*row)`` builds one, and
# ``RESULT_ROW(result)`` reads a replayed result as the same tuple (compared without building objects).
RESULT_ROW = operator.attrgetter(*(f.name for f in dataclasses.fields(PlayerResult)))


@dataclass(slots=True)
class StoredTournament:
    """The stored evaluation rows of one tournament (``rows`` in ``PlayerResult`` field order)."""

    edition: str | None  # None if the rows disagree (then the tournament is always rewritten)
    order: OrderKey
    rows: list[tuple[Any, ...]] = field(default_factory=list)

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


def load_stored(
    since: datetime.date,
    tournaments: set[int] | None = None,
    *,
    players: set[int] | None = None,
    window: tuple[datetime.date, datetime.date | None] | None = None,
    include_restpartien: bool = True,
    in_order: bool = True,
) -> dict[int, StoredTournament]:
    """Stored evaluations (and their Restpartien) of tournaments ending on or after ``since`` (of
    ``tournaments`` only, if given; only the rows of ``players``, if given), as plain tuples.

    ``window`` ``(first, until)``: the rows of the rated tournaments ending in it instead (found through the
    tournaments' end dates: the evaluation table has no index on its own copy of them, and a list of a
    window's 1,500 tournament ids made PostgreSQL scan all 2 M rows once per chunk).
    ``include_restpartien=False``: the rows without their Restpartien (for players they no longer reach).
    ``in_order=False``: a tournament's rows in the order the server finds them, not by primary key (callers
    that put them in entry order or look them up by player): the sort was most of the server's time for
    such a query.
    """

    def selected(key: str, build: Callable[[], QuerySet[Any]]) -> Iterator[tuple[Any, ...]]:
        if window is not None:
            first, until = window
            queryset = build().filter(tournament__rated=True, tournament__end_date__gte=first)
            return select_rows(queryset if until is None else queryset.filter(tournament__end_date__lt=until))
        column, ids = ("player_id", players) if players is not None else ("tournament_id", tournaments)
        return _rows(
            (key, column, in_order), lambda since: build().filter(end_date__gte=since), ids, column, since
        )

    rp_rows: dict[tuple[int, int], list[RestpartieValue]] = defaultdict(list)

    def rp_query() -> QuerySet[Any]:
        return Restpartie.objects.order_by("tournament_id", "player_id", "seq").values_list(
            "tournament_id", "player_id", "opponent_rating", _scaled("score", 1000), "end_date"
        )

    for tid, player_id, opp, score, end in selected("restpartien", rp_query) if include_restpartien else ():
        rp_rows[(tid, player_id)].append(RestpartieValue(opp, score, end))
    restpartien = {key: tuple(rps) for key, rps in rp_rows.items()}
    stored: dict[int, StoredTournament] = {}
    seen = set()

    def add_head(tid: int, head: tuple[Any, ...]) -> StoredTournament:
        t = stored.get(tid)
        if (tid, head) in seen:  # the same head from another chunk of players
            assert t is not None
            return t
        seen.add((tid, head))
        end, suffix, edition = head
        if t is not None:  # rows of one tournament that disagree: never equal to a replay
            t.edition = None
            t.order = min(t.order, stored_order(end, suffix, tid))
        else:
            t = stored[tid] = StoredTournament(edition, stored_order(end, suffix, tid))
        return t

    # Each row carries its head (end date, code suffix, edition): no separate DISTINCT query over the rows.
    def query() -> QuerySet[Any]:
        return Evaluation.objects.order_by(*(("tournament_id", "pk") if in_order else ())).values_list(
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
            "end_date",
            "code_suffix",
            "edition",
        )

    coefficients = _Tenths()
    no_restpartien = ()
    with_restpartien = {tid for tid, _ in restpartien}  # a few: most rows skip the (tid, player) lookup
    # The head of the rows being read; compared field by field (no tuple per row).
    cur_tid = cur_end = cur_suffix = cur_edition = None
    rows: list[tuple[Any, ...]] = []
    stored_rows = selected("rows", query)
    for (tid, player_id, status, dwz_old, index_old, n, points, expected, coefficient, level, performance,
         dwz_new, index_new, takeover, entry_rating, end, suffix, edition) in stored_rows:  # fmt: skip
        if tid != cur_tid or end != cur_end or suffix != cur_suffix or edition != cur_edition:
            cur_tid, cur_end, cur_suffix, cur_edition = tid, end, suffix, edition
            rows = add_head(tid, (end, suffix, edition)).rows
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
                restpartien.get((tid, player_id), no_restpartien)
                if tid in with_restpartien
                else no_restpartien,
                takeover,
                entry_rating,
            )
        )
    return stored


class _Tenths(dict[Any, Any]):
    """Tenths (the scaled coefficient column) -> ``Decimal``, computed once per value; None stays None."""

    def __missing__(self, tenths: int | None) -> Decimal | None:
        self[tenths] = value = None if tenths is None else Decimal(tenths).scaleb(-1)
        return value


StartValues = dict[int, tuple[int | None, int | None, int | None]]  # player pk: (dwz, index, fide_elo)


def load_start_values(players: Collection[int] | None = None) -> StartValues:
    """Start values (of ``players`` only, if given). ``order_by()``: the model's ordering by player would
    join the player table."""

    def query() -> QuerySet[Any]:
        return (
            RatingAdjustment.objects.filter(kind=AdjustmentKind.START)
            .order_by()
            .values_list("player_id", "dwz", "index", "fide_elo")
        )

    ids = None if players is None else set(players)
    return {
        player_id: (dwz, index, fide)
        for player_id, dwz, index, fide in _rows("start", query, ids, "player_id")
    }


def load_members(players: Collection[int] | None = None) -> set[int]:
    """Players holding a membership (of ``players`` only, if given). ``order_by()``: the model's ordering
    (by club) would otherwise take part in the DISTINCT."""

    def query() -> QuerySet[Any]:
        return Membership.objects.order_by().values_list("player_id").distinct()

    return {pk for (pk,) in _rows("members", query, None if players is None else set(players), "player_id")}


@dataclass(slots=True)
class PlayerEvents:
    """One player's own events from the changed point on: ``(order, ("t" | "a", pk))`` in order, his stored
    rows there (tournament pk -> row in ``PlayerResult`` field order) and his dated adjustments' values."""

    events: list[tuple[OrderKey, tuple[str, int]]] = field(default_factory=list)
    rows: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    adjustments: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)


@dataclass(slots=True)
class LoadedPlayers:
    events: dict[int, PlayerEvents]
    stored: dict[int, StoredTournament]  # their rows only, by tournament (for ``states_before``)
    old_adjustments: list[tuple[OrderKey, int, int]]  # every stored dated adjustment from ``since`` on
    start_values: StartValues
    members: set[int]


def load_player_events(
    players: set[int],
    since: OrderKey,
    *,
    removed_t: set[int],
    removed_a: set[int],
    seeds: dict[int, TournamentEvent],
    stale: set[int],
) -> LoadedPlayers:
    """Everything of ``players`` an incremental replay needs, by indexed lookups on the player: their rated
    tournaments and dated adjustments from ``since`` on, their stored results there, start values and
    memberships. Removed tournaments and adjustments are left out of the events.

    A player's tournaments are read off his stored rows (the ``(player_id, end_date)`` index; at their
    stored position, which is the current one for every tournament but the changed ones) plus the
    ``seeds`` (changed and never evaluated tournaments, with their current entries and position);
    ``stale`` tournaments (stored rows, no longer rated) are left out.
    """
    events = {pk: PlayerEvents() for pk in players}
    stored = load_stored(since[0], players=players, in_order=False)
    for tid, t in stored.items():
        listed = tid not in removed_t and tid not in seeds and tid not in stale
        for row in t.rows:
            mine = events[int(row[0])]
            mine.rows[tid] = row
            if listed:
                mine.events.append((t.order, ("t", tid)))
    for tid, ev in seeds.items():
        for pid, _ in ev.players:
            if int(pid) in events:
                events[int(pid)].events.append((ev.order, ("t", tid)))
    old_adjustments = []

    def adjustments(since: datetime.date) -> QuerySet[Any]:
        return (
            RatingAdjustment.objects.filter(date__isnull=False, date__gte=since)
            .order_by()
            .values_list("pk", "player_id", "date", "dwz", "index")
        )

    for apk, pk, date, dwz, index in _rows("adjustments", adjustments, players, "player_id", since[0]):
        assert date is not None  # the query excludes undated adjustments
        order = adjustment_order(date, apk)
        if order < since:
            continue
        old_adjustments.append((order, apk, pk))
        if apk not in removed_a:
            events[pk].events.append((order, ("a", apk)))
            events[pk].adjustments[apk] = (dwz, index)
    for mine in events.values():
        mine.events.sort()
    # Two index scans (the partial unique index of start values, the membership's player index): one query
    # joining both to the player rows made PostgreSQL hash all of them in every loading round at 2 M.
    return LoadedPlayers(events, stored, old_adjustments, load_start_values(players), load_members(players))


def start_state(start: tuple[int | None, int | None, int | None] | None) -> PlayerState:
    if start is None:
        return PlayerState()
    dwz, index, fide = start
    return PlayerState(dwz, (index or 0) if dwz is not None else None, fide)


def _restpartien_before(players: set[int], since: datetime.date) -> dict[int, tuple[RestpartieValue, ...]]:
    """Stored Restpartien played before ``since`` that can still be valid on or after it (2-year window)."""
    oldest = datetime.date(max(since.year - 2, 1), 1, 1)
    found: dict[int, list[RestpartieValue]] = defaultdict(list)

    def query(oldest: datetime.date, since: datetime.date) -> QuerySet[Any]:
        return (
            Restpartie.objects.filter(end_date__gte=oldest, end_date__lt=since)
            .order_by("end_date", "tournament_id", "seq")
            .values_list("player_id", "opponent_rating", "score", "end_date")
        )

    # Many players (a full recalculation): one scan of the window beats dozens of ``IN (...)`` chunks.
    ids = None if len(players) > 4 * IN_CHUNK else players
    for player_id, opp, score, end in _rows("restpartien before", query, ids, "player_id", oldest, since):
        if player_id in players:
            found[player_id].append(RestpartieValue(opp, thousandths(score), end))
    return {pk: tuple(v) for pk, v in found.items()}


_ENTERED_WITH_DWZ = (EvaluationStatus.RATED, EvaluationStatus.NON_MEMBER)


def states_before(  # noqa: C901, PLR0912 -- existing; issue 27
    *,
    since: OrderKey,
    players: set[int],
    reset: set[int],
    stored: dict[int, StoredTournament],
    old_adjustments: list[tuple[OrderKey, int, int]],
    start_values: dict[Any, Any],
    from_history: bool = False,
) -> dict[str, PlayerState]:
    """Each player's state just before ``since``, read off the stored data (spec §9 inputs).

    The first stored event at or after ``since`` tells it: an evaluation records the player's input
    (``dwz_old`` / ``index_old``; none for a first rating, a not-rated player or a FIDE take-over).
    Without stored events from there on, his current row is his state. A dated adjustment records
    nothing of the state before it; then his earlier history is read directly. ``from_history`` reads every
    player's state from his history before ``since`` (the stored rows from there on may be stale).
    """
    # (order, kind, the evaluation row or None for an adjustment)
    first: dict[int, tuple[OrderKey, str, tuple[Any, ...] | None]] = {}
    for t in stored.values():
        order = t.order
        for row in t.rows:
            pk = int(row[0])
            if pk in players and pk not in reset and (pk not in first or order < first[pk][0]):
                first[pk] = (order, "evaluation", row)
    for order, _adj_pk, player_id in old_adjustments:
        if player_id in players and (player_id not in first or order < first[player_id][0]):
            first[player_id] = (order, "adjustment", None)

    need_current = [pk for pk in players if pk not in first and pk not in reset]
    current = {}
    for chunk in chunks(need_current):
        current.update(
            {
                pk: (dwz, index)
                for pk, dwz, index in Player.objects.filter(pk__in=chunk).values_list("pk", "dwz", "index")
            }
        )
    # A dated adjustment sets the state only from its own date on: tournaments between ``since`` and it
    # need the state before ``since``, which only the earlier history tells.
    fallback = {pk for pk, (_, kind, _) in first.items() if kind == "adjustment"}
    if from_history:
        fallback = set(players)
    fallback -= reset
    history = _history_before(fallback, since) if fallback else {}

    states: dict[str, PlayerState] = {}
    no_dwz: set[int] = set()
    for pk in players:
        start = start_state(start_values.get(pk))
        if pk in reset:
            state = start
        elif pk in fallback:
            dwz, index = history.get(pk, (start.dwz, start.index))
            state = PlayerState(dwz, index, start.fide_elo)
        elif pk in first:
            _, _, evaluation_row = first[pk]
            ref = PlayerResult(*evaluation_row) if evaluation_row is not None else None
            # A non-member entered like a rated player (his DWZ is kept, WO 3.4.3) or without a DWZ.
            if ref is not None and ref.status in _ENTERED_WITH_DWZ and not ref.fide_takeover:
                state = PlayerState(ref.dwz_old, ref.index_old, start.fide_elo)
            else:
                state = PlayerState(None, None, start.fide_elo)
        else:
            dwz, index = current.get(pk, (None, None))
            state = PlayerState(dwz, index, start.fide_elo)
        if state.dwz is None and pk not in reset:
            no_dwz.add(pk)
        states[engine_id(pk)] = state
    if no_dwz and since[0] != datetime.date.min:
        for pk, rps in _restpartien_before(no_dwz, since[0]).items():
            s = states[engine_id(pk)]
            states[engine_id(pk)] = PlayerState(s.dwz, s.index, s.fide_elo, rps)
    return states


def _history_before(players: set[int], since: OrderKey) -> dict[int, tuple[int | None, int | None]]:
    """DWZ and index of ``players`` just before ``since`` from their full stored history (rarely needed)."""
    last: dict[int, tuple[OrderKey, int | None, int | None]] = {}
    for chunk in player_chunks(players):
        rows = Evaluation.objects.filter(player_id__in=chunk, end_date__lte=since[0]).values_list(
            "player_id", "tournament_id", "end_date", "code_suffix", "status", "n", "dwz_new", "index_new"
        )
        for player_id, tid, end, suffix, status, n, dwz, index in rows:
            order = stored_order(end, suffix, tid)
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
            assert date is not None  # the query excludes undated adjustments
            order = adjustment_order(date, pk)
            if order < since and (player_id not in last or order > last[player_id][0]):
                last[player_id] = (order, dwz, index)
    return {pk: (dwz, index) for pk, (_, dwz, index) in last.items()}


def player_first_event(player_id: int) -> OrderKey | None:
    """The position before the player's earliest stored event (evaluation or dated adjustment)."""
    return first_event_of([player_id])


def first_event_of(players: Collection[int]) -> OrderKey | None:
    """The position before the earliest stored event (evaluation or dated adjustment) of any of ``players``:
    two indexed aggregates per chunk (a list import may make thousands of players dirty)."""
    dates = []
    for chunk in chunks(sorted(players)):
        dates.append(Evaluation.objects.filter(player_id__in=chunk).aggregate(first=Min("end_date"))["first"])
        dated = RatingAdjustment.objects.filter(player_id__in=chunk, date__isnull=False)
        dates.append(dated.aggregate(first=Min("date"))["first"])
    present = [d for d in dates if d is not None]
    return day_start(min(present)) if present else None


def tournaments_of(players: Collection[int]) -> list[int]:
    """Every tournament ``players`` are entered in (a birth-year change: his age class is an input of each
    of them that no rating state carries, so each counts as changed), sorted."""
    found: set[int] = set()
    for chunk in chunks(sorted(players)):
        found.update(
            TournamentEntry.objects.filter(player_id__in=chunk).values_list("tournament_id", flat=True)
        )
    return sorted(found)
