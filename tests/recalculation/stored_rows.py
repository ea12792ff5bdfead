"""What the full-recalculation tests compare: the rows a recalculation derives, read back as plain tuples,
and a game whose result a test flips behind the services' back. Shared by ``test_full_differential`` and
``test_full_read_ahead`` (their histories cannot share a module: one is rolled back, the other committed)."""

from __future__ import annotations

from collections import defaultdict

from ratings.models import Evaluation, Game, Player, Restpartie

# The rows as the recalculation reads them back: every column but the primary key, a tournament's rows in
# primary-key order (the order a later load compares them in).
EVALUATION_COLUMNS = [f.attname for f in Evaluation._meta.concrete_fields if f.attname != "id"]
RESTPARTIE_COLUMNS = [f.attname for f in Restpartie._meta.concrete_fields if f.attname != "id"]


def derived() -> dict:
    """Everything a full recalculation writes (but the digests, which only ``reuse`` writes)."""
    evaluations: dict[int, list[tuple]] = defaultdict(list)
    for row in Evaluation.objects.order_by("tournament_id", "pk").values_list(*EVALUATION_COLUMNS):
        evaluations[row[EVALUATION_COLUMNS.index("tournament_id")]].append(row)
    restpartien = list(
        Restpartie.objects.order_by("tournament_id", "player_id", "seq", "pk").values_list(
            *RESTPARTIE_COLUMNS
        )
    )
    players = list(Player.objects.order_by("pk").values_list("pk", "dwz", "index", "last_evaluated"))
    return {"evaluations": dict(evaluations), "restpartien": restpartien, "players": players}


def played_game(tid: int) -> Game:
    return Game.objects.filter(tournament_id=tid, result__in=("1-0", "0-1")).order_by("pk").first()
