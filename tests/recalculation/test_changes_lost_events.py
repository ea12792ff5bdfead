"""Issue 26 §1: a player whose stored history loses an event is dirty from that event's old place on.

Two round robins of the same players end on the same day. Deleting the second one (or moving it, or dropping
a player from it) re-evaluates the first with the same inputs, so it gives every player his stored result
again; the tournament a week later must still be evaluated again, since its stored inputs counted the lost
one. Before the fix the players turned clean after the first tournament and the later one kept stale
``dwz_old`` values until a full recalculation.
"""

import datetime
import random

import pytest

from ratings.enums import AdjustmentKind
from ratings.models import (
    RatingAdjustment,
    RecalculationJob,
    RecalculationJobStatus,
    Tournament,
    TournamentEntry,
)
from ratings.recalculation import ratings_verify
from ratings.services import adjustment_save, tournament_delete, tournament_save_head
from tests.builders import player, round_robin, save_tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 3, 10)


@pytest.fixture
def same_day():
    """A and B (same players, same day, B second in the order), C a week later, D on another day."""
    rng = random.Random(1)
    four = [player(dwz=1500 + 100 * i, index=5) for i in range(4)]
    guests = [player(dwz=1600, index=5) for _ in range(2)]
    a, _ = save_tournament(four, round_robin(four, rng), end=DAY, name="A")
    b, _ = save_tournament(four, round_robin(four, rng), end=DAY, name="B")
    later = four[:2] + guests
    c, _ = save_tournament(later, round_robin(later, rng), end=DAY + datetime.timedelta(days=7), name="C")
    assert ratings_verify() == []
    return {"A": a, "B": b, "C": c, "players": four}


@pytest.mark.parametrize("name", ["A", "B"])
def test_deleting_one_of_two_tournaments_of_the_same_day(same_day, name):
    tournament_delete(tournament=same_day[name])
    assert ratings_verify() == []


def test_moving_the_second_tournament_of_the_day_away(same_day):
    b = Tournament.objects.get(pk=same_day["B"].pk)
    b.start_date = b.end_date = DAY + datetime.timedelta(days=20)
    tournament_save_head(tournament=b)
    assert ratings_verify() == []


def test_dropping_a_player_from_the_second_tournament_of_the_day(same_day):
    b = same_day["B"]
    dropped = same_day["players"][0]
    kept = [e.player for e in TournamentEntry.objects.filter(tournament=b).exclude(player=dropped)]
    save_tournament(kept, round_robin(kept, random.Random(2)), end=DAY, tournament=b)
    assert ratings_verify() == []


def test_an_adjustment_moved_before_a_tournament_that_gives_the_stored_result(same_day):
    """A correction dated after A and B moves before them. Its value equals the player's DWZ there, so A and
    B give him their stored results again; C's stored input still counts the correction at its old place."""
    p = same_day["players"][0]
    correction = RatingAdjustment(
        player=p, kind=AdjustmentKind.CORRECTION, date=DAY + datetime.timedelta(days=1), dwz=1500, index=5
    )
    adjustment_save(adjustment=correction)
    assert ratings_verify() == []
    correction.date = DAY - datetime.timedelta(days=1)
    adjustment_save(adjustment=correction)
    assert ratings_verify() == []


def test_a_moved_adjustment_whose_old_place_lies_after_the_request_part(
    same_day, settings, django_capture_on_commit_callbacks
):
    """The background threshold at 0: the request replays up to the correction's new place, the job the
    rest. The old place lies after that: the job must turn the player dirty there, not where it starts."""
    p = same_day["players"][0]
    correction = RatingAdjustment(
        player=p, kind=AdjustmentKind.CORRECTION, date=DAY + datetime.timedelta(days=1), dwz=1500, index=5
    )
    adjustment_save(adjustment=correction)
    settings.RECALCULATION_BACKGROUND_SECONDS = 0
    correction.date = DAY - datetime.timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        adjustment_save(adjustment=correction)
    # the job, run by the immediate backend (and, once it ran, its announcement of the rating changes)
    assert len([c for c in callbacks if c.__qualname__.startswith("job_schedule")]) == 1
    assert RecalculationJob.objects.get().status == RecalculationJobStatus.DONE
    assert ratings_verify() == []


def test_a_tournament_moved_before_one_that_did_not_change_its_players():
    """X counts no game of p (a forfeit), so his DWZ and index leave it as they came. Y after it moves
    before it: Y gives p his stored result again, but at another place, so X must take it as p's input."""
    p, q, r = (player(dwz=1500 + 100 * i, index=5) for i in range(3))
    save_tournament([p, q], [(p, q, "+-")], end=DAY, name="X")
    y, _ = save_tournament([p, r], [(p, r, "1-0"), (r, p, "1-0")], end=DAY + datetime.timedelta(days=5))
    assert ratings_verify() == []
    y.start_date = y.end_date = DAY - datetime.timedelta(days=3)
    tournament_save_head(tournament=y)
    assert ratings_verify() == []


def test_a_correction_moved_from_before_a_players_first_tournament_to_after_it():
    """Without the correction p enters T without a DWZ. His stored row in T still has the corrected DWZ as
    input: his state before the correction's old place comes from his history, not from that row (found
    by the write-path state machine)."""
    p = player()  # no DWZ
    others = [player(dwz=1500 + 100 * i, index=5) for i in range(4)]
    correction = RatingAdjustment(
        player=p, kind=AdjustmentKind.CORRECTION, date=DAY - datetime.timedelta(days=5), dwz=1644, index=28
    )
    adjustment_save(adjustment=correction)
    field = [p, *others]
    save_tournament(field, round_robin(field, random.Random(3)), end=DAY)
    assert ratings_verify() == []
    correction.date = DAY + datetime.timedelta(days=10)
    adjustment_save(adjustment=correction)
    assert ratings_verify() == []
