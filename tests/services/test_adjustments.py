"""Start values of players without events skip the recalculation (``_start_values_only``): only where the
replay would reach nothing else, with the same writes and report as the replay."""

import datetime

import pytest

from ratings.enums import AdjustmentKind
from ratings.models import Player, RatingAdjustment, RatingState
from ratings.recalculation import Changes, ratings_verify, recalculate_changes
from ratings.services import adjustment_delete, adjustment_save, background
from tests.builders import player, save_tournament, snapshot
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def replays(monkeypatch) -> list[Changes]:
    """The ``Changes`` the service hands to the recalculation (it still runs; a long chain would go on in
    the background, which these short histories never reach)."""
    calls: list[Changes] = []

    def spy(changes, **kwargs):
        calls.append(changes)
        return recalculate_changes(changes, **kwargs)

    monkeypatch.setattr(background, "recalculate_changes", spy)
    return calls


def start(p: Player, **values) -> RatingAdjustment:
    return RatingAdjustment(player=p, kind=AdjustmentKind.START, **values)


def assert_consistent() -> None:
    """Nothing left for a replay: from scratch (verify), and from the end of time for the players without
    events (what the service replayed before the shortcut)."""
    assert ratings_verify() == []
    before = snapshot()
    pks = set(
        Player.objects.exclude(evaluations__isnull=False)
        .exclude(adjustments__date__isnull=False)
        .values_list("pk", flat=True)
    )
    report = recalculate_changes(Changes(since=None, reset=pks))
    assert report.rating_changes == {}
    assert snapshot() == before


def test_new_players_start_value_is_set_without_a_replay(replays):
    p = PlayerFactory()
    RatingState.objects.filter(pk=1).update(last_recalculated_at=None)
    report = adjustment_save(adjustment=start(p, dwz=1500, index=7))
    p.refresh_from_db()
    assert (p.dwz, p.index, p.last_evaluated) == (1500, 7, None)
    assert report.rating_changes == {p.pk: (None, 1500)}
    assert replays == []
    assert RatingState.objects.get(pk=1).last_recalculated_at is not None
    assert_consistent()


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ({"dwz": 1500, "index": 7}, {"dwz": 1620, "index": 9}, (1620, 9)),
        ({"dwz": 1500, "index": 7}, {"fide_elo": 1800}, (None, None)),
        ({"fide_elo": 1800}, {"dwz": 1400}, (1400, 0)),
        ({"dwz": 1500, "index": 7}, {"dwz": 1500, "index": 7}, (1500, 7)),
    ],
)
def test_changed_start_value_without_events(replays, first, second, expected):
    p = PlayerFactory()
    adjustment_save(adjustment=start(p, **first))
    adjustment = RatingAdjustment.objects.get(player=p)
    for field in ("dwz", "index", "fide_elo"):
        setattr(adjustment, field, second.get(field))
    report = adjustment_save(adjustment=adjustment)
    p.refresh_from_db()
    assert (p.dwz, p.index) == expected
    old = first.get("dwz")
    assert report.rating_changes == ({p.pk: (old, expected[0])} if old != expected[0] else {})
    assert replays == []
    assert_consistent()


def test_start_value_moved_to_another_player_without_events(replays):
    a, b = PlayerFactory(), PlayerFactory()
    adjustment_save(adjustment=start(a, dwz=1500, index=7))
    adjustment = RatingAdjustment.objects.get(player=a)
    adjustment.player = b
    report = adjustment_save(adjustment=adjustment)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.dwz, a.index, b.dwz, b.index) == (None, None, 1500, 7)
    assert report.rating_changes == {a.pk: (1500, None), b.pk: (None, 1500)}
    assert replays == []
    assert_consistent()


def test_deleted_start_value_without_events(replays):
    p = PlayerFactory()
    adjustment_save(adjustment=start(p, dwz=1500, index=7))
    report = adjustment_delete(adjustment=RatingAdjustment.objects.get(player=p))
    p.refresh_from_db()
    assert (p.dwz, p.index) == (None, None)
    assert report.rating_changes == {p.pk: (1500, None)}
    assert replays == []
    assert_consistent()


def test_start_value_of_a_player_with_a_tournament_replays_it(replays):
    a, b = player(dwz=1000, index=5, birth_year=2003), player(dwz=1200, index=5, birth_year=2003)
    save_tournament([a, b], [(a, b, "1-0")], end=D(2018, 11, 15))
    replays.clear()  # the tournament's own
    adjustment = RatingAdjustment.objects.get(player=a)
    adjustment.dwz = 1100
    adjustment_save(adjustment=adjustment)
    assert len(replays) == 1 and replays[0].reset == {a.pk}
    a.refresh_from_db()
    assert a.last_evaluated == D(2018, 11, 15) and a.dwz != 1100
    assert_consistent()


def test_start_value_of_a_player_with_a_dated_adjustment_replays_it(replays):
    p = PlayerFactory()
    adjustment_save(
        adjustment=RatingAdjustment(
            player=p, kind=AdjustmentKind.CORRECTION, date=D(2020, 1, 1), dwz=1300, index=3
        )
    )
    assert len(replays) == 1  # a dated adjustment always replays
    adjustment_save(adjustment=start(p, dwz=1500, index=7))
    assert len(replays) == 2
    p.refresh_from_db()
    assert (p.dwz, p.index) == (1300, 3)
    assert_consistent()


def test_moving_a_start_value_to_a_player_with_events_replays(replays):
    a = PlayerFactory()
    b, c = player(dwz=1000, index=5), player(dwz=1200, index=5)
    save_tournament([b, c], [(b, c, "1-0")], end=D(2018, 11, 15))
    RatingAdjustment.objects.filter(player=b).delete()  # b keeps his history, without a start value
    adjustment_save(adjustment=start(a, dwz=1500, index=7))
    calls = len(replays)
    adjustment = RatingAdjustment.objects.get(player=a)
    adjustment.player = b
    adjustment_save(adjustment=adjustment)
    assert len(replays) == calls + 1 and replays[-1].reset == {a.pk, b.pk}
    assert_consistent()
