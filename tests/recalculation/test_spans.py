"""Rating spans (issue 30 §1): each player's DWZ-Index and last evaluation as runs of days, the lists' values
at a Stichtag. Worked examples of the rule (spec §9: a day's adjustments before its tournaments, the undated
start value before everything), a property against the plain reading of the rule, and the rows they are kept
from."""

from __future__ import annotations

import datetime
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.enums import AdjustmentKind
from ratings.models import Player, RatingAdjustment, RatingSpan
from ratings.recalculation import rebuild_spans, span_differences
from ratings.recalculation._spans import FIRST_DAY, OPEN, encode, spans_of
from ratings.selectors import stichtag as at
from tests.factories import PlayerFactory

D = datetime.date


def adjustment(day, pk, dwz, index):
    return (day or FIRST_DAY, 0, pk, encode(dwz, index), False)


def evaluation(day, tournament, dwz, index, suffix=None):
    value = encode(dwz, index) if dwz is not None else None
    return (day, 1, (suffix is None, suffix or "", tournament), value, True)


def test_a_player_without_anything_has_one_span_without_a_dwz():
    assert spans_of([]) == [(FIRST_DAY, OPEN, 0, None)]


def test_the_start_value_holds_from_the_first_day():
    assert spans_of([adjustment(None, 1, 1500, 12)]) == [(FIRST_DAY, OPEN, encode(1500, 12), None)]


def test_a_first_rating_starts_a_span_on_its_end_date():
    assert spans_of([evaluation(D(2024, 5, 12), 7, 1432, 1)]) == [
        (FIRST_DAY, D(2024, 5, 12), 0, None),
        (D(2024, 5, 12), OPEN, encode(1432, 1), D(2024, 5, 12)),
    ]


def test_a_days_tournament_comes_after_its_adjustment():
    # The adjustment of 3 March is replaced by the tournament ending that day: the day shows the tournament's.
    spans = spans_of(
        [
            adjustment(None, 1, 1600, 20),
            evaluation(D(2025, 3, 3), 9, 1650, 21),
            adjustment(D(2025, 3, 3), 2, 1700, 25),
        ]
    )
    assert spans == [
        (FIRST_DAY, D(2025, 3, 3), encode(1600, 20), None),
        (D(2025, 3, 3), OPEN, encode(1650, 21), D(2025, 3, 3)),
    ]


def test_coded_tournaments_of_a_day_come_before_uncoded_ones():
    spans = spans_of([evaluation(D(2025, 3, 3), 1, 1500, 3), evaluation(D(2025, 3, 3), 2, 1510, 4, "b")])
    assert spans[-1][2] == encode(1500, 3)  # the uncoded one (no suffix) is the day's last


def test_an_evaluation_without_a_new_dwz_moves_the_last_evaluation_only():
    spans = spans_of([adjustment(None, 1, 1600, 20), evaluation(D(2025, 1, 5), 4, None, None)])
    assert spans == [
        (FIRST_DAY, D(2025, 1, 5), encode(1600, 20), None),
        (D(2025, 1, 5), OPEN, encode(1600, 20), D(2025, 1, 5)),
    ]


def test_the_value_orders_as_the_list():
    # DWZ first, then the higher index; an index of 0 is above none.
    assert encode(1500, 3) > encode(1500, 2) > encode(1500, 0) > encode(1500, None) > encode(1499, 99) > 0


days = st.dates(D(2000, 1, 1), D(2001, 12, 31))
events = st.lists(
    st.one_of(
        st.tuples(st.just(0), st.one_of(st.none(), days), st.integers(1, 50), st.integers(800, 2800)),
        st.tuples(st.just(1), days, st.integers(1, 50), st.one_of(st.none(), st.integers(800, 2800))),
    ),
    max_size=12,
)


def _built(raw):
    """The drawn events, each with an order of its own (a player has one row per tournament, and an
    adjustment's key is its own); the drawn key only shuffles them."""
    return [
        adjustment(d, (key, i), dwz, dwz % 100)
        if kind == 0
        else evaluation(d, key * 100 + i, dwz, dwz and dwz % 100)
        for i, (kind, d, key, dwz) in enumerate(raw)
    ]


@settings(max_examples=300, deadline=None)
@given(events, days)
def test_the_span_of_a_day_is_the_last_event_on_or_before_it(raw, day):
    """The plain rule: of the events on or before the day, in the order (day, adjustments before
    tournaments, then their own order), the last with a DWZ gives the value, the last evaluation the date."""
    built = _built(raw)
    spans = spans_of(built)
    # Every day has exactly one span: they follow each other from the first day to the open end.
    assert spans[0][0] == FIRST_DAY and spans[-1][1] == OPEN
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    assert all(a[2:] != b[2:] for a, b in itertools.pairwise(spans))  # no two alike in a row
    found = [s for s in spans if s[0] <= day < s[1]]
    assert len(found) == 1
    before = sorted((e for e in built if e[0] <= day), key=lambda e: e[:3])
    values = [e[3] for e in before if e[3] is not None]
    last = [e[0] for e in before if e[4]]
    assert found[0][2:] == ((values[-1] if values else 0), (max(last) if last else None))


@pytest.mark.django_db
def test_a_new_player_has_his_span_without_a_dwz():
    player = PlayerFactory()
    assert list(
        RatingSpan.objects.filter(player=player).values_list("valid_from", "valid_until", "value")
    ) == [(FIRST_DAY, OPEN, 0)]
    assert span_differences() == []


@pytest.mark.django_db
def test_a_span_written_behind_the_recalculations_back_is_found_and_rebuilt():
    player = PlayerFactory()
    RatingAdjustment.objects.create(player=player, kind=AdjustmentKind.START, dwz=1500, index=3)
    assert span_differences() == [player.pk]  # created directly: no service rewrote his spans
    rebuild_spans(players=[player.pk])
    assert span_differences() == []
    assert at.values_at(player_ids=[player.pk], day=D(2020, 1, 1)) == {player.pk: (1500, 3)}
    rebuild_spans(players=None)
    assert RatingSpan.objects.count() == Player.objects.count()


@settings(max_examples=300, deadline=None)
@given(events, days)
def test_spans_continued_from_a_day_equal_the_spans_built_whole(raw, cut):
    """What a recalculation from ``cut`` rewrites (``rebuild(since=cut)``): the spans before the day before
    it stay, the one running then is continued by the events on or after it."""
    built = _built(raw)
    whole = spans_of(built)
    day_before = cut - datetime.timedelta(days=1)
    kept = [s for s in whole if s[1] <= day_before]
    (running,) = [s for s in whole if s[0] <= day_before < s[1]]
    before = spans_of([e for e in built if e[0] < cut])
    (start,) = [s for s in before if s[0] <= day_before < s[1]]
    assert start[0] == running[0] and start[2:] == running[2:]
    assert kept + spans_of([e for e in built if e[0] >= cut], start) == whole


@pytest.mark.django_db
def test_spans_of_a_player_no_longer_there_are_found_and_a_deleted_player_takes_his_along():
    first, kept, last = PlayerFactory(), PlayerFactory(), PlayerFactory()
    gone = [first.pk, last.pk]  # before and after the one kept
    first.delete()  # the ORM deletes his spans (no foreign key in the database: derived rows)
    last.delete()
    assert span_differences() == []
    for pk in gone:
        RatingSpan.objects.create(player_id=pk, valid_from=FIRST_DAY, valid_until=OPEN, value=0)
    assert span_differences() == gone
    assert span_differences(players=[kept.pk]) == []
