"""The rating list's reads (ratings.selectors.lists): each player's primary club, chosen in Python in the
order ``Membership.objects.primary_first`` gives on the database."""

import datetime

import pytest

from ratings.models import Membership
from ratings.selectors import lists
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory


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
