"""Issue 16: an incremental recalculation re-evaluates what the change reaches, and only that.

For random small federations and random changes (a late tournament, corrected results, a moved end date, a
deletion, a dated correction) the tournaments whose stored rows a full replay would change are all among
the ones the save re-evaluated, the stored data equals the full replay (``recalculate --verify`` clean), and
every re-evaluated tournament was reached: it changed, or a player of it had a different result earlier.
"""

import datetime
import random

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ratings.enums import AdjustmentKind
from ratings.models import Evaluation, RatingAdjustment, Tournament, TournamentEntry
from ratings.recalculation import _incremental as incremental
from ratings.recalculation import ratings_verify, recalculate
from ratings.services import adjustment_save, tournament_delete, tournament_save_head
from tests.builders import player, random_history, round_robin, save_tournament
from tests.conftest import examples

pytestmark = pytest.mark.django_db

FIELDS = ("player_id", "status", "dwz_old", "index_old", "n", "points", "dwz_new", "index_new", "end_date")


def stored_rows() -> dict[int, list[tuple]]:
    rows: dict[int, list[tuple]] = {}
    for tid, *values in Evaluation.objects.order_by("tournament_id", "player_id").values_list(
        "tournament_id", *FIELDS
    ):
        rows.setdefault(tid, []).append(tuple(values))
    return rows


def full_replay_rows() -> dict[int, list[tuple]]:
    savepoint = transaction.savepoint()
    try:
        recalculate()
        return stored_rows()
    finally:
        transaction.savepoint_rollback(savepoint)


def differing(before: dict, after: dict) -> set[int]:
    return {tid for tid in before.keys() | after.keys() if before.get(tid) != after.get(tid)}


KINDS = ("late", "results", "move", "delete", "correction")


def change(rng: random.Random, pool, tournaments: list[Tournament], kind: str) -> tuple[object, set[int]]:
    """One random change of ``kind`` through the services; returns its report and the tournaments it
    changed."""
    t = rng.choice(tournaments)
    if kind == "late":
        members = rng.sample(pool, rng.randint(3, 6))
        end = t.end_date - datetime.timedelta(days=rng.randint(0, 60))
        late, report = save_tournament(members, round_robin(members, rng), end=end, name="Nachtrag")
        return report, {late.pk}
    if kind == "results":
        members = [e.player for e in TournamentEntry.objects.filter(tournament=t).select_related("player")]
        _, report = save_tournament(members, round_robin(members, rng), end=t.end_date, tournament=t)
        return report, {t.pk}
    if kind == "move":
        t.end_date = t.start_date = t.end_date + datetime.timedelta(days=rng.choice([-90, -20, 20, 90]))
        return tournament_save_head(tournament=t), {t.pk}
    if kind == "delete":
        pk = t.pk  # the deletion clears it
        return tournament_delete(tournament=t), {pk}
    adjustment = RatingAdjustment(
        player=rng.choice(pool),
        kind=AdjustmentKind.CORRECTION,
        date=t.end_date,
        dwz=rng.randint(900, 2200),
        index=rng.randint(1, 30),
    )
    return adjustment_save(adjustment=adjustment), set()


@pytest.mark.parametrize("seed", range(examples(3)))
def test_a_change_reaches_every_tournament_a_full_replay_changes(seed):
    """Every kind of change on the same random history (building it is most of the cost), each in a
    savepoint rolled back before the next."""
    rng = random.Random(seed)
    pool, plan = random_history(rng, n_players=16, n_tournaments=12)
    pks = [save_tournament(m, g, end=end, name=name)[0].pk for end, m, g, name in plan]
    assert ratings_verify() == []
    before = stored_rows()
    for kind in KINDS:
        savepoint = transaction.savepoint()
        tournaments = list(Tournament.objects.filter(pk__in=pks).order_by("pk"))
        report, changed = change(rng, pool, tournaments, kind)
        assert_reached(before, report, changed)
        transaction.savepoint_rollback(savepoint)


@pytest.mark.parametrize("seed", range(examples(2)))
def test_the_reach_does_not_depend_on_whom_the_replay_tracks(seed, monkeypatch):
    """A clean player's input is read off his stored row and a player is tracked only when he turns dirty;
    the same changes give the same rows when every player met is tracked from the changed point on."""
    monkeypatch.setattr(incremental, "row_state", lambda row, stored, order: None)
    test_a_change_reaches_every_tournament_a_full_replay_changes(seed)


def assert_reached(before: dict[int, list[tuple]], report, changed: set[int]) -> None:
    after = stored_rows()
    assert after == full_replay_rows()
    assert ratings_verify() == []
    evaluated = set(report.tournaments)
    assert differing(before, after) - changed <= evaluated
    # Nothing beyond the reach: each re-evaluated tournament changed, or one of its players got a different
    # row in an earlier re-evaluated tournament (or lost one in the changed tournament).
    order = {pk: (end, pk) for pk, end in Tournament.objects.values_list("pk", "end_date")}
    moved_players = {row[0] for tid in differing(before, after) for row in before.get(tid, [])}
    moved_players |= {row[0] for tid in differing(before, after) for row in after.get(tid, [])}
    for tid in evaluated - changed:
        players = {row[0] for row in after.get(tid, [])}
        earlier = {
            row[0]
            for other in differing(before, after)
            if other != tid and other in order and order[other] <= order[tid]
            for row in after.get(other, []) + before.get(other, [])
        }
        assert players & (earlier | moved_players), f"tournament {tid} re-evaluated without a reason"


def test_a_late_tournament_of_players_without_later_games_reevaluates_only_itself():
    rng = random.Random(7)
    a, b, c, d = (player(dwz=1500 + 100 * i, index=5) for i in range(4))
    others = [player(dwz=1600, index=8) for _ in range(4)]
    for month in range(1, 7):
        save_tournament(others, round_robin(others, rng), end=datetime.date(2024, month, 10))
    group = [a, b, c, d]
    late, report = save_tournament(group, round_robin(group, rng), end=datetime.date(2024, 2, 1))
    assert report.tournaments == [late.pk]
    assert ratings_verify() == []


def late_insertion_queries(unrelated: int) -> int:
    rng = random.Random(3)
    group = [player(dwz=1500 + 50 * i, index=6) for i in range(5)]
    save_tournament(group, round_robin(group, rng), end=datetime.date(2024, 6, 1))
    for i in range(unrelated):
        others = [player(dwz=1400 + 30 * j, index=6) for j in range(4)]
        end = datetime.date(2024, 3, 1) + datetime.timedelta(i)
        save_tournament(others, round_robin(others, rng), end=end)
    with CaptureQueriesContext(connection) as queries:
        late, report = save_tournament(group[:4], round_robin(group[:4], rng), end=datetime.date(2024, 2, 1))
    assert set(report.tournaments) >= {late.pk}
    assert ratings_verify() == []
    return len(queries)


def test_a_late_insertion_costs_the_same_queries_however_much_unrelated_history_follows():
    savepoint = transaction.savepoint()
    few = late_insertion_queries(2)
    transaction.savepoint_rollback(savepoint)
    assert late_insertion_queries(12) == few


def test_rows_of_a_reevaluated_tournament_change_in_place():
    """A later tournament at its place with the same players keeps its stored rows: the rows that differ
    are overwritten (same ids), the others stay as they are; Restpartien follow their row."""
    rng = random.Random(11)
    rated = [player(dwz=1500 + 60 * i, index=7) for i in range(4)]
    newcomer = player()
    group = [*rated, newcomer]
    later = []
    for month in (3, 5, 7):
        t, _ = save_tournament(group, round_robin(group, rng), end=datetime.date(2024, month, 10))
        later.append(t.pk)
    ids_before = dict(Evaluation.objects.filter(tournament_id__in=later).values_list("pk", "player_id"))
    rows_before = stored_rows()
    late, report = save_tournament(rated[:2], round_robin(rated[:2], rng), end=datetime.date(2024, 1, 10))
    assert set(report.tournaments) >= {late.pk, later[0]}
    after = stored_rows()
    assert {tid for tid in later if after[tid] != rows_before[tid]}  # the chain changed later rows
    ids_after = dict(Evaluation.objects.filter(tournament_id__in=later).values_list("pk", "player_id"))
    assert ids_after == ids_before
    assert after == full_replay_rows()
    assert ratings_verify() == []


def test_a_reranked_tournament_is_rewritten_in_entry_order():
    """Same players in another order: the rows are written again in the new entry order (the stored order
    is the one a full recalculation compares), not overwritten in place."""
    rng = random.Random(12)
    group = [player(dwz=1500 + 70 * i, index=6) for i in range(4)]
    games = round_robin(group, rng)
    t, _ = save_tournament(group, games, end=datetime.date(2024, 4, 10))
    reranked = list(reversed(group))
    decided = [(white, black, "1-0") for white, black, _ in games]  # other results: other rows
    save_tournament(reranked, decided, end=t.end_date, tournament=t)
    stored = list(Evaluation.objects.filter(tournament=t).order_by("pk").values_list("player_id", flat=True))
    assert stored == [p.pk for p in reranked]
    assert ratings_verify() == []
