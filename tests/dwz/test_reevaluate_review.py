"""Adversarial review of ``reevaluate`` (brief "review", 2026-12-01).

The counterexample found against ddf2297: an Ausnahmespieler whose R0 lies so far below ``search.LOW``
that R0 minus an opponent's entry rating leaves the packed table (below -10,600). In pass 2 his entry
rating is his performance, inside the tables, so ``evaluate._performances`` took every rating to be inside
and read the table through a negative index (p = 1000 per game). ``evaluate`` computes him again in pass 2
only if an opponent's entry rating changed, ``reevaluate`` whenever he is named, so the two disagreed.
Fixed in 5534972 (R0 is checked per player); the smallest case stays here as a regression test.

The targeted property test (ratings inside the tables) found no counterexample in about 1.4 million
corrections; it fails within its first seeds for each of five sabotages of ``reevaluate.py``: no
``sources |= zus``, no previous-Ausnahmespieler loop, no opponents of ``differ`` in ``redo``, no
``_first_ratings(f, final)``, no fallback for a changed player who is not rated.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import random

import pytest

from ratings.dwz import GameInput, PlayerInput, RestpartieValue, TournamentInput, evaluate
from ratings.dwz.reevaluate import reevaluate
from ratings.dwz.replay import normalise
from tests.conftest import examples

D = datetime.date


def _far_below() -> TournamentInput:
    """A (R0 -8601) loses five games to B (2000): performance 1609 > R0 + 300, an Ausnahmespieler.
    -8601 - 2000 = -10,601 lies one step outside the packed table."""
    players = (PlayerInput("A", None, -8601, 0), PlayerInput("B", None, 2000, 0))
    return TournamentInput(D(2020, 1, 1), players, tuple(GameInput("B", "A", "1-0") for _ in range(5)))


def test_reevaluate_an_ausnahmespieler_far_below_the_tables():
    """The counterexample against ddf2297 (fixed by 5534972): evaluate does not compute A again in pass 2
    (B's entry rating did not change), reevaluate does (A is named): both must take We from the
    definition, 0 (before the fix reevaluate read a wrapped table index: We 5.000, Rn -8627)."""
    t = _far_below()
    expected = evaluate(t)
    assert expected.players[0].expected == 0 and expected.players[0].entry_rating == 1609
    assert reevaluate(t, expected, ["A"]) == expected


# ---------------------------------------------------------------------------------------------- property

_END_DATES = [D(2016, 7, 31), D(2016, 8, 1), D(2020, 5, 5), D(2026, 6, 7), D(2026, 6, 8), D(2027, 3, 3)]


def _tournament(rnd: random.Random) -> TournamentInput:
    """A small field, many Ausnahmespieler candidates (a third play 300-1000 above their rating), FIDE
    take-overs, unrated players with Restpartien (Zusatzstufe 1 and 2), non-members, forfeits, repeated
    pairings, both editions and the Ausnahmespieler start date."""
    end = rnd.choice(_END_DATES)
    m = rnd.randint(3, 12)
    players, strength = [], []
    for i in range(m):
        kind = rnd.randint(0, 9)
        birth = rnd.choice([None, end.year - 12, end.year - 22, end.year - 40])
        base = rnd.randint(700, 2300)
        if kind <= 5:
            p = PlayerInput(f"P{i}", birth, base, rnd.choice([None, 0, 1, 3, 8, 40]))
        elif kind == 6:
            p = PlayerInput(f"P{i}", birth, None, None, base)
        else:
            rps = tuple(
                RestpartieValue(
                    rnd.randint(800, 2200),
                    rnd.choice([0, 500, 1000]),
                    end - datetime.timedelta(days=rnd.randint(0, 700)),
                )
                for _ in range(rnd.randint(0, 3))
            )
            p = PlayerInput(f"P{i}", birth, None, None, None, rps)
        if rnd.random() < 0.1:
            p = dataclasses.replace(p, member=False)
        players.append(p)
        strength.append(base + (rnd.randint(300, 1000) if rnd.random() < 0.35 else rnd.randint(-200, 200)))
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    shape = rnd.randint(0, 2)
    if shape == 0:
        chosen = pairs
    elif shape == 1:
        chosen = [pair for pair in pairs if rnd.random() < 0.6]
    else:
        chosen = [rnd.choice(pairs) for _ in range(rnd.randint(1, 3 * m))]
    games = []
    for a, b in chosen:
        if rnd.random() < 0.5:
            a, b = b, a
        if rnd.random() < 0.05:
            result = rnd.choice(["+-", "-+", "--"])
        else:
            e, u = 0.5 * (1 + math.erf((strength[a] - strength[b]) / 400)), rnd.random()
            result = "1-0" if u < e - 0.1 else "1/2-1/2" if u < e + 0.1 else "0-1"
        games.append(GameInput(f"P{a}", f"P{b}", result))
    return TournamentInput(end, tuple(players), tuple(games))


def _correction(
    rnd: random.Random, t: TournamentInput, result: tuple
) -> tuple[TournamentInput, list[str]] | None:
    """Some rated players changed: index / birth year only, a DWZ moved to just around (his own or someone
    else's performance) - 300, by one point, or by a jump; a FIDE Elo moved, or a DWZ for a take-over;
    sometimes an unrated player's Restpartien too."""
    players = list(t.players)
    rated = [i for i, p in enumerate(players) if p.dwz is not None or p.fide_elo is not None]
    if not rated:
        return None
    perfs = [r.performance for r in result if r.performance is not None and r.dwz_old is not None]
    changed = []
    for i in rnd.sample(rated, min(len(rated), rnd.choice([1, 1, 2, 3]))):
        p, old = players[i], result[i]
        changed.append(p.id)
        kind = rnd.randint(0, 7)
        if kind == 0:
            index = rnd.choice([None, 0, 2, 9])
            players[i] = dataclasses.replace(
                p, index=index, birth_year=rnd.choice([None, t.end_date.year - 15])
            )
            continue
        rating = p.dwz if p.dwz is not None else p.fide_elo
        assert rating is not None
        if kind in (1, 2) and old.performance is not None:
            new = old.performance - 300 + rnd.choice([-1, 0, 1, 2])
        elif kind == 3 and perfs:
            new = rnd.choice(perfs) - 300 + rnd.choice([-1, 0, 1])
        elif kind == 4:
            new = rating + rnd.choice([-1, 1])
        else:
            new = max(0, rating + rnd.randint(-600, 600))
        if p.dwz is None:
            take = rnd.random() < 0.7
            players[i] = (
                dataclasses.replace(p, fide_elo=new) if take else dataclasses.replace(p, dwz=new, index=0)
            )
        elif rnd.random() < 0.1:
            players[i] = dataclasses.replace(p, dwz=None, index=None, fide_elo=new)
        else:
            players[i] = dataclasses.replace(p, dwz=new)
    unrated = [i for i, p in enumerate(players) if i not in rated]
    if unrated and rnd.random() < 0.2:  # an unrated player's Restpartien: Auswahl I / II may change
        i = rnd.choice(unrated)
        rps = players[i].restpartien[: rnd.randint(0, len(players[i].restpartien))]
        if rnd.random() < 0.5:
            rps += (RestpartieValue(rnd.randint(800, 2200), rnd.choice([0, 500, 1000]), t.end_date),)
        players[i] = dataclasses.replace(players[i], restpartien=rps)
        changed.append(players[i].id)
    return dataclasses.replace(t, players=tuple(players)), changed


@pytest.mark.parametrize("block", range(4))
def test_reevaluate_is_evaluate_for_targeted_corrections(block):
    """Chains of three corrections per tournament, each reevaluated from the previous reevaluation (as
    stored: sometimes with non-members' Restpartien dropped)."""
    per_block = examples(600)
    for seed in range(block * per_block, (block + 1) * per_block):
        rnd = random.Random(seed)
        t = _tournament(rnd)
        previous = evaluate(t)
        for _ in range(3):
            if rnd.random() < 0.3:
                previous = normalise(previous, lambda _pid, rnd=rnd: rnd.random() < 0.5)
            corrected = _correction(rnd, t, previous.players)
            if corrected is None:
                break
            t, changed = corrected
            got = reevaluate(t, previous, changed)
            assert got == evaluate(t), (seed, changed)
            previous = got
