"""Builders of the following tests: a small history where a late tournament re-rates a later one."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from following.models import Subscription
from ratings.models import Club, Player, Tournament
from tests.builders import player, save_tournament
from tests.factories import ClubFactory, MembershipFactory


@dataclass
class History:
    club: Club
    a: Player
    b: Player
    c: Player
    d: Player
    early: Tournament
    later: Tournament


def history() -> History:
    """a, b, c members of one club; d of none. a–b in January, a–c in March (c's DWZ hangs on a's)."""
    club = ClubFactory()
    a, b, c, d = (player(dwz=dwz, index=10) for dwz in (1600, 1500, 1700, 1650))
    for p in (a, b, c):
        MembershipFactory(player=p, club=club)
    early, _ = save_tournament([a, b], [(a, b, "1-0")], end=datetime.date(2025, 1, 20), name="Januar-Open")
    later, _ = save_tournament([a, c], [(a, c, "1/2-1/2")], end=datetime.date(2025, 3, 20), name="März-Open")
    return History(club, a, b, c, d, early, later)


def follow(email: str, *, player: Player | None = None, club: Club | None = None) -> Subscription:
    """A confirmed subscription (as after the link), starting after the notices stored so far."""
    from following.services import subscription_confirm

    subscription = Subscription.objects.create(email=email, player=player, club=club)
    return subscription_confirm(subscription_id=subscription.pk) or subscription


def late_tournament(h: History, *, name: str = "Nachgereichtes Februar-Turnier") -> Tournament:
    """a loses to d in February, saved after March was rated: a's and c's March evaluation change."""
    t, _ = save_tournament([h.a, h.d], [(h.d, h.a, "1-0")], end=datetime.date(2025, 2, 15), name=name)
    return t


def hours_later(hours: float) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(hours=hours)
