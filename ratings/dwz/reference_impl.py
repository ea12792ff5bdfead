"""Reference evaluation of one tournament (spec §8): statuses, first ratings, Ausnahmespieler, Rn.

This is the straightforward, per-player implementation the engine started with. ``evaluate`` (in
``evaluate.py``) runs the vectorised fast path of ``fast.py`` instead; this module stays as its oracle
(tests/dwz/test_fast_path.py asserts both agree field by field) and as the fallback for inputs outside the
fast path's range (ratings outside 0-3000, malformed games).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .development import age_class, classic_e, classic_rating, wo2026_k, wo2026_rating
from .editions import Edition, edition_for
from .expectation import expected_score
from .first_rating import IterationPlayer, iterate, map_first_rating, qualifies, restpartie_valid, start_value
from .performance import level, performance
from .types import (
    PLAYED_RESULTS,
    WHITE_SCORE,
    PlayerResult,
    Restpartie,
    Status,
    TournamentInput,
    TournamentResult,
)


@dataclass(frozen=True, slots=True)
class _Game:
    """A played game from one player's point of view."""

    opponent: int  # position of the opponent in the player list
    score: int  # thousandths


class _Tournament:
    """Everything about one tournament that does not depend on ratings: who is rated, who is in which
    Zusatzstufe, which games count. Positions are indices into ``TournamentInput.players``."""

    def __init__(self, t: TournamentInput, edition: Edition) -> None:
        common = edition.common
        self.edition = edition
        self.input = t
        players = t.players
        position = {p.id: i for i, p in enumerate(players)}
        m = len(players)
        # R0: the DWZ, else the FIDE Elo (take-over); a DWZ always wins (spec §2).
        self.r0: list[int | None] = [p.dwz if p.dwz is not None else p.fide_elo for p in players]
        self.takeover = [p.dwz is None and p.fide_elo is not None for p in players]
        # Games per player in input game order; forfeits never count for anything.
        self.games: list[list[_Game]] = [[] for _ in range(m)]
        for g in t.games:
            if g.result not in PLAYED_RESULTS:
                continue
            w, b = position[g.white], position[g.black]
            s = WHITE_SCORE[g.result]
            self.games[w].append(_Game(b, s))
            self.games[b].append(_Game(w, 1000 - s))
        rated = {i for i in range(m) if self.r0[i] is not None}
        self.restpartien: list[tuple[Restpartie, ...]] = [
            ()
            if i in rated
            else tuple(
                rp
                for rp in players[i].restpartien
                if restpartie_valid(rp, t.end_date, common.restpartien_years)
            )
            for i in range(m)
        ]

        def stage(pool: set[int], candidates: list[int]) -> list[int]:
            chosen = []
            for i in candidates:
                tournament = [g.score for g in self.games[i] if g.opponent in pool]
                scores = tournament + [rp.score for rp in self.restpartien[i]]
                if qualifies(scores, len(tournament), common):
                    chosen.append(i)
            return chosen

        unrated = [i for i in range(m) if i not in rated]
        self.stage1 = stage(rated, unrated)
        self.auswahl1 = rated | set(self.stage1)
        self.stage2 = stage(self.auswahl1, [i for i in unrated if i not in self.auswahl1])
        self.auswahl2 = self.auswahl1 | set(self.stage2)
        self.rated = rated
        # Counted games: played, both players in Auswahl II (spec §3).
        self.counted: list[list[_Game]] = [
            [g for g in self.games[i] if g.opponent in self.auswahl2] if i in self.auswahl2 else []
            for i in range(m)
        ]


def _first_ratings(
    tour: _Tournament, entry: list[int | None]
) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Start values and iteration from scratch with the rated players at ``entry``.

    Returns (R_i, the values the last round used, first ratings) keyed by player position.
    """
    common = tour.edition.common
    start: dict[int, int] = {}
    for pool, stage in ((tour.rated, tour.stage1), (tour.auswahl1, tour.stage2)):
        for i in stage:
            # Zusatzstufe-1 opponents of a stage-2 player enter at their start values.
            opponents = [
                entry[g.opponent] if g.opponent in tour.rated else start[g.opponent]
                for g in tour.games[i]
                if g.opponent in pool
            ]
            points = sum(g.score for g in tour.games[i] if g.opponent in pool)
            opponents += [rp.opponent_rating for rp in tour.restpartien[i]]
            points += sum(rp.score for rp in tour.restpartien[i])
            start[i] = start_value(opponents, points)  # type: ignore[arg-type]
    moving_players: dict[int, IterationPlayer] = {}
    for i in start:
        fixed = [entry[g.opponent] for g in tour.counted[i] if g.opponent in tour.rated]
        fixed += [rp.opponent_rating for rp in tour.restpartien[i]]
        moving = [g.opponent for g in tour.counted[i] if g.opponent not in tour.rated]
        points = sum(g.score for g in tour.counted[i]) + sum(rp.score for rp in tour.restpartien[i])
        moving_players[i] = IterationPlayer(tuple(fixed), tuple(moving), points)  # type: ignore[arg-type]
    values, used = iterate(moving_players, start, common)
    first = {i: map_first_rating(v, tour.edition) for i, v in values.items()}
    return values, used, first


def _performances(tour: _Tournament, entry: list[int | None]) -> dict[int, int | None]:
    """Performance of every rated player against the given entry ratings (spec §7.3)."""
    result: dict[int, int | None] = {}
    for i in tour.rated:
        opponents = [entry[g.opponent] for g in tour.counted[i]]
        result[i] = performance(opponents, sum(g.score for g in tour.counted[i]), tour.edition.common)  # type: ignore[arg-type]
    return result


def evaluate_reference(tournament: TournamentInput) -> TournamentResult:
    """Evaluate one tournament under the edition of its end date (spec §8), the straightforward way."""
    edition = edition_for(tournament.end_date)
    common = edition.common
    tour = _Tournament(tournament, edition)
    m = len(tournament.players)

    # Pass 1: everybody rated enters at R0.
    entry: list[int | None] = list(tour.r0)
    values, used, first = _first_ratings(tour, entry)
    for i, rating in first.items():
        entry[i] = rating
    perf = _performances(tour, entry)

    if tournament.end_date >= common.ausnahme_from:
        ausnahme = {
            i: rh
            for i, rh in perf.items()
            if rh is not None and rh > tour.r0[i] + common.ausnahme_margin  # type: ignore[operator]
        }
        if ausnahme:
            # One test only; then the first ratings again from scratch with the new entry ratings.
            entry = list(tour.r0)
            for i, rh in ausnahme.items():
                entry[i] = rh
            values, used, first = _first_ratings(tour, entry)
            for i, rating in first.items():
                entry[i] = rating
            perf = _performances(tour, entry)

    results: list[PlayerResult] = []
    for i in range(m):
        if i in tour.rated:
            results.append(_rated_result(tour, i, entry, perf[i]))
        elif i in values:
            results.append(_first_result(tour, i, entry, values, used, first))
        else:
            results.append(_not_rated_result(tour, i, entry))
    assert len(results) == m
    return TournamentResult(edition=edition.name.value, players=tuple(results))


def _rated_result(tour: _Tournament, i: int, entry: list[int | None], perf: int | None) -> PlayerResult:
    player = tour.input.players[i]
    common = tour.edition.common
    r0 = tour.r0[i]
    assert r0 is not None
    takeover = tour.takeover[i]
    index_old = common.takeover_index_shown if takeover else (player.index or 0)
    games = tour.counted[i]
    n = len(games)
    if n == 0:
        # Not evaluated: no coefficient, DWZ and index unchanged (spec §3).
        return PlayerResult(
            id=player.id,
            status=Status.RATED.value,
            dwz_old=r0,
            index_old=index_old,
            n=0,
            points=0,
            expected=None,
            coefficient=None,
            level=None,
            performance=None,
            dwz_new=r0,
            index_new=index_old,
            restpartien=(),
            fide_takeover=takeover,
            entry_rating=entry[i],
        )
    opponents = [entry[g.opponent] for g in games]
    points = sum(g.score for g in games)
    expected = sum(expected_score(r0 - o) for o in opponents)  # type: ignore[operator]
    age = None if player.birth_year is None else tour.input.end_date.year - player.birth_year
    cls = age_class(age, common)
    index_used = common.takeover_index_used if takeover else index_old
    coefficient: Decimal
    if tour.edition.classic is not None:
        e = classic_e(r0, cls, index_used, points, expected, tour.edition.classic)
        dwz_new = classic_rating(r0, e, n, points, expected, tour.edition.classic)
        coefficient = Decimal(e)
    else:
        params = tour.edition.wo2026
        assert params is not None
        k = wo2026_k(r0, cls, index_used, points, expected, params)
        dwz_new = wo2026_rating(r0, k, points, expected, params)
        coefficient = Decimal(k).scaleb(-params.k_decimals)
    return PlayerResult(
        id=player.id,
        status=Status.RATED.value,
        dwz_old=r0,
        index_old=index_old,
        n=n,
        points=points,
        expected=expected,
        coefficient=coefficient,
        level=level(opponents),
        performance=perf,  # type: ignore[arg-type]
        dwz_new=dwz_new,
        index_new=common.takeover_index_after if takeover else index_old + 1,
        restpartien=(),
        fide_takeover=takeover,
        entry_rating=entry[i],
    )


def _first_result(
    tour: _Tournament,
    i: int,
    entry: list[int | None],
    values: dict[int, int],
    used: dict[int, int],
    first: dict[int, int],
) -> PlayerResult:
    player = tour.input.players[i]
    games = tour.counted[i]
    rps = tour.restpartien[i]
    # Opponents as in the last round of the iteration: rated at entry, Zusatzstufe players at the values
    # that round used, plus the Restpartien (spec §6.9).
    last_round = [entry[g.opponent] if g.opponent in tour.rated else used[g.opponent] for g in games]
    last_round += [rp.opponent_rating for rp in rps]
    r_i = values[i]
    return PlayerResult(
        id=player.id,
        status=Status.FIRST.value,
        dwz_old=None,
        index_old=None,
        n=len(last_round),
        points=sum(g.score for g in games) + sum(rp.score for rp in rps),
        expected=sum(expected_score(r_i - o) for o in last_round),
        coefficient=None,  # type: ignore[operator]
        level=level([entry[g.opponent] for g in games]),  # type: ignore[misc]
        performance=r_i,
        dwz_new=first[i],
        index_new=tour.edition.common.first_rating_index,
        restpartien=(),
        entry_rating=first[i],
    )


def _not_rated_result(tour: _Tournament, i: int, entry: list[int | None]) -> PlayerResult:
    player = tour.input.players[i]
    end = tour.input.end_date
    handed_back = tuple(
        Restpartie(opponent_rating=entry[g.opponent], score=g.score, end_date=end)  # type: ignore[arg-type]
        for g in tour.games[i]
        if g.opponent in tour.auswahl1
    )
    return PlayerResult(
        id=player.id,
        status=Status.NOT_RATED.value,
        dwz_old=None,
        index_old=None,
        n=0,
        points=0,
        expected=None,
        coefficient=None,
        level=None,
        performance=None,
        dwz_new=None,
        index_new=None,
        restpartien=handed_back,
    )
