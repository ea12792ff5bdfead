"""Evaluation of one tournament (spec §8): ``evaluate`` is the engine's only entry point for ratings.

The steps follow §8: read and check the input (``_Field``: everything that does not depend on ratings:
R0, played and counted games, valid Restpartien, Zusatzstufen), first ratings with every rated player at
R0 (pass 1), performances, the Ausnahmespieler test and, if needed, pass 2; then one result per player in
input order. Players are addressed by their position in ``TournamentInput.players``.

The rules themselves live in ``development`` (E, K, Rn), ``first_rating`` (Restpartien, Zusatzstufen,
start values, iteration, mapping), ``performance`` (level, performance) and ``search`` (§7.1). This module
only orders the steps and keeps what one step hands to the next; it caches the few values that repeat a
lot (E / K by R0 and class, first-rating mappings).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from operator import attrgetter

from .development import (
    AgeClass,
    age_class,
    classic_e,
    wo2026_k,
)
from .editions import Edition, WeRounding, edition_for
from .expectation import expected_sum, unrounded_expected_sum
from .first_rating import IterationPlayer, iterate, map_first_rating, qualifies, restpartie_valid, start_value
from .performance import level
from .rounding import rhu_div
from .search import (
    F_MASK,
    F_SHIFT,
    HIGH,
    LOW,
    MAX_N,
    OFFSET,
    PACKED,
    solve,
    solve_in_range,
    unrounded_at,
)
from .types import (
    RESULT_CODES,
    WHITE_SCORE,
    PlayerInput,
    PlayerResult,
    RestpartieValue,
    Status,
    TournamentInput,
    TournamentResult,
    UnsupportedInput,
)

_RATED, _FIRST, _NOT_RATED = Status.RATED.value, Status.FIRST.value, Status.NOT_RATED.value
_NON_MEMBER = Status.NON_MEMBER.value
_SCORES = frozenset({0, 500, 1000})


def evaluate(tournament: TournamentInput) -> TournamentResult:
    """Evaluate one tournament under the edition of its end date (spec §8). Pure: no I/O, no Django.

    Raises ``UnsupportedInput`` (a ValueError) for input the JSON contract (spec §13) rejects and the rules
    cannot evaluate: ratings, indexes or birth years that are not integers, a negative index, unknown or
    duplicate player ids, a player against himself, unknown result codes, Restpartie scores other than
    0 / 500 / 1000.
    """
    return _evaluate(_Field(tournament, edition_for(tournament.end_date)))


def _evaluate(f: _Field) -> TournamentResult:
    state = _entry_ratings(f)
    results = _rated_results(f, state, f.r0)
    return _result(f, state, results)


def _result(f: _Field, state: _State, results: dict[int, PlayerResult]) -> TournamentResult:
    """The unrated players' results added to the rated ones', in input order, a non-member's made one (that
    step is idempotent: a stored non-member's result may come in as it is)."""
    for i in f.unrated:
        results[i] = _first_result(f, state, i) if i in state.values else _not_rated_result(f, state, i)
    players = f.t.players
    return TournamentResult(
        edition=f.edition.name.value,
        players=tuple(results[i] if players[i].member else _non_member(results[i]) for i in range(f.m)),
    )


def _non_member(result: PlayerResult) -> PlayerResult:
    """WO 3.4.3 / 4.1.2: a player who is not a member of a DSB club takes part in the calculation with his
    rating (or as an unrated player, possibly with a first rating his opponents meet), but no DWZ and no
    Restpartien are given to him. What he entered with stays visible: R0, entry rating, n, W, We, level,
    performance."""
    return replace(result, status=_NON_MEMBER, coefficient=None, dwz_new=None, index_new=None, restpartien=())


# ---------------------------------------------------------------------------------------------- input


def _is_int(value: object) -> bool:
    return type(value) is int


def _rating(value: object, what: str) -> int:
    # Any integer: the JSON contract admits 0-3000 (spec §13), but the engine's own results (a first
    # rating, an Rn) can leave that range and must be accepted as the next tournament's input.
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise UnsupportedInput(f"{what}: not an integer: {value!r}")


_game_fields = attrgetter("white", "black", "result")
# White's score in thousandths of every valid result code; -1 for a forfeit (never counted).
_GAME_SCORE = {str(result): WHITE_SCORE.get(result, -1) for result in RESULT_CODES}


def _bad_game(k: int, white: int | None, black: int | None, result: str) -> str:
    if white is None or black is None:
        return f"games[{k}]: unknown player id"
    if white == black:
        return f"games[{k}]: a player against himself"
    return f"games[{k}].result: unknown result {result!r}"


class _Field:
    """Everything about the tournament that does not depend on ratings (spec §3, §6.1-6.3)."""

    def __init__(self, t: TournamentInput, edition: Edition) -> None:
        self.t = t
        self.edition = edition
        self.common = edition.common
        self.m = len(t.players)
        self.r0: dict[int, int] = {}  # the start values of the rated players
        self.takeover = [False] * self.m
        self._read_players(t.players)
        self.rated = [i in self.r0 for i in range(self.m)]
        self.unrated = [i for i in range(self.m) if not self.rated[i]]
        self.opps: list[list[int]] = [[] for _ in range(self.m)]
        self.scores: list[list[int]] = [[] for _ in range(self.m)]
        self._read_games()
        self.rps: dict[int, list[RestpartieValue]] = {}
        self.stage1: list[int] = []
        self.stage2: list[int] = []
        self.auswahl1 = self.rated[:]
        self._select()
        self.zus = self.stage1 + self.stage2
        self.c_opps, self.c_w = self._counted()

    def _read_players(self, players: tuple[PlayerInput, ...]) -> None:
        """R0: the DWZ, else the FIDE Elo (take-over); a DWZ always wins (spec §2)."""
        self.pos: dict[str, int] = {}
        pos, r0 = self.pos, self.r0
        for i, p in enumerate(players):
            if p.id in pos:
                raise UnsupportedInput(f"players[{i}].id: duplicate id {p.id!r}")
            pos[p.id] = i
            if p.birth_year is not None and type(p.birth_year) is not int:
                raise UnsupportedInput(f"players[{i}].birth_year: not an integer: {p.birth_year!r}")
            if p.dwz is not None:
                # The messages are only formatted for bad input: this runs for every player.
                r0[i] = p.dwz if type(p.dwz) is int else _rating(p.dwz, f"players[{i}].dwz")
                if p.index is not None and (type(p.index) is not int or p.index < 0):
                    raise UnsupportedInput(f"players[{i}].index: not a non-negative integer: {p.index!r}")
            elif p.fide_elo is not None:
                r0[i] = _rating(p.fide_elo, f"players[{i}].fide_elo")
                self.takeover[i] = True

    def _read_games(self) -> None:
        """Played games per player in input game order; forfeits never count for anybody (spec §3)."""
        pos, opps, scores = self.pos, self.opps, self.scores
        try:
            for g in self.t.games:
                white, black, s = pos[g.white], pos[g.black], _GAME_SCORE[g.result]
                if s >= 0 and white != black:
                    opps[white].append(black)
                    scores[white].append(s)
                    opps[black].append(white)
                    scores[black].append(1000 - s)
                elif white == black:
                    raise KeyError(g.white)
        except KeyError:
            pass
        else:
            return
        # A bad game: name the first one in input order.
        for k, (white_id, black_id, result) in enumerate(map(_game_fields, self.t.games)):
            w, b = pos.get(white_id), pos.get(black_id)
            if w is None or b is None or w == b or result not in RESULT_CODES:
                raise UnsupportedInput(_bad_game(k, w, b, result))
        raise AssertionError("unreachable: a game failed the fast check but passes the full one")

    def _select(self) -> None:
        """Valid Restpartien of unrated players (§6.1), Zusatzstufe 1 and 2 (§6.2, §6.3)."""
        end, years = self.t.end_date, self.common.restpartien_years
        unrated = self.unrated
        for i in unrated:
            valid = []
            for k, rp in enumerate(self.t.players[i].restpartien):
                what = f"players[{i}].restpartien[{k}]"
                _rating(rp.opponent_rating, f"{what}.opponent_rating")
                if not _is_int(rp.score) or rp.score not in _SCORES:
                    raise UnsupportedInput(f"{what}.score: not 0, 500 or 1000 thousandths: {rp.score!r}")
                if restpartie_valid(rp, end, years):
                    valid.append(rp)
            self.rps[i] = valid
        self.stage1 = [i for i in unrated if self._qualifies(i, self.rated)]
        for i in self.stage1:
            self.auswahl1[i] = True
        self.stage2 = [i for i in unrated if not self.auswahl1[i] and self._qualifies(i, self.auswahl1)]

    def _qualifies(self, i: int, pool: list[bool]) -> bool:
        games = [s for o, s in zip(self.opps[i], self.scores[i], strict=True) if pool[o]]
        return qualifies(games + [rp.score for rp in self.rps[i]], len(games), self.common)

    def _counted(self) -> tuple[list[list[int]], list[int]]:
        """Counted games: played, both players in Auswahl II (spec §3); opponents and W per player."""
        in2 = self.auswahl1[:]
        for i in self.stage2:
            in2[i] = True
        if all(in2):
            return self.opps, [sum(s) for s in self.scores]
        outside = {i for i in range(self.m) if not in2[i]}
        c_opps: list[list[int]] = []
        c_w: list[int] = []
        for i in range(self.m):
            if not in2[i]:
                c_opps.append([])
                c_w.append(0)
            elif outside.isdisjoint(self.opps[i]):
                c_opps.append(self.opps[i])
                c_w.append(sum(self.scores[i]))
            else:
                games = [(o, s) for o, s in zip(self.opps[i], self.scores[i], strict=True) if in2[o]]
                c_opps.append([o for o, _ in games])
                c_w.append(sum(s for _, s in games))
        return c_opps, c_w

    def rp_points(self, i: int) -> int:
        return sum(rp.score for rp in self.rps[i])


# ---------------------------------------------------------------------------------------------- passes


@dataclass(slots=True)
class _State:
    """Entry ratings (spec §3) and what the passes computed with them."""

    entry: dict[int, int]  # Auswahl II players (rated, and Zusatzstufe players once they have one)
    values: dict[int, int] = field(default_factory=dict)  # R_i of the Zusatzstufe players
    used: dict[int, int] = field(default_factory=dict)  # the values the last round used
    first: dict[int, int] = field(default_factory=dict)  # first ratings
    perf: dict[int, int] = field(default_factory=dict)  # performances of rated players with n >= 5
    # The packed sums (search.packed_sum) at R0 of the rated players with games: We and the search's start.
    at_r0: dict[int, int] = field(default_factory=dict)
    ratings: dict[int, list[int]] = field(default_factory=dict)  # opponents' entry ratings (rated, n > 0)


def _entry_ratings(f: _Field) -> _State:
    """Pass 1, the Ausnahmespieler test and pass 2 (spec §7.4, §8 steps 5-6)."""
    state = _State(entry=dict(f.r0))
    if f.zus:
        _first_ratings(f, state)
    counted = [i for i in range(f.m) if f.rated[i] and f.c_opps[i]]
    _performances(f, state, counted)
    if not state.perf or f.t.end_date < f.common.ausnahme_from:
        return state
    margin = f.common.ausnahme_margin
    ausnahme = [i for i, perf in state.perf.items() if perf > f.r0[i] + margin]
    if not ausnahme:
        return state
    # One test only; then everything that can change is computed again from the new entry ratings.
    second = _State(entry=dict(f.r0), values=state.values, used=state.used, first=state.first)
    for i in ausnahme:
        second.entry[i] = state.perf[i]
    if f.zus and any(o in ausnahme for i in f.zus for o in f.c_opps[i]):
        _first_ratings(f, second)
    for i, rating in second.first.items():
        second.entry[i] = rating
    # Counted games are symmetric: the players to redo are the opponents of those whose entry changed.
    redo = {o for j, rating in second.entry.items() if state.entry[j] != rating for o in f.c_opps[j]}
    _performances(f, second, [i for i in counted if i in redo], hints=state.perf)
    for i in counted:
        if i not in redo:
            second.ratings[i] = state.ratings[i]
            if i in state.perf:
                second.perf[i] = state.perf[i]
            if i in state.at_r0:
                second.at_r0[i] = state.at_r0[i]
    return second


def _first_ratings(f: _Field, state: _State) -> None:
    """Start values, Jacobi iteration and mapping from scratch with the rated players at ``state.entry``
    (spec §6.4-6.7); the first ratings become the players' entry ratings."""
    entry = state.entry
    start: dict[int, int] = {}
    for stage, pool in ((f.stage1, f.rated), (f.stage2, f.auswahl1)):
        for i in stage:
            # Zusatzstufe-1 opponents of a stage-2 player enter at their start values.
            games = [(o, s) for o, s in zip(f.opps[i], f.scores[i], strict=True) if pool[o]]
            ratings = [entry[o] if f.rated[o] else start[o] for o, _ in games]
            ratings += [rp.opponent_rating for rp in f.rps[i]]
            start[i] = start_value(ratings, sum(s for _, s in games) + f.rp_points(i))
    players = {}
    for i in start:
        fixed = [entry[o] for o in f.c_opps[i] if f.rated[o]]
        fixed += [rp.opponent_rating for rp in f.rps[i]]
        moving = tuple(o for o in f.c_opps[i] if not f.rated[o])
        players[i] = IterationPlayer(tuple(fixed), moving, f.c_w[i] + f.rp_points(i))
    state.values, state.used = iterate(players, start, f.common)
    state.first = {i: _map_first(v, f.edition) for i, v in state.values.items()}
    for i, rating in state.first.items():
        entry[i] = rating


def _performances(f: _Field, state: _State, players: list[int], hints: dict[int, int] | None = None) -> None:
    """For rated players with games: their opponents' entry ratings, the packed sum at R0 (We, and the start
    of the search) and, with n >= 5, the performance (spec §7.3).

    ``hints``: earlier performances near the answers (pass 2); without them the search starts at R0.
    """
    entry, c_opps, c_w, r0s = state.entry, f.c_opps, f.c_w, f.r0
    perf, at_r0, ratings = state.perf, state.at_r0, state.ratings
    if not players:
        return
    table, min_games = PACKED, f.common.min_games
    # Every entry rating in the table's range (always, for valid input): the opponents need no check per
    # player. R0 does: in pass 2 an Ausnahmespieler's entry rating is his performance, not his R0.
    inside = min(entry.values()) >= LOW and max(entry.values()) <= HIGH
    for i in players:
        opponents = [entry[o] for o in c_opps[i]]
        ratings[i] = opponents
        w, n, r0 = c_w[i], len(opponents), r0s[i]
        packed = None
        if n <= MAX_N and ((inside and LOW <= r0 <= HIGH) or _in_tables(r0, opponents)):
            # One pass at R0 gives We = f(R0) and the start of the search.
            r = r0 + OFFSET
            packed = 0
            for o in opponents:
                packed += table[r - o]
            at_r0[i] = packed
        if n < min_games:
            continue
        hint = None if hints is None else hints.get(i)
        if w == 0 or w == 1000 * n:
            # 0 % / 100 %: a fictitious draw against the level (spec §7.3).
            perf[i] = solve([*opponents, rhu_div(sum(opponents), n)], w + 500, hint)
        elif packed is None:
            perf[i] = solve(opponents, w, hint if hint is not None else r0)
        elif hint is None:
            perf[i] = solve_in_range(opponents, w, r0, packed)
        else:
            perf[i] = solve_in_range(opponents, w, hint)


def _in_tables(r0: int, opponents: list[int]) -> bool:
    return LOW <= r0 <= HIGH and min(opponents) >= LOW and max(opponents) <= HIGH


_FIRST_CACHE: dict[tuple[str, int], int] = {}


def _map_first(value: int, edition: Edition) -> int:
    key = (edition.name.value, value)
    got = _FIRST_CACHE.get(key)
    if got is None:
        got = _FIRST_CACHE[key] = map_first_rating(value, edition)
    return got


# ---------------------------------------------------------------------------------------------- results


def _rated_results(f: _Field, state: _State, rated: Iterable[int]) -> dict[int, PlayerResult]:
    """Spec §4, §5, §8 step 7 for the ``rated`` players (input positions): We, E or K, Rn, index + 1, level,
    performance; by input position. One loop: this runs for nearly every player."""
    out: dict[int, PlayerResult] = {}
    players, common, edition, c_w, takeover = f.t.players, f.common, f.edition, f.c_w, f.takeover
    ratings, at_r0, perf, entry, r0s = state.ratings, state.at_r0, state.perf, state.entry, f.r0
    year, exact = f.t.end_date.year, edition.we_rounding is WeRounding.SUM
    terms = _terms(edition)
    cache, low, high, stride, per_game, floor = (
        terms.cache, terms.low, terms.high, terms.high + 1, terms.per_game, terms.floor,
    )  # fmt: skip
    ages: dict[int | None, int] = {}  # age class codes by birth year
    for i in rated:
        r0, p = r0s[i], players[i]
        if takeover[i]:
            index_old, index_used, index_new = (
                common.takeover_index_shown, common.takeover_index_used, common.takeover_index_after,
            )  # fmt: skip
        else:
            index_old = p.index or 0
            index_used, index_new = index_old, index_old + 1
        opponents = ratings.get(i)
        if opponents is None:
            # Not evaluated: no coefficient, DWZ and index unchanged (spec §3).
            out[i] = PlayerResult(
                p.id, _RATED, r0, index_old, 0, 0, None, None, None, None, r0, index_old, (),
                takeover[i], r0,
            )  # fmt: skip
            continue
        n, points = len(opponents), c_w[i]
        packed = at_r0.get(i)
        if packed is None:  # ratings outside the tables: the definitions
            expected = unrounded_expected_sum(r0, opponents) if exact else expected_sum(r0, opponents)
        elif exact:
            got = unrounded_at(packed, n)
            expected = unrounded_expected_sum(r0, opponents) if got is None else got
        else:
            expected = (packed >> F_SHIFT) & F_MASK  # search.rounded_at, inline
        age = ages.get(birth := p.birth_year)
        if age is None:
            age = ages[birth] = _AGE_CODE[age_class(None if birth is None else year - birth, common)]
        # E / K depend on the index only through its capped value and on W and We only through W >= We
        # (clamp inline: two-argument min / max and even a call cost more than the rest here on 3.11).
        if index_used < low:
            index_used = low
        elif index_used > high:
            index_used = high
        key = ((r0 * stride + index_used) * 3 + age) * 2 + (points >= expected)
        term = cache.get(key)
        if term is None:
            term = cache[key] = terms.compute(r0, _AGES[age], index_used, points, expected)
        # Rn = rhu(R0 + mult (W - We) / den), half up as ``rounding.rhu_div`` (den > 0).
        den = term[2] + per_game * n
        num = r0 * den + term[1] * (points - expected)
        dwz_new = (2 * num + den) // (2 * den) if num >= 0 else -((den - 2 * num) // (2 * den))
        if floor is not None and dwz_new < floor:
            dwz_new = floor
        total = sum(opponents)  # the level: rhu(total / n), inline
        out[i] = PlayerResult(
            p.id, _RATED, r0, index_old, n, points, expected, term[0],
            (2 * total + n) // (2 * n) if total >= 0 else -((n - 2 * total) // (2 * n)),
            perf.get(i), dwz_new, index_new, (), takeover[i], entry[i],
        )  # fmt: skip
    return out


_AGES = (AgeClass.YOUTH, AgeClass.JUNIOR, AgeClass.ADULT)
_AGE_CODE = {age: code for code, age in enumerate(_AGES)}


class _Terms:
    """One edition's follow-up rating as integers: Rn = rhu(R0 + mult (W - We) / (add + per_game n)), then at
    least ``floor``. Classic (spec §4): mult = 800, add = 1000 E, per_game = 1000, no floor; wo2026 (spec §5):
    mult = K in tenths, add = 10,000, per_game = 0, floor 1100. ``development.classic_rating`` and
    ``wo2026_rating`` are the same formulas written out (tests/dwz/test_fast_path.py holds them equal).

    ``cache`` maps an integer key of (R0, age class, index capped to ``low..high``, W >= We) to (E or K as
    printed, mult, add): E / K depend on nothing else.
    """

    __slots__ = ("cache", "edition", "floor", "high", "low", "per_game")
    cache: dict[int, tuple[Decimal, int, int]]
    floor: int | None

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.cache = {}
        if edition.classic is not None:
            c = edition.classic
            # E depends on the index only through min(e_max, e_per_index * index).
            self.low, self.high = 0, -(-c.e_max // c.e_per_index)
            self.per_game, self.floor = 1000, None
        else:
            w = edition.wo2026
            assert w is not None
            self.low, self.high = 1, len(w.k0_a)
            self.per_game = 0
            self.floor = w.floor

    def compute(
        self, r0: int, age: AgeClass, index: int, points: int, expected: int
    ) -> tuple[Decimal, int, int]:
        edition = self.edition
        if edition.classic is not None:
            c = edition.classic
            e = classic_e(r0, age, index, points, expected, c)
            return Decimal(e), c.scale, 1000 * e
        w = edition.wo2026
        assert w is not None
        k = wo2026_k(r0, age, index, points, expected, w)
        return Decimal(k).scaleb(-w.k_decimals), k, 1000 * 10**w.k_decimals


# By edition name (an Enum's ``__hash__`` is a Python function; ``Enum.value`` a Python property).
_TERMS: dict[str, _Terms] = {}


def _terms(edition: Edition) -> _Terms:
    """The edition's follow-up terms and E / K cache, looked up once per tournament."""
    got = _TERMS.get(edition.name.value)
    if got is None or got.edition is not edition:
        got = _TERMS[edition.name.value] = _Terms(edition)
    return got


def _first_result(f: _Field, state: _State, i: int) -> PlayerResult:
    """Spec §6.9: n and W incl. Restpartien, We against the opponents of the last round, level from the
    tournament games, performance R_i."""
    rps = f.rps[i]
    # Opponents as in the last round of the iteration: rated at entry, Zusatzstufe players at the values
    # that round used, plus the Restpartien.
    last_round = [state.entry[o] if f.rated[o] else state.used[o] for o in f.c_opps[i]]
    last_round += [rp.opponent_rating for rp in rps]
    r_i, first = state.values[i], state.first[i]
    expected = expected_sum(r_i, last_round)
    return PlayerResult(
        f.t.players[i].id, _FIRST, None, None, len(last_round), f.c_w[i] + f.rp_points(i),
        expected, None, level([state.entry[o] for o in f.c_opps[i]]),
        r_i, first, f.common.first_rating_index, (), False, first,
    )  # fmt: skip


def _not_rated_result(f: _Field, state: _State, i: int) -> PlayerResult:
    """Spec §6.10: every played game against an Auswahl-I player becomes a Restpartie."""
    end = f.t.end_date
    handed = tuple(
        RestpartieValue(state.entry[o], s, end)
        for o, s in zip(f.opps[i], f.scores[i], strict=True)
        if f.auswahl1[o]
    )
    return PlayerResult(
        f.t.players[i].id, _NOT_RATED, None, None, 0, 0, None, None, None, None, None, None,
        handed, False, None,
    )  # fmt: skip
