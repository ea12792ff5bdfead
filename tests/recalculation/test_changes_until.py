"""``recalculate_changes(..., until=...)``: the officer's own tournament at once, the chain after it later."""

import datetime
import random

import pytest
from django.db import transaction
from django.db.models import Q

from ratings.dwz.replay import day_start, tournament_order
from ratings.models import Evaluation, Game, Player, Tournament, TournamentEntry
from ratings.recalculation import Changes, lock_ratings, ratings_verify, recalculate, recalculate_changes
from tests.builders import random_history, save_tournament, snapshot

pytestmark = pytest.mark.django_db

FLIP = {"1-0": "0-1", "0-1": "1/2-1/2", "1/2-1/2": "1-0"}


def _history(seed):
    rng = random.Random(seed)
    _, plan = random_history(rng)
    plan.sort(key=lambda x: x[0])
    return [save_tournament(m, g, end=e, name=c)[0] for e, m, g, c in plan]


def _flip_results(tournament):
    for game in Game.objects.filter(tournament=tournament):
        game.result = FLIP[game.result]
        game.save(update_fields=["result"])


def _rows(snap, names):
    return [row for row in snap["evaluations"] if row[0] in names]


def _players(snap):
    keys = dict(Player.objects.values_list("key", "pk"))
    return {keys[key]: dwz for key, dwz, _index, _last in snap["players"]}


def _recalculate_until(tournament, until):
    with transaction.atomic():
        lock_ratings()
        since = day_start(tournament.end_date)
        return recalculate_changes(Changes(since=since, tournaments=[tournament.pk]), until=until)


@pytest.mark.parametrize("seed, position", [(4, 0), (11, 2), (23, 5)])
def test_until_evaluates_up_to_the_tournament_and_leaves_the_rest_stored(seed, position):
    tournaments = _history(seed)
    target = tournaments[position]
    before = snapshot()
    players_before = dict(Player.objects.values_list("pk", "dwz"))
    _flip_results(target)
    until = tournament_order(target.end_date, target.code, target.pk)
    report = _recalculate_until(target, until)
    partial = snapshot()

    up_to = {t.name for t in Tournament.objects.all() if tournament_order(t.end_date, t.code, t.pk) <= until}
    later = {t.name for t in Tournament.objects.all()} - up_to
    assert set(report.tournaments) <= {t.pk for t in tournaments if t.name in up_to}
    assert _rows(partial, later) == _rows(before, later)  # the rest of the chain is left to the background

    recalculate()  # the truth: a full replay
    full = snapshot()
    assert _rows(partial, up_to) == _rows(full, up_to)
    assert _rows(partial, up_to) != _rows(before, up_to)
    later_players = set(
        Evaluation.objects.filter(tournament__name__in=later).values_list("player_id", flat=True)
    )
    full_players = dict(Player.objects.values_list("pk", "dwz"))
    for pk, dwz in _players(partial).items():
        expected = players_before[pk] if pk in later_players else full_players[pk]
        assert dwz == expected, pk


def _move_later(tournament, tournaments):
    end = tournaments[-2].end_date + datetime.timedelta(days=1)
    Tournament.objects.filter(pk=tournament.pk).update(start_date=end, end_date=end)
    return end


def _drop_a_player(tournament, _tournaments):
    entry = TournamentEntry.objects.filter(tournament=tournament).order_by("start_rank").first()
    Game.objects.filter(tournament=tournament).filter(
        Q(white_id=entry.player_id) | Q(black_id=entry.player_id)
    ).delete()
    entry.delete()
    return tournament.end_date


def _flip(tournament, _tournaments):
    _flip_results(tournament)
    return tournament.end_date


def test_a_replay_from_the_change_on_with_stale_rows_finishes_the_chain():
    """Each kind of change on the same history, in a savepoint rolled back before the next."""
    tournaments = _history(31)
    target = tournaments[1]
    since = day_start(target.end_date)
    for change in (_flip, _move_later, _drop_a_player):
        savepoint = transaction.savepoint()
        new_end = change(target, tournaments)
        until = tournament_order(new_end, target.code, target.pk)
        with transaction.atomic():
            lock_ratings()
            recalculate_changes(Changes(since=since, tournaments=[target.pk]), until=until)
        assert ratings_verify() != [], change.__name__  # later tournaments still hold the old chain
        with transaction.atomic():
            lock_ratings()
            recalculate_changes(Changes(since=since, everything=True, stale_after=True))
        assert ratings_verify() == [], change.__name__
        finished = snapshot()
        recalculate()
        assert snapshot() == finished, change.__name__
        transaction.savepoint_rollback(savepoint)


def test_until_after_the_last_event_is_an_ordinary_recalculation():
    tournaments = _history(5)
    target = tournaments[0]
    _flip_results(target)
    last = tournaments[-1]
    _recalculate_until(target, tournament_order(last.end_date, last.code, last.pk + 10**6))
    assert ratings_verify() == []
