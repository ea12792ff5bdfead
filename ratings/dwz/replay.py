"""Chronological replay of many tournaments on top of :func:`evaluate` (spec §9, WO 2.2.3 / 3.7). Pure Python.

The replay walks *events* in the official order: tournaments (by end date, code suffix ``KKK`` with DSB-coded
before the others, creation order) and dated rating adjustments (a value set on date D applies before every
tournament ending on or after D). Each player carries a :class:`PlayerState` from event to event.

Incremental mode: the caller passes the *stored* results of the tournaments (what the database holds) and
the set of players whose inputs changed (``dirty``). A tournament is evaluated again only if it changed or
one of its players is dirty; otherwise its stored results are applied unchanged. A player stops being dirty
when his state provably equals the stored one again (same result as stored, or a DWZ identical to the stored
one). The end state equals a full replay because a clean player's stored history is, by induction, exactly
what a full replay would produce.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from ratings.dwz import evaluate  # the public engine API (the package is imported first)

from .codes import order_suffix
from .first_rating import restpartie_valid
from .types import (
    GameInput,
    PlayerInput,
    PlayerResult,
    RestpartieValue,
    Status,
    TournamentInput,
    TournamentResult,
    record,
    sets_rating,
)

# Sort keys. Adjustments sort before tournaments of the same day (kind 0 < 1).
OrderKey = tuple[datetime.date, int, int, str, int]


def tournament_order(end_date: datetime.date, code: str | None, creation: int) -> OrderKey:
    """Spec §9, §16: end date, then KKK (the last three characters of a DSB code), DSB-coded before the
    others (a portal UUID or no code), then creation order."""
    suffix = order_suffix(code)
    if suffix is not None:
        return (end_date, 1, 0, suffix, creation)
    return (end_date, 1, 1, "", creation)


def adjustment_order(date: datetime.date, creation: int) -> OrderKey:
    return (date, 0, 0, "", creation)


def day_start(date: datetime.date) -> OrderKey:
    """The position before every event of ``date``."""
    return (date, -1, 0, "", 0)


@record(slots=True)
class PlayerState:
    dwz: int | None = None
    index: int | None = None
    fide_elo: int | None = None  # start value; used only while there is no DWZ
    restpartien: tuple[RestpartieValue, ...] = ()

    @property
    def has_dwz(self) -> bool:
        return self.dwz is not None


@record(slots=True)
class TournamentEvent:
    key: Hashable
    order: OrderKey
    end_date: datetime.date
    players: tuple[tuple[str, int | None], ...]  # (id, birth year) in entry order
    games: tuple[GameInput, ...]  # pairings with two players (played and forfeits); byes never come here
    code: str | None = None
    name: str | None = None
    non_members: frozenset[str] = frozenset()  # not members of a DSB club (WO 3.4.3): no DWZ, no Restpartien


@record(slots=True)
class AdjustmentEvent:
    key: Hashable
    order: OrderKey
    player: str
    dwz: int | None  # an adjustment may set no DWZ (the fields are nullable)
    index: int | None


Event = TournamentEvent | AdjustmentEvent


@dataclass(slots=True)
class ReplayOutcome:
    # Tournaments evaluated by the engine in this replay, in order, with their (normalised) results.
    evaluated: dict[Hashable, TournamentResult] = field(default_factory=dict)
    states: dict[str, PlayerState] = field(default_factory=dict)
    # Players whose state may differ from the stored one at the end (their stored Player row is stale).
    dirty: set[str] = field(default_factory=set)


EMPTY = PlayerState()


def gives_rating(result: PlayerResult) -> bool:
    """True if the result sets the player's DWZ: a first rating, or a rated player with counted games."""
    return sets_rating(result.status, result.n)


_FIRST, _RATED, _NOT_RATED = Status.FIRST.value, Status.RATED.value, Status.NOT_RATED.value


def advance(state: PlayerState, result: PlayerResult, end_date: datetime.date) -> PlayerState:
    """The player's state after one tournament result (stored Restpartien only come in ``result``)."""
    status = result.status
    if status == _FIRST or (status == _RATED and result.n > 0):  # gives_rating(result), inlined: hot
        # A rating consumes all Restpartien (WO 3.4.3 / spec §6.10).
        return PlayerState(result.dwz_new, result.index_new, state.fide_elo, ())
    if status == _NOT_RATED and result.restpartien:
        # Expired games can never become valid again later (dates only grow): drop them here.
        kept = tuple(rp for rp in state.restpartien if restpartie_valid(rp, end_date))
        return PlayerState(state.dwz, state.index, state.fide_elo, kept + result.restpartien)
    return state


def tournament_input(event: TournamentEvent, states: Mapping[str, PlayerState]) -> TournamentInput:
    players = []
    end_date, get = event.end_date, states.get
    non_members = event.non_members
    for pid, birth_year in event.players:
        s = get(pid) or EMPTY
        member = pid not in non_members
        if s.dwz is not None:
            players.append(PlayerInput(pid, birth_year, s.dwz, s.index or 0, None, (), member))
        elif s.fide_elo is not None:
            players.append(PlayerInput(pid, birth_year, None, None, s.fide_elo, (), member))
        else:
            rps = s.restpartien
            valid = tuple(rp for rp in rps if restpartie_valid(rp, end_date)) if rps else ()
            players.append(PlayerInput(pid, birth_year, None, None, None, valid, member))
    return TournamentInput(event.end_date, tuple(players), event.games, event.code, event.name)


def normalise(result: TournamentResult, members: Callable[[str], bool]) -> TournamentResult:
    """Restpartien are kept only for DSB members (WO 3.4.3): drop the others' from the result."""
    for p in result.players:  # a plain loop: cheaper than any() over a generator, once per tournament
        if p.restpartien:
            break
    else:
        return result
    players = tuple(
        p if not p.restpartien or members(p.id) else dataclasses.replace(p, restpartien=())
        for p in result.players
    )
    return TournamentResult(edition=result.edition, players=players)


def replay(  # noqa: C901, PLR0913 -- existing; issue 27
    events: Iterable[Event],
    states: dict[str, PlayerState],
    *,
    members: Callable[[str], bool],
    dirty: set[str] | None = None,
    changed: AbstractSet[Hashable] = frozenset(),
    stored: Mapping[Hashable, TournamentResult] | None = None,
    evaluator: Callable[[TournamentInput], TournamentResult] = evaluate,
    on_event: Callable[[Event], None] | None = None,
    known: Callable[[TournamentEvent, TournamentInput], TournamentResult | None] | None = None,
    games_of: Callable[[TournamentEvent], tuple[GameInput, ...]] | None = None,
) -> ReplayOutcome:
    """Replay ``events`` (sorted here by their order key) starting from ``states`` (updated in place).

    Full replay: ``stored=None`` (every tournament is evaluated). Incremental: ``stored`` maps each unchanged
    tournament to its stored result, ``dirty`` names the players whose input changed and ``changed`` the
    tournaments and adjustments that are new or edited.

    Full replay: ``known`` gives an input's result if the caller knows it (rows ``ratings.dwz.digest``
    certifies), taken as it is; ``games_of`` the games of an event to evaluate that came without them.
    """
    full = stored is None
    dirty = set(dirty or ())
    out = ReplayOutcome(states=states, dirty=dirty)
    evaluated = out.evaluated

    def finish(event: TournamentEvent, before: TournamentResult | None, result: TournamentResult) -> None:
        evaluated[event.key] = result
        end_date = event.end_date
        if full:
            for pr in result.players:
                states[pr.id] = advance(states.get(pr.id) or EMPTY, pr, end_date)
            return
        old_by_id = {} if before is None else {pr.id: pr for pr in before.players}
        for pr in result.players:
            states[pr.id] = advance(states.get(pr.id) or EMPTY, pr, end_date)
            old = old_by_id.get(pr.id)
            was_dirty = pr.id in dirty
            if old is not None and old == pr and not was_dirty:
                continue
            if (
                old is not None
                and gives_rating(pr)
                and gives_rating(old)
                and (old.dwz_new, old.index_new) == (pr.dwz_new, pr.index_new)
            ):
                dirty.discard(pr.id)  # same DWZ and index as stored: the histories agree again
                continue
            dirty.add(pr.id)

    for event in sorted(events, key=lambda e: e.order):
        if on_event is not None:
            on_event(event)
        if isinstance(event, AdjustmentEvent):
            old = states.get(event.player) or EMPTY
            states[event.player] = PlayerState(event.dwz, event.index, old.fide_elo, ())
            if event.key in changed:
                dirty.add(event.player)
            else:
                dirty.discard(event.player)  # the same value as stored from here on
            continue
        if full:
            given = tournament_input(event, states)
            result = None if known is None else known(event, given)
            if result is None:
                given = given if games_of is None else dataclasses.replace(given, games=games_of(event))
                result = normalise(evaluator(given), members)
            finish(event, None, result)
            continue
        before = stored.get(event.key)  # type: ignore[union-attr]
        must = before is None or event.key in changed or any(pid in dirty for pid, _ in event.players)
        if not must:
            for pr in before.players:  # type: ignore[union-attr]
                states[pr.id] = advance(states.get(pr.id) or EMPTY, pr, event.end_date)
            continue
        finish(event, before, normalise(evaluator(tournament_input(event, states)), members))
    if full:
        out.dirty = set(states)
    return out
