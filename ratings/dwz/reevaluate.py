"""Evaluating a tournament again after some of its players' inputs changed (the late chain of a correction):
``reevaluate`` gives exactly ``evaluate``'s result, computing only the players whose result can change.

Why a previous result can be kept. A rated player's result (spec §4, §5, §7) is a function of his own
input and of his counted opponents' *final entry ratings* (R0, a first rating, or an Ausnahmespieler's
pass-1 performance), the tournament's games being the same: We and the Niveau are sums and means over
them, the Leistung is the one answer of §7.1 for them (``search.solve`` returns ``solve_general``'s answer
whatever its hint, so pass 1 or pass 2 does not matter), E / K and Rn follow from those and his own input,
and his own entry rating is R0 or his pass-1 performance. So a player who did not change, whose own and
whose counted opponents' final entry ratings are all the previous ones (``entry_rating``), gets his
previous result.

The final entry ratings need the Ausnahmespieler test (§7.4) for every rated player, but not every
player's performance: a pass-1 performance depends only on the opponents' pass-1 entry ratings, and those
change only for the changed players (their R0) and, if a changed player meets a Zusatzstufe player, for
the first ratings (the iteration couples them all). Every other player's pass-1 performance is the
previous one, so he is an Ausnahmespieler exactly when he was (previous entry rating not his R0), with
that entry rating as his performance. First ratings and the unrated players' results are computed in full
(few players, and they feed the rest).

A changed player who is not rated in both evaluations can change who is in Auswahl I and II (spec §3,
§6.2), and so which games count for everybody: then everything is evaluated (``evaluate``).
"""

from __future__ import annotations

from collections.abc import Collection

from .editions import edition_for
from .evaluate import _evaluate, _Field, _first_ratings, _performances, _rated_results, _result, _State
from .types import TournamentInput, TournamentResult


def reevaluate(  # noqa: C901 -- existing; issue 27
    tournament: TournamentInput, previous: TournamentResult, changed: Collection[str]
) -> TournamentResult:
    """``evaluate(tournament)``, given ``previous``: the result (Restpartien of non-members dropped or not)
    of an evaluation of the same tournament (end date, players in this order, games) whose input differed
    from ``tournament`` at most in the inputs of the players ``changed`` (ids: DWZ, index, FIDE Elo, birth
    year, Restpartien). A player not named keeps his previous result where it cannot differ. A previous
    result of another edition (rows stored before the editions' dates changed) or of other players is
    evaluated again in full."""
    f = _Field(tournament, edition_for(tournament.end_date))
    rated, players = f.rated, tournament.players
    if previous.edition != f.edition.name.value or len(previous.players) != f.m:
        return _evaluate(f)
    previous_players = previous.players
    for i, old in enumerate(previous_players):
        # Rated (an R0, from a DWZ or a FIDE Elo) exactly where he was: Auswahl I and II are the same.
        if old.id != players[i].id or (old.dwz_old is not None) != rated[i]:
            return _evaluate(f)
        if rated[i] and old.entry_rating is None:  # stored before entry ratings were (migration 0004)
            return _evaluate(f)
    moved = [f.pos[pid] for pid in changed if pid in f.pos]
    if not all(rated[i] for i in moved):
        return _evaluate(f)
    c_opps = f.c_opps

    # Pass 1: first ratings in full, performances only where the opponents' entry ratings may differ.
    state = _State(entry=dict(f.r0))
    if f.zus:
        _first_ratings(f, state)
    sources = set(moved)
    zus = set(f.zus)
    if zus and any(o in zus for i in moved for o in f.opps[i]):
        sources |= zus
    pass1 = set(moved).union(*(c_opps[j] for j in sources))
    counted = [i for i in range(f.m) if rated[i] and c_opps[i]]
    _performances(f, state, [i for i in counted if i in pass1])

    # The Ausnahmespieler test (§7.4) and pass 2, as ``evaluate._entry_ratings`` runs them.
    ausnahme: dict[int, int] = {}  # position: pass-1 performance
    if f.t.end_date >= f.common.ausnahme_from:
        margin, r0 = f.common.ausnahme_margin, f.r0
        ausnahme = {i: perf for i, perf in state.perf.items() if perf > r0[i] + margin}
        for i in r0:
            old = previous_players[i]
            if i not in pass1 and old.entry_rating != old.dwz_old:
                ausnahme[i] = old.entry_rating  # type: ignore[assignment]  # rated: an entry rating
    final = state
    if ausnahme:
        final = _State(entry=dict(f.r0), values=state.values, used=state.used, first=state.first)
        final.entry.update(ausnahme)
        if f.zus and any(o in ausnahme for i in f.zus for o in c_opps[i]):
            _first_ratings(f, final)
        final.entry.update(final.first)

    # Rated players to compute: the changed ones, those whose own final entry rating differs from the
    # previous one, and their opponents.
    entry = final.entry
    differ = [i for i, rating in entry.items() if rating != previous_players[i].entry_rating]
    redo = set(moved).union(differ, *(c_opps[j] for j in differ))
    now = _State(entry=entry, values=final.values, used=final.used, first=final.first)
    _performances(f, now, [i for i in counted if i in redo])
    results = _rated_results(f, now, [i for i in f.r0 if i in redo])
    for i in f.r0:
        if i not in redo:
            results[i] = previous_players[i]
    return _result(f, now, results)
