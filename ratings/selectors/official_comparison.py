"""The Abgleich (issue 28 §3): the DSB's official DWZ-Index of each listed player against dwzsite's own.

Read only, a fixed number of queries (see ``QUERIES``), nothing computed but comparisons of stored values.
The heuristics need every listed player (his co-participants' verdicts), so the whole list is compared and
an area only filters the rows: every listed player's rating events are read as value tuples (20,000 players
with 200,000 evaluations took about 4 s on SQLite; a national list has some ten times as many): compute it
in the list import's background run and keep the result, rather than on each page view.

Definitions
-----------
*The list.* The ``OfficialRating`` rows of one date (``as_of``: a ``ListImport``'s date, a date given, or the
newest list). A player is *compared* when he has a row of that date.

*His week.* ``OfficialRating.last_evaluation`` (``JJJJWW``) names the ISO week of his last official
evaluation. His *window* ends with the Sunday of that week, but never after the list's date (a tournament
ending after the list cannot be on it). Without a (valid) week the window ends with the list's date.
Tournaments of ours after the window are not compared: the DSB has not evaluated them yet (its usual lag).

*Ours as of the week.* His last rating event whose date falls in the window, in the replay's order
(``ratings.dwz.replay``: the undated start value first, a dated adjustment before the tournaments of its
day, tournaments by end date, DSB code suffix ``KKK`` before uncoded ones, then creation order): the
``dwz_new``/``index_new`` of a rating-setting evaluation (``Evaluation.objects.setting_rating()``: a first
rating or a rated player with games) or the DWZ/index of an adjustment. This is ``ratings_as_of`` of the
list import (``ratings.services.dsb_list``) at another date per player.

*The index count.* The index counts evaluations (formats.md §3: "the number of evaluations so far"; dwz-
rules.md: each evaluation adds one); a missing index with a DWZ is 0, no DWZ counts as index 0.

*Co-participants.* The other compared players with a rating-setting evaluation in a tournament that lies in
their own window. *Last agreement* ``L`` of a player: his last candidate tournament (below) in which at least
half of his co-participants agree with the list (a majority: a small difference of his moves an opponent's
result so little that one may agree by rounding although his input differed). *Bound*: his chains cannot
part before the end of the window of his newest older list (``OfficialRating`` of an earlier date) that
agreed with ours as of its own week, nor before his last dated adjustment in the window (both chains take
its value); his *candidates* are his rating-setting evaluations in the window after the bound.

*Causes* (``Cause``), for a player whose (DWZ, index) differs from ours as of his week:

``OURS_EXTRA``
    The DSB's index is lower: we have evaluated a tournament the DSB has not. Named: as many tournaments as
    the indices differ, chosen among his candidates by, in this order: *corroborated* (every co-participant
    has a lower DSB index, too: a tournament missing at the DSB is missing for all its players), the number
    of co-participants with a lower DSB index, *consistent* (after ``L``), and lastly the latest (the
    evaluations "beyond the DSB's index count"). Evidence ``CORROBORATED`` or ``COUNT``.

``DSB_EXTRA``
    The DSB's index is higher: the DSB has evaluated a tournament this site lacks. There is no tournament of
    ours to name: the message says after which of ours it probably lies (``L``) and up to which week. His
    chain has parted just after ``L`` (else after the bound; else at a point not known).

``CHAIN_PARTS``
    Equal index, another DWZ: an evaluation differs. Named: the first tournament where the chains part.
    Only the final values are known, so this is a deterministic heuristic, in evaluation order (the
    earliest explanation of any open player is settled first; no later one can change it):

    1. *Spread* (evidence ``SPREAD``): his first candidate in which a co-participant's chain had already
       parted before it, with a difference at least as large as his (an opponent's difference reaches him
       damped). ``OURS_EXTRA`` players have parted at their first named tournament, ``DSB_EXTRA`` players
       as said above, the others where this heuristic put them.
    2. *Root* (``SHARED``, ``CONSISTENT``), for a difference of at least ``ROOT_MIN`` points (a game or an
       evaluation of his own differs): among his candidates the one after which he meets the most
       co-participants who differ less those who agree (had his chain parted there, they would differ),
       then one he shares with another ``CHAIN_PARTS`` player (a game's two players), then the earliest.
    3. Last resorts, when nothing above applies to anybody open: the first candidate where he met a
       ``DSB_EXTRA`` player of unknown parting with a difference at least as large (``SPREAD``); else the
       root of a smaller difference (best rank first). Without any candidate nothing is named
       (``NONE``): his start value or an adjustment differs.

    Limits: two players parting in the same tournament who meet again later cannot be told apart; with many
    changes close together the named tournament may be one where the input already differed but rounding
    kept the result (the tests accept those as explained) or, rarely, an earlier one. Cost: one sweep
    through the differing players' tournaments, again after each last resort; step 2 ranks a player's
    candidates once (quadratic in his window's evaluations).

*Tournament agreement* (``tournament_agreement``): a difference *implicates* a tournament of his (in his
window) that is at or after his named tournament (``OURS_EXTRA``, ``CHAIN_PARTS``) or after the point where
his chain parted (``DSB_EXTRA``); with no point known (a ``DSB_EXTRA`` without ``L`` and bound, a start
value) it leaves the tournament *unklar*. A tournament is *abweichend* (``DIFFERS``) with the differences
that implicate it; else *unklar* (``UNCLEAR``) with those of unknown point; else *offen* (``PENDING``) when a
listed participant's window does not reach it yet or none of its rated participants is listed; else
*bestätigt* (``CONFIRMED``). Participants without a row in the list (non-members, foreign players) do not
count.
"""

from __future__ import annotations

import bisect
import datetime
import enum
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.enums import AdjustmentKind
from ratings.folding import name_sort_key
from ratings.models import (
    Club,
    Evaluation,
    ListImport,
    OfficialRating,
    Organisation,
    Player,
    RatingAdjustment,
    Tournament,
)

OrderKey = tuple[datetime.date, int, int, str, int]
_START_KEY: OrderKey = (datetime.date.min, -1, 0, "", 0)

# compare_official: the list date, its rows, the older rows, adjustments, evaluations, the named tournaments
# and (with an area) its players.
QUERIES = 7


class Cause(enum.StrEnum):
    OURS_EXTRA = "ours_extra"  # the DSB's index is lower: a tournament here the DSB has not evaluated
    DSB_EXTRA = "dsb_extra"  # the DSB's index is higher: the DSB has a tournament this site lacks
    CHAIN_PARTS = "chain_parts"  # equal index, another DWZ: an evaluation differs


class Evidence(enum.StrEnum):
    """Why a tournament is named (in the order the heuristics try them)."""

    CORROBORATED = "corroborated"  # OURS_EXTRA: every co-participant's DSB index is lower, too
    COUNT = "count"  # OURS_EXTRA: among his evaluations beyond the DSB's index count
    SPREAD = "spread"  # CHAIN_PARTS: a co-participant's chain had parted before it
    SHARED = "shared"  # CHAIN_PARTS, his own: another CHAIN_PARTS player may part in it, too
    CONSISTENT = "consistent"  # CHAIN_PARTS, his own: the players he met after it differ rather than agree
    NONE = "none"  # no tournament to name (DSB_EXTRA; a start value or adjustment)


class Agreement(enum.StrEnum):
    CONFIRMED = "confirmed"  # bestätigt
    DIFFERS = "differs"  # abweichend
    UNCLEAR = "unclear"  # unklar: a player of it differs, but from where is not known
    PENDING = "pending"  # offen


@dataclass(frozen=True, slots=True)
class PlayerRef:
    id: int
    key: str
    name: str
    sort: str = ""  # his name's DIN 5007 key (ratings.folding.name_sort_key)


@dataclass(frozen=True, slots=True)
class TournamentRef:
    id: int
    name: str
    code: str | None
    end_date: datetime.date


@dataclass(frozen=True, slots=True)
class Difference:
    player: PlayerRef
    official_dwz: int | None
    official_index: int
    official_week: str  # JJJJWW as the list gave it ("" if none)
    window_end: datetime.date  # ours as of the end of this day
    our_dwz: int | None
    our_index: int
    cause: Cause
    tournaments: tuple[TournamentRef, ...]  # named: missing at the DSB, or where the chains part
    evidence: Evidence
    message: str
    # Where in the replay his chain parts (None: unknown): his named tournament's position (its own result
    # differs) or, for DSB_EXTRA, that of his last agreement (later ones differ); see tournament_agreement.
    parted_after: OrderKey | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Comparison:
    as_of: datetime.date | None
    compared: int  # listed players in the area
    differences: tuple[Difference, ...]  # by cause, then player name

    @property
    def agreeing(self) -> int:
        return self.compared - len(self.differences)

    def count(self, cause: Cause) -> int:
        return sum(1 for d in self.differences if d.cause == cause)


@dataclass(frozen=True, slots=True)
class TournamentVerdict:
    tournament_id: int
    state: Agreement
    differences: tuple[Difference, ...]  # DIFFERS: those implicating it; UNCLEAR: those of unknown point


# --- helpers -----------------------------------------------------------------------------------------------


def week_end(week: str) -> datetime.date | None:
    """The Sunday of an ISO week ``JJJJWW``; None for an empty, ``0`` or invalid value."""
    text = (week or "").strip()
    if len(text) != 6 or not text.isdigit():
        return None
    try:
        return datetime.date.fromisocalendar(int(text[:4]), int(text[4:]), 7)
    except ValueError:
        return None


def _tournament_key(end: datetime.date, suffix: str | None, tid: int) -> OrderKey:
    return (end, 1, 0, suffix, tid) if suffix else (end, 1, 1, "", tid)


def _day_end(day: datetime.date) -> OrderKey:
    return (day, 2, 0, "", 0)


def _week_label(week: str) -> str:
    return f"{week[4:]}/{week[:4]}" if week_end(week) else week


@dataclass(slots=True)
class _Event:
    key: OrderKey
    dwz: int | None
    index: int
    tournament: int | None  # None: an adjustment
    adjustment_date: datetime.date | None = None  # None with a tournament or a start value


@dataclass(slots=True)
class _Player:
    pk: int
    ref: PlayerRef
    dwz: int | None
    index: int
    week: str
    end: datetime.date
    events: list[_Event] = field(default_factory=list)  # in order, up to the list's date
    older: list[tuple[datetime.date, int | None, int, str]] = field(default_factory=list)  # newest first

    def state(self, end: datetime.date) -> _Event | None:
        limit = _day_end(end)
        last = None
        for event in self.events:
            if event.key > limit:
                break
            last = event
        return last

    def in_window(self, key: OrderKey) -> bool:
        return key <= _day_end(self.end)


def _window_end(week: str, as_of: datetime.date) -> datetime.date:
    end = week_end(week)
    return as_of if end is None or end > as_of else end


def _official(dwz: int | None, index: int | None) -> tuple[int | None, int]:
    return (dwz, index or 0) if dwz else (None, 0)


def _ours(event: _Event | None) -> tuple[int | None, int]:
    return (None, 0) if event is None else _official(event.dwz, event.index)


# --- the comparison ----------------------------------------------------------------------------------------


def _list_date(as_of: datetime.date | None, list_import: ListImport | None) -> datetime.date | None:
    if list_import is not None:
        return list_import.as_of
    if as_of is not None:
        return as_of
    return OfficialRating.objects.aggregate(newest=Max("as_of"))["newest"]


def _load(as_of: datetime.date) -> dict[int, _Player]:
    """Four queries: the list's rows, the players' older rows, adjustments and rating-setting evaluations."""
    listed = OfficialRating.objects.filter(as_of=as_of)
    players: dict[int, _Player] = {}
    for pk, dwz, index, week, key, surname, first in listed.values_list(
        "player_id", "dwz", "index", "last_evaluation", "player__key", "player__surname", "player__first_name"
    ):
        name = f"{surname}, {first}" if first else surname
        official = _official(dwz, index)
        players[pk] = _Player(
            pk,
            PlayerRef(pk, key, name, name_sort_key(surname, first)),
            official[0],
            official[1],
            week,
            _window_end(week, as_of),
        )
    ids = listed.values("player_id")
    for pk, day, dwz, index, week in (
        OfficialRating.objects.filter(player_id__in=ids, as_of__lt=as_of)
        .order_by("player_id", "-as_of")
        .values_list("player_id", "as_of", "dwz", "index", "last_evaluation")
    ):
        official = _official(dwz, index)
        players[pk].older.append((_window_end(week, day), official[0], official[1], week))
    events: dict[int, list[_Event]] = defaultdict(list)
    adjustments = RatingAdjustment.objects.filter(player_id__in=ids).exclude(date__gt=as_of)
    for pk, adj, kind, date, dwz, index in adjustments.values_list(
        "player_id", "pk", "kind", "date", "dwz", "index"
    ):
        if kind == AdjustmentKind.START or date is None:
            if dwz is not None:  # a start value of an Elo only: no DWZ
                events[pk].append(_Event(_START_KEY, dwz, index or 0, None))
            continue
        events[pk].append(_Event((date, 0, 0, "", adj), dwz, index or 0, None, date))
    evaluations = Evaluation.objects.filter(player_id__in=ids, end_date__lte=as_of).setting_rating()
    for pk, tid, end, suffix, dwz, index in evaluations.values_list(
        "player_id", "tournament_id", "end_date", "code_suffix", "dwz_new", "index_new"
    ):
        events[pk].append(_Event(_tournament_key(end, suffix, tid), dwz, index or 0, tid))
    for pk, rows in events.items():
        rows.sort(key=lambda e: e.key)
        players[pk].events = rows
    return players


@dataclass(slots=True)
class _Analysis:
    """The whole list's comparison (the heuristics need every compared player, whatever the area)."""

    as_of: datetime.date | None
    players: dict[int, _Player]
    differences: dict[int, Difference]
    refs: dict[int, TournamentRef]


@dataclass(slots=True)
class _Context:
    """What the heuristics share for one list. The first fields are read only; ``parted`` and ``named`` are
    written as the causes are settled (the chains' heuristics read the partings settled before)."""

    players: dict[int, _Player]
    ours: dict[int, tuple[int | None, int]]  # ours as of his week, every compared player
    cause: dict[int, Cause]  # the differing players only
    participants: dict[int, list[int]]  # tournament -> compared players rated in it within their window
    key_of: dict[int, OrderKey]  # tournament -> its place in the replay
    # Per differing player (module docstring): his bound, candidates, last agreement L and the size of his
    # difference.
    bound: dict[int, OrderKey] = field(default_factory=dict)
    candidates: dict[int, list[_Event]] = field(default_factory=dict)
    last_agreement: dict[int, _Event | None] = field(default_factory=dict)
    size: dict[int, int] = field(default_factory=dict)
    parted: dict[int, OrderKey] = field(default_factory=dict)  # where his chain parts, if known
    named: dict[int, tuple[list[int], Evidence]] = field(default_factory=dict)  # tournaments, evidence

    def others(self, pk: int, event: _Event) -> list[int]:
        """His co-participants in the tournament of ``event``."""
        return [q for q in self.participants[event.tournament or 0] if q != pk]


def _analyse(as_of: datetime.date | None) -> _Analysis:
    if as_of is None:
        return _Analysis(None, {}, {}, {})
    ctx = _context(_load(as_of))
    # In the module docstring's order: OURS_EXTRA and DSB_EXTRA partings are fixed first, as the chains'
    # spreads start from them.
    for pk in sorted(pk for pk, c in ctx.cause.items() if c == Cause.OURS_EXTRA):
        _name_ours_extra(ctx, pk)
    for pk in (pk for pk, c in ctx.cause.items() if c == Cause.DSB_EXTRA):
        _name_dsb_extra(ctx, pk)
    _chains(_sweep(ctx))
    refs = _tournament_refs(ctx)
    differences = {pk: _difference(ctx, pk, refs) for pk in ctx.cause}
    return _Analysis(as_of, ctx.players, differences, refs)


def _context(players: dict[int, _Player]) -> _Context:
    """Ours as of each player's week, the causes, the tournaments' participants, and per differing player
    the facts the heuristics start from (the causes must all be known first: L counts who agrees)."""
    ours = {pk: _ours(p.state(p.end)) for pk, p in players.items()}
    cause = {pk: c for pk, p in players.items() if (c := _cause(p, ours[pk])) is not None}
    ctx = _Context(players, ours, cause, *_participants(players))
    for pk in cause:
        p = players[pk]
        bound = ctx.bound[pk] = _bound(p)
        ctx.candidates[pk] = [
            e for e in p.events if e.tournament is not None and e.key > bound and p.in_window(e.key)
        ]
        ctx.last_agreement[pk] = _last_agreement(ctx, pk)
        ctx.size[pk] = _size(p.dwz, ours[pk][0])
    return ctx


def _cause(p: _Player, ours: tuple[int | None, int]) -> Cause | None:
    """Which cause a difference has, by the index count; None when the list agrees with ours."""
    if (p.dwz, p.index) == ours:
        return None
    if p.index < ours[1]:
        return Cause.OURS_EXTRA
    if p.index > ours[1]:
        return Cause.DSB_EXTRA
    return Cause.CHAIN_PARTS


def _participants(players: dict[int, _Player]) -> tuple[dict[int, list[int]], dict[int, OrderKey]]:
    """Tournaments of compared players in their windows: who was rated in each, and each one's key."""
    participants: dict[int, list[int]] = defaultdict(list)
    key_of: dict[int, OrderKey] = {}
    for pk, p in players.items():
        for e in p.events:
            if e.tournament is not None and p.in_window(e.key):
                participants[e.tournament].append(pk)
                key_of[e.tournament] = e.key
    return participants, key_of


def _bound(p: _Player) -> OrderKey:
    """Before which his chains cannot part: the window of his newest older list that agreed with ours, or
    his last dated adjustment in the window if later (both chains take its value)."""
    bound = _START_KEY
    for end, dwz, index, _week in p.older:  # newest first
        if end < p.end and _ours(p.state(end)) == (dwz, index):
            bound = _day_end(end)
            break
    for e in p.events:
        if e.adjustment_date is not None and p.in_window(e.key) and e.key > bound:
            bound = e.key
    return bound


def _last_agreement(ctx: _Context, pk: int) -> _Event | None:
    """L: his last candidate in which at least half of his co-participants agree with the list."""
    agreed = None
    for e in ctx.candidates[pk]:
        others = ctx.others(pk, e)
        if others and 2 * sum(1 for q in others if q not in ctx.cause) >= len(others):
            agreed = e
    return agreed


def _name_ours_extra(ctx: _Context, pk: int) -> None:
    """OURS_EXTRA: the tournaments the DSB lacks, as many as the indices differ, best ranked (module
    docstring); his chain parts at the first of them."""
    missing = ctx.ours[pk][1] - ctx.players[pk].index
    agreed = ctx.last_agreement[pk]
    ranked = []
    for e in ctx.candidates[pk]:
        others = ctx.others(pk, e)
        extra = sum(1 for q in others if ctx.cause.get(q) == Cause.OURS_EXTRA)
        corroborated = bool(others) and extra == len(others)
        consistent = agreed is None or e.key > agreed.key
        ranked.append(((corroborated, extra, consistent, e.key), e))
    ranked.sort(key=lambda item: item[0], reverse=True)
    chosen = sorted((e for _rank, e in ranked[:missing]), key=lambda e: e.key)
    if not chosen:
        ctx.named[pk] = ([], Evidence.NONE)
        return
    evidence = Evidence.CORROBORATED if ranked[0][0][0] else Evidence.COUNT
    ctx.named[pk] = ([e.tournament for e in chosen if e.tournament is not None], evidence)
    ctx.parted[pk] = chosen[0].key


def _name_dsb_extra(ctx: _Context, pk: int) -> None:
    """DSB_EXTRA: nothing of ours to name; parted after his last agreement, else after the bound, else at a
    point not known (it spreads nowhere)."""
    agreed = ctx.last_agreement[pk]
    if agreed is not None:
        ctx.parted[pk] = agreed.key
    elif ctx.bound[pk] > _START_KEY:
        ctx.parted[pk] = ctx.bound[pk]
    ctx.named[pk] = ([], Evidence.NONE)


def _tournament_refs(ctx: _Context) -> dict[int, TournamentRef]:
    """One query: the named tournaments and the last agreements (the DSB_EXTRA message names them)."""
    tournament_ids = {t for ids, _ev in ctx.named.values() for t in ids}
    tournament_ids |= {e.tournament for e in ctx.last_agreement.values() if e is not None and e.tournament}
    return {
        t.pk: TournamentRef(t.pk, t.name, t.code, t.end_date)
        for t in Tournament.objects.filter(pk__in=tournament_ids).only("pk", "name", "code", "end_date")
    }


def _difference(ctx: _Context, pk: int, refs: dict[int, TournamentRef]) -> Difference:
    p, ours, cause = ctx.players[pk], ctx.ours[pk], ctx.cause[pk]
    ids, evidence = ctx.named.get(pk, ([], Evidence.NONE))
    named_refs = tuple(refs[t] for t in ids)
    return Difference(
        player=p.ref,
        official_dwz=p.dwz,
        official_index=p.index,
        official_week=p.week,
        window_end=p.end,
        our_dwz=ours[0],
        our_index=ours[1],
        cause=cause,
        tournaments=named_refs,
        evidence=evidence,
        message=_message(cause, p, ours, named_refs, evidence, ctx.last_agreement[pk], refs),
        parted_after=ctx.parted.get(pk),
    )


# A difference of at least this many points may be a player's own (a game or an evaluation differs); a
# smaller one is taken as carried over from an opponent whose chain had parted, if there is one: a
# co-participant's difference reaches a player only damped (it moves his expected score a little).
ROOT_MIN = 5


def _size(official: int | None, ours: int | None) -> int:
    """How far his DWZ differs (with or without a DWZ: as far as can be)."""
    if official is None or ours is None:
        return 10**6
    return abs(official - ours)


@dataclass(frozen=True, slots=True)
class _Root:
    rank: tuple
    key: OrderKey
    tournament: int
    evidence: Evidence


def _root(pk, events, participants, cause, sharing) -> _Root | None:
    """Where an unexplained player's own change most likely lies (step 2): among his candidates, the one
    after which he meets the most players who differ less those who agree (had his chain parted there, they
    would all differ; a few may agree by rounding), then one he shares with another player with the same
    cause (a game's two players), then the earliest. None without candidates."""
    best: _Root | None = None
    for i, e in enumerate(events):
        tid = e.tournament or 0
        met = {q for later in events[i + 1 :] for q in participants[later.tournament or 0] if q != pk}
        agree = sum(1 for q in met if q not in cause)
        shared = len(sharing[tid]) > 1
        rank = (2 * agree - len(met), not shared, e.key)
        if best is None or rank < best.rank:
            best = _Root(rank, e.key, tid, Evidence.SHARED if shared else Evidence.CONSISTENT)
    return best


@dataclass(slots=True)
class _Sweep:
    """Steps 1–3 of ``CHAIN_PARTS``: the chain players not settled yet (``open_``) and what they are
    settled by; settling writes ``ctx.parted`` and ``ctx.named``."""

    ctx: _Context
    roots: dict[int, _Root | None]  # his own most likely change (step 2), None without candidates
    sharing: dict[int, set[int]]  # tournament -> chain players who may part there
    open_: set[int]
    order: list[int]  # the tournaments of ``sharing`` in evaluation order
    keys: list[OrderKey]  # their keys, to resume after a key

    def spreads_to(self, pk: int, tid: int, key: OrderKey) -> bool:
        """Step 1: a co-participant's chain had parted before, with a difference at least as large."""
        parted, size = self.ctx.parted, self.ctx.size
        return any(
            q != pk and q in parted and parted[q] < key and size[q] >= size[pk]
            for q in self.ctx.participants[tid]
        )

    def settle(self, pk: int, key: OrderKey, tid: int, evidence: Evidence) -> None:
        self.ctx.parted[pk], self.ctx.named[pk] = key, ([tid], evidence)
        self.open_.discard(pk)

    def run(self, after: OrderKey | None) -> None:
        """Settles every spread and root in evaluation order, from just after ``after`` (None: the start).
        One pass suffices: each depends only on partings before its tournament."""
        for tid in self.order[0 if after is None else bisect.bisect_right(self.keys, after) :]:
            key = self.ctx.key_of[tid]
            for pk in sorted(self.sharing[tid] & self.open_):
                root = self.roots[pk]
                if self.spreads_to(pk, tid, key):
                    self.settle(pk, key, tid, Evidence.SPREAD)
                elif root is not None and self.ctx.size[pk] >= ROOT_MIN and root.tournament == tid:
                    self.settle(pk, key, tid, root.evidence)


def _sweep(ctx: _Context) -> _Sweep:
    """The sweep over the CHAIN_PARTS players, all open, with their roots."""
    chain = sorted(pk for pk, c in ctx.cause.items() if c == Cause.CHAIN_PARTS)
    sharing: dict[int, set[int]] = defaultdict(set)
    for pk in chain:
        for e in ctx.candidates[pk]:
            sharing[e.tournament or 0].add(pk)
    roots = {pk: _root(pk, ctx.candidates[pk], ctx.participants, ctx.cause, sharing) for pk in chain}
    order = sorted(sharing, key=lambda tid: ctx.key_of[tid])
    return _Sweep(ctx, roots, sharing, set(chain), order, [ctx.key_of[tid] for tid in order])


def _chains(sweep: _Sweep) -> None:
    """Steps 1–3 of ``CHAIN_PARTS`` (module docstring): one sweep through the tournaments in evaluation
    order settles every spread and root, then each last resort is settled and the sweep runs again from
    there."""
    sweep.run(None)
    # The last resorts do not depend on what is settled meanwhile (DSB_EXTRA partings are fixed), so both
    # are ranked once: stacks, best last; a player settled meanwhile is dropped when he comes up.
    vague = _vague(sweep)
    # (rank, player) is unique, so the root itself is never compared.
    small = sorted(
        ((root.rank, pk, root) for pk in sweep.open_ if (root := sweep.roots[pk]) is not None), reverse=True
    )
    while sweep.open_:
        _drop_settled(vague, sweep.open_)
        _drop_settled(small, sweep.open_)
        if vague:
            key, pk, tid = vague.pop()
            sweep.settle(pk, key, tid, Evidence.SPREAD)
        elif small:
            _rank, pk, root = small.pop()
            sweep.settle(pk, root.key, root.tournament, root.evidence)
        else:  # no candidate at all: an adjustment or start value differs
            for pk in sweep.open_:
                sweep.ctx.named[pk] = ([], Evidence.NONE)
            return
        sweep.run(sweep.ctx.parted[pk])


def _vague(sweep: _Sweep) -> list[tuple[OrderKey, int, int]]:
    """Step 3's first resort, as a stack (earliest last): per open player his first candidate where he met
    a DSB_EXTRA player of unknown parting with a difference at least as large; (key, player, tournament)."""
    ctx = sweep.ctx
    vague = []
    for pk in sweep.open_:
        for e in ctx.candidates[pk]:
            tid = e.tournament or 0
            if any(
                ctx.cause.get(q) == Cause.DSB_EXTRA and q not in ctx.parted and ctx.size[q] >= ctx.size[pk]
                for q in ctx.participants[tid]
            ):
                vague.append((e.key, pk, tid))
                break
    vague.sort(reverse=True)
    return vague


def _drop_settled(stack: list, open_: set[int]) -> None:
    """Pops the settled players (each entry's second item) off the top of a last-resort stack."""
    while stack and stack[-1][1] not in open_:
        stack.pop()


def _label(ref: TournamentRef) -> str:
    return f"„{ref.name}“ ({ref.end_date.strftime('%d.%m.%Y')})"


def _value(dwz: int | None, index: int) -> str:
    return f"{dwz}-{index}" if dwz is not None else "–"


def _message(cause, p, ours, named, evidence, agreed, refs) -> str:
    values = _("DSB %(official)s, dwzsite %(ours)s (bis %(date)s)") % {
        "official": _value(p.dwz, p.index),
        "ours": _value(*ours),
        "date": p.end.strftime("%d.%m.%Y"),
    }
    if cause == Cause.OURS_EXTRA:
        count = ours[1] - p.index
        if named:
            text = _("vom DSB vermutlich nicht ausgewertet: %(tournaments)s") % {
                "tournaments": ", ".join(_label(t) for t in named)
            }
        else:
            text = ngettext(
                "hier %(count)d Auswertung mehr als beim DSB",
                "hier %(count)d Auswertungen mehr als beim DSB",
                count,
            ) % {"count": count}
    elif cause == Cause.DSB_EXTRA:
        count = p.index - ours[1]
        until = (
            _("KW %(week)s") % {"week": _week_label(p.week)}
            if week_end(p.week)
            else p.end.strftime("%d.%m.%Y")
        )
        after = refs.get(agreed.tournament) if agreed is not None else None
        if after is not None:
            text = ngettext(
                "der DSB hat %(count)d Auswertung mehr: vermutlich ein Turnier nach %(after)s "
                "(bis %(until)s), das hier fehlt",
                "der DSB hat %(count)d Auswertungen mehr: vermutlich Turniere nach %(after)s "
                "(bis %(until)s), die hier fehlen",
                count,
            ) % {"count": count, "after": _label(after), "until": until}
        else:
            text = ngettext(
                "der DSB hat %(count)d Auswertung mehr: ein Turnier bis %(until)s, das hier fehlt",
                "der DSB hat %(count)d Auswertungen mehr: Turniere bis %(until)s, die hier fehlen",
                count,
            ) % {"count": count, "until": until}
    elif named:
        text = _("gleicher Index, andere DWZ: die Auswertungen trennen sich vermutlich ab %(tournament)s") % {
            "tournament": _label(named[0])
        }
        if evidence == Evidence.SPREAD:
            text += _(" (dort spielte er gegen Spieler, deren DWZ schon abwich)")
        else:
            text += _(" (dort weicht vermutlich eine Partie oder seine Auswertung ab)")
    else:
        text = _("gleicher Index, andere DWZ: vermutlich weicht eine Wertungsänderung oder der Startwert ab")
    return f"{values}: {text}"


def _in_area(organisation: Organisation | None, club: Club | None) -> set[int] | None:
    if club is not None:
        return set(Player.objects.in_club(club).values_list("pk", flat=True))
    if organisation is not None:
        return set(Player.objects.in_organisation(organisation).values_list("pk", flat=True))
    return None


_CAUSE_ORDER = {Cause.OURS_EXTRA: 0, Cause.DSB_EXTRA: 1, Cause.CHAIN_PARTS: 2}


def compare_official(
    *,
    as_of: datetime.date | None = None,
    list_import: ListImport | None = None,
    organisation: Organisation | None = None,
    club: Club | None = None,
) -> Comparison:
    """Every listed player whose official DWZ-Index differs from ours as of his week, with its likely
    cause (module docstring); for the players of ``club`` or of ``organisation`` and below (current
    members), else all. The list: ``list_import``'s date, else ``as_of``, else the newest. At most
    ``QUERIES`` queries."""
    analysis = _analyse(_list_date(as_of, list_import))
    area = _in_area(organisation, club)
    chosen = [d for pk, d in analysis.differences.items() if area is None or pk in area]
    chosen.sort(key=lambda d: (_CAUSE_ORDER[d.cause], d.player.sort, d.player.id))
    compared = len(analysis.players) if area is None else len(area & analysis.players.keys())
    return Comparison(as_of=analysis.as_of, compared=compared, differences=tuple(chosen))


def _implicates(difference: Difference, key: OrderKey) -> bool | None:
    """Whether the difference reaches the tournament at ``key`` (one of his, in his window); None: unknown
    (a DSB_EXTRA without a known point, a start value or adjustment)."""
    if difference.parted_after is None:
        return None
    if difference.cause == Cause.DSB_EXTRA:  # his chain differs after his last agreement
        return key > difference.parted_after
    return key >= difference.parted_after  # his named tournament and every later one


def tournament_agreement(
    *,
    tournaments: Iterable[Tournament | int],
    as_of: datetime.date | None = None,
    list_import: ListImport | None = None,
) -> dict[int, TournamentVerdict]:
    """Each tournament's verdict against the list (module docstring): bestätigt, abweichend with the
    differences that implicate it, or offen. ``QUERIES`` + 1 queries at most."""
    ids = sorted({t if isinstance(t, int) else t.pk for t in tournaments})
    analysis = _analyse(_list_date(as_of, list_import))
    rated: dict[int, list[tuple[int, OrderKey]]] = defaultdict(list)
    for tid, pk, end, suffix in (
        Evaluation.objects.filter(tournament_id__in=ids)
        .setting_rating()
        .values_list("tournament_id", "player_id", "end_date", "code_suffix")
    ):
        rated[tid].append((pk, _tournament_key(end, suffix, tid)))
    verdicts = {}
    for tid in ids:
        found: list[Difference] = []
        unclear: list[Difference] = []
        covered, pending = 0, False
        for pk, key in rated.get(tid, []):
            p = analysis.players.get(pk)
            if p is None:
                continue
            if not p.in_window(key):
                pending = True
                continue
            covered += 1
            d = analysis.differences.get(pk)
            reaches = None if d is None else _implicates(d, key)
            if reaches:
                found.append(d)  # type: ignore[arg-type]
            elif reaches is None and d is not None:
                unclear.append(d)
        if found:
            state = Agreement.DIFFERS
        elif unclear:
            state, found = Agreement.UNCLEAR, unclear
        elif pending or not covered:
            state = Agreement.PENDING
        else:
            state = Agreement.CONFIRMED
        verdicts[tid] = TournamentVerdict(tid, state, tuple(found))
    return verdicts
