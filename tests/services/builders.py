"""Helpers that build tournaments through the services, plus snapshots of the derived state."""

import datetime
import itertools
import random

from ratings.enums import AdjustmentKind
from ratings.models import Evaluation, Game, Player, RatingAdjustment, Restpartie, Tournament, TournamentEntry
from ratings.services import adjustment_save, tournament_save
from tests.factories import PlayerFactory

RESULTS = ("1-0", "0-1", "1/2-1/2")


def player(*, dwz=None, index=None, fide_elo=None, birth_year=1980, **kwargs) -> Player:
    p = PlayerFactory(birth_year=birth_year, **kwargs)
    if dwz is not None or fide_elo is not None:
        adjustment_save(
            adjustment=RatingAdjustment(
                player=p, kind=AdjustmentKind.START, dwz=dwz, index=index, fide_elo=fide_elo
            )
        )
        p.refresh_from_db()
    return p


def save_tournament(players, games, *, end, code=None, name=None, tournament=None, non_members=()):
    """``games``: (white, black, result) triples; rounds are assigned so nobody plays twice in a round.
    ``non_members``: players entered as not members of a DSB club (WO 3.4.3)."""
    t = tournament or Tournament(name=name or f"Turnier {end}", start_date=end, end_date=end, code=code)
    entries = [
        TournamentEntry(player=p, start_rank=i, member=p not in non_members)
        for i, p in enumerate(players, start=1)
    ]
    rows, busy = [], {}
    for white, black, result in games:
        rnd = 1
        while white.pk in busy.get(rnd, set()) or black.pk in busy.get(rnd, set()):
            rnd += 1
        busy.setdefault(rnd, set()).update({white.pk, black.pk})
        rows.append(Game(round=rnd, white=white, black=black, result=result))
    report = tournament_save(tournament=t, entries=entries, games=rows)
    return t, report


def round_robin(players, rng: random.Random):
    return [(a, b, rng.choice(RESULTS)) for a, b in itertools.combinations(players, 2)]


def snapshot():
    """Everything the recalculation derives, keyed by stable values (not pks of derived rows)."""
    evaluations = sorted(
        Evaluation.objects.values_list(
            "tournament__name",
            "player__key",
            "status",
            "dwz_old",
            "index_old",
            "n",
            "points",
            "expected",
            "coefficient",
            "level",
            "performance",
            "dwz_new",
            "index_new",
            "edition",
            "fide_takeover",
            "entry_rating",
        )
    )
    restpartien = sorted(
        Restpartie.objects.values_list(
            "tournament__name", "player__key", "seq", "opponent_rating", "score", "end_date"
        )
    )
    players = sorted(Player.objects.values_list("key", "dwz", "index", "last_evaluated"))
    return {"evaluations": evaluations, "restpartien": restpartien, "players": players}


def random_history(rng: random.Random, *, n_players=24, n_tournaments=10, start=datetime.date(2023, 1, 15)):
    """A small federation: some rated, some FIDE-only, some unrated members; round robins of 4–8."""
    from tests.factories import MembershipFactory

    pool = []
    for i in range(n_players):
        kind = i % 4
        if kind == 3:
            p = player(birth_year=rng.randint(1950, 2015))
            MembershipFactory(player=p)
        elif kind == 2 and i % 8 == 2:
            p = player(fide_elo=rng.randint(1500, 2200), birth_year=rng.randint(1950, 2010))
        else:
            p = player(
                dwz=rng.randint(700, 2300), index=rng.randint(0, 40), birth_year=rng.randint(1950, 2015)
            )
        pool.append(p)
    plan = []
    for j in range(n_tournaments):
        end = start + datetime.timedelta(days=rng.randint(0, 3 * 365))
        members = rng.sample(pool, rng.randint(4, 8))
        plan.append((end, members, round_robin(members, rng), f"T{j:02d}"))
    return pool, plan
