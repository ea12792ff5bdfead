"""The rating list's reads (ratings.selectors.lists): each player's primary club, chosen in Python in the
order ``Membership.objects.primary_first`` gives on the database."""

import datetime
import itertools
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.enums import AdjustmentKind
from ratings.models import Membership, Player, RatingAdjustment
from ratings.selectors import lists
from ratings.services import adjustment_save
from tests.builders import save_tournament
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory

ONE = datetime.timedelta(days=1)


@pytest.mark.django_db
def test_primary_clubs_agree_with_primary_first(django_assert_num_queries):
    clubs = [ClubFactory(name=f"SK {n}") for n in range(4)]
    players = [PlayerFactory() for _ in range(6)]
    day = datetime.date
    # status (blank, A, P), then the oldest (no date first), then the first made; ended ones never
    cases = [
        [("P", day(2001, 1, 1)), ("A", day(2020, 1, 1))],
        [("A", day(2020, 1, 1)), ("A", day(2010, 1, 1)), ("A", None)],
        [("P", None), ("P", day(1999, 1, 1))],
        [("", day(2020, 1, 1)), ("A", day(2000, 1, 1))],
        [("A", day(2005, 1, 1)), ("A", day(2005, 1, 1))],
    ]
    for player, memberships in zip(players, cases, strict=False):
        for n, (status, valid_from) in enumerate(memberships):
            MembershipFactory(player=player, club=clubs[n], status=status, valid_from=valid_from)
        MembershipFactory(player=player, club=clubs[3], valid_until=day(2021, 1, 1))
    MembershipFactory(player=players[5], club=clubs[3], valid_until=day(2021, 1, 1))  # ended only

    expected: dict[int, tuple] = {}
    rows = Membership.objects.current().primary_first()
    for player_id, *club in rows.values_list("player_id", "club__name", "club__zps", "member_number"):
        expected.setdefault(player_id, tuple(club))
    assert len(expected) == 5
    with django_assert_num_queries(1):
        assert lists.primary_clubs(player_ids=None) == expected
    some = [players[1].pk, players[3].pk, players[5].pk]
    with django_assert_num_queries(1):
        assert lists.primary_clubs(player_ids=some) == {pk: expected[pk] for pk in some if pk in expected}


@pytest.mark.django_db
def test_a_lists_count_at_a_stichtag_leaves_the_spans_out_only_where_nothing_filters_on_them():
    """Every player has one span at every day, so the count of a list at a Stichtag is the count of the
    players the other filters leave; the federation's rated players are the players less the spans without
    a DWZ, its top the spans from the floor up; a filter on the day's value among others keeps the join. The
    counts equal the rows."""
    club = ClubFactory()
    players = [PlayerFactory(birth_year=1950 + n) for n in range(6)]
    for n, player in enumerate(players[:4]):
        MembershipFactory(player=player, club=club)
        adjustment_save(
            adjustment=RatingAdjustment(player=player, kind=AdjustmentKind.START, dwz=1500 + n, index=n)
        )
    adjustment_save(
        adjustment=RatingAdjustment(
            player=players[4],
            kind=AdjustmentKind.CORRECTION,
            date=datetime.date(2024, 1, 1),
            dwz=1700,
            index=5,
        )
    )
    day = datetime.date(2023, 6, 1)
    base = lists.list_rows(stichtag=day)
    cases = {
        "all": (base, False),
        "club": (base.in_club(club), False),
        "born after 1952": (base.filter(birth_year__gt=1952), False),
        "rated": (lists.rated(base), False),  # the players less the spans without a DWZ at the day
        "top 2": (lists.top(base, n=2), False),  # the spans from the floor up
        "top 2 in the club": (lists.top(base.in_club(club), n=2), True),
        "rated in the club": (lists.rated(base.in_club(club)), False),
    }
    for name, (queryset, joined) in cases.items():
        with CaptureQueriesContext(connection) as queries:
            count = queryset.count()
        assert count == len(list(queryset)), name
        assert any('JOIN "ratings_ratingspan"' in q["sql"] for q in queries) is joined, name
    assert base.count() == Player.objects.count() == 6
    assert lists.rated(base).count() == 4  # the correction of 2024 is after the day
    assert lists.rated(lists.list_rows(stichtag=datetime.date(2024, 1, 1))).count() == 5


@pytest.mark.django_db
def test_a_clubs_list_at_a_stichtag_looked_up_player_by_player_equals_the_joined_one():
    """``few``: a club's members each with his span looked up (PostgreSQL walked the federation's spans for a
    club's first page); the rows, their values, ranks and counts are the joined list's."""
    club = ClubFactory()
    for n in range(5):
        player = PlayerFactory()
        MembershipFactory(player=player, club=club)
        if n:
            adjustment_save(
                adjustment=RatingAdjustment(
                    player=player, kind=AdjustmentKind.START, dwz=1500 + n % 3, index=n
                )
            )
    PlayerFactory()  # not a member
    day = datetime.date(2023, 6, 1)
    fields = ("pk", lists.STICHTAG_VALUE, lists.STICHTAG_LAST, "dwz_sort")
    joined = lists.list_rows(stichtag=day).in_club(club)
    few = lists.list_rows(stichtag=day, few=True).in_club(club)
    assert list(few.values_list(*fields)) == list(joined.values_list(*fields))
    assert few.count() == joined.count() == 5
    assert lists.rated(few).count() == lists.rated(joined).count() == 4
    assert lists.ranks(few) == lists.ranks(joined)
    for low in range(5):  # a page of the club's list ranked from its place, as counted
        page = lists.page_records(few[low : low + 2])
        dwz = [lists.split_stichtag_value(getattr(r, lists.STICHTAG_VALUE))[0] for r in page]
        assert lists.page_ranks(few[low : low + 2], page) == lists.ranks(few, dwz_values=dwz), low
    assert list(lists.top(few, n=2).values_list("pk", flat=True)) == list(
        lists.top(joined, n=2).values_list("pk", flat=True)
    )


# The orders of the list's columns (``RatingListTable``), down and up.
PAGE_ORDERS = {
    "the list's": None,
    "by DWZ, down": ("-dwz_sort", "-name_sort", "-pk"),
    "by DWZ, up": ("dwz_sort", "name_sort", "pk"),
    "by name": ("publication_objection", "name_sort", "pk"),
    "by club": ("club_sort", "name_sort", "pk"),
    "by last evaluation": ("-last_sort", "-name_sort", "-pk"),
    "by last evaluation, up": ("last_sort", "name_sort", "pk"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rank_spans", [4_000, 3], ids=["ranks counted in Python", "ranks counted joined"])
def test_every_page_at_a_stichtag_read_in_two_steps_is_the_slice_of_the_list(seed, rank_spans, monkeypatch):
    """``page_records``: a page's players first (from the value index alone, from the players alone, or the
    joined keys), then their rows. Every page of every order and filter is the plain slice of the list, with
    the same values at the day and the ranks counted on the whole list; ties in value, DWZ and name
    included."""
    monkeypatch.setattr(lists, "RANK_SPANS", rank_spans)
    rng = random.Random(seed)
    club = ClubFactory()
    day = datetime.date(2023, 6, 1)
    for n in range(23):
        player = PlayerFactory(surname=rng.choice(["Müller", "Mueller", "Öztürk", "Abel"]), first_name="Jo")
        if rng.random() < 0.5:
            MembershipFactory(player=player, club=club)
        if rng.random() < 0.8:
            start = RatingAdjustment(
                player=player,
                kind=AdjustmentKind.START,
                dwz=rng.choice([1500, 1501, 1600]),
                index=rng.choice([3, 5]),
            )
            adjustment_save(adjustment=start)
        if rng.random() < 0.3:  # a correction after the day: today's values differ from the day's
            later = datetime.date(2024, 1, n + 1)
            correction = RatingAdjustment(
                player=player,
                kind=AdjustmentKind.CORRECTION,
                date=later,
                dwz=rng.randint(1400, 1700),
                index=9,
            )
            adjustment_save(adjustment=correction)
    # Small round robins (shared end dates, one after the day): last evaluations to order by.
    players = list(Player.objects.order_by("pk"))
    for end in (
        datetime.date(2022, 3, 1),
        datetime.date(2023, 2, 1),
        datetime.date(2023, 2, 1),
        day,
        day + ONE,
    ):
        group = rng.sample(players, 4)
        games = [(a, b, rng.choice(["1-0", "0-1", "1/2-1/2"])) for a, b in itertools.combinations(group, 2)]
        save_tournament(group, games, end=end)
    base = lists.list_rows(stichtag=day)
    assert {last is None for last in base.values_list(lists.STICHTAG_LAST, flat=True)} == {True, False}
    filters = {
        "all": base,
        "rated": lists.rated(base),
        "club": base.in_club(club),
        "top 7": lists.top(base, n=7),
        "rated in the club": lists.rated(base.in_club(club)),
    }
    fields = ("pk", lists.STICHTAG_VALUE, lists.STICHTAG_LAST)
    for (filtered, rows), (ordered, order) in itertools.product(filters.items(), PAGE_ORDERS.items()):
        queryset = rows.order_by(*order) if order else rows
        size = rng.choice([1, 4, 5])
        for low in range(0, queryset.count() + size, size):
            expected = [tuple(getattr(r, f) for f in fields) for r in queryset[low : low + size]]
            page = lists.page_records(queryset[low : low + size])
            assert [tuple(getattr(r, f) for f in fields) for r in page] == expected, (filtered, ordered, low)
            dwz = [lists.split_stichtag_value(r[1])[0] for r in expected]
            everyone = [
                lists.split_stichtag_value(v)[0] for v in rows.values_list(lists.STICHTAG_VALUE, flat=True)
            ]
            ranks = {d: 1 + sum(1 for other in everyone if other is not None and other > d) for d in dwz if d}
            assert lists.ranks(queryset, dwz_values=dwz) == ranks, (filtered, ordered, low)
            # In descending order of value or DWZ the ranks come from the page's place in the list.
            known = lists.page_ranks(queryset[low : low + size], page)
            if page and ordered in ("the list's", "by DWZ, down"):
                assert known == ranks, (filtered, ordered, low)
            else:
                assert known is None or not page, (filtered, ordered, low)

    # Which first step each took: the value index alone, the players alone, the joined keys.
    def first_step(sql: str) -> str:
        if 'FROM "ratings_ratingspan"' in sql:
            return "spans"
        return "players" if "ratingspan" not in sql else "joined"

    first_steps = {
        ("all", None): "spans",
        ("rated", None): "spans",
        ("all", ("-dwz_sort", "-name_sort", "-pk")): "spans",
        ("all", ("-last_sort", "-name_sort", "-pk")): "spans",
        ("rated", ("-last_sort", "-name_sort", "-pk")): "spans",
        ("all", ("last_sort", "name_sort", "pk")): "spans",
        ("club", ("-last_sort", "-name_sort", "-pk")): "joined",
        ("all", ("publication_objection", "name_sort", "pk")): "players",
        ("club", ("club_sort", "name_sort", "pk")): "players",
        ("club", None): "joined",
        ("top 7", None): "joined",
        ("top 7", ("publication_objection", "name_sort", "pk")): "joined",
    }
    for (filtered, order), step in first_steps.items():
        queryset = filters[filtered].order_by(*order) if order else filters[filtered]
        with CaptureQueriesContext(connection) as queries:
            lists.page_records(queryset[2:4])
        assert first_step(queries[0]["sql"]) == step, (filtered, order, queries[0]["sql"])
