"""factory-boy factories for the ratings models. Derived rows (evaluations, Restpartien, Player.dwz) are never
made here: they come from the services."""

import datetime

import factory

from ratings.enums import AdjustmentKind, ResultCode
from ratings.models import (
    Club,
    Game,
    Membership,
    Organisation,
    Player,
    RatingAdjustment,
    Tournament,
    TournamentEntry,
)


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"C{n % 100:02d}")
    name = factory.Sequence(lambda n: f"Bezirk {n}")
    parent = None


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    organisation = factory.SubFactory(OrganisationFactory, code="C05", name="Bezirk Stuttgart")
    zps = factory.Sequence(lambda n: f"{'C05'}{n % 100:02d}")
    name = factory.Sequence(lambda n: f"Schachverein {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    key = factory.Sequence(lambda n: f"P{n:06d}")
    surname = factory.Faker("last_name", locale="de_DE")
    first_name = factory.Faker("first_name", locale="de_DE")
    birth_year = 1980


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    player = factory.SubFactory(PlayerFactory)
    club = factory.SubFactory(ClubFactory)
    member_number = factory.Sequence(lambda n: f"{n + 1:04d}")


class StartValueFactory(factory.django.DjangoModelFactory):
    """Created directly (tests that need the service use ``adjustment_save``)."""

    class Meta:
        model = RatingAdjustment

    player = factory.SubFactory(PlayerFactory)
    kind = AdjustmentKind.START
    dwz = 1500
    index = 10


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Turnier {n}")
    end_date = datetime.date(2024, 3, 10)
    start_date = factory.LazyAttribute(lambda o: o.end_date - datetime.timedelta(days=2))


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentEntry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    tournament = factory.SubFactory(TournamentFactory)
    round = 1
    white = factory.SubFactory(PlayerFactory)
    black = factory.SubFactory(PlayerFactory)
    result = ResultCode.WHITE_WINS


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "auth.User"
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("geheim-123")


class OfficerScopeFactory(factory.django.DjangoModelFactory):
    """A Wertungsreferent: pass ``organisation=`` or ``club=`` (default: a new club)."""

    class Meta:
        model = "ratings.OfficerScope"

    user = factory.SubFactory(UserFactory)
    organisation = None
    club = factory.Maybe("organisation", no_declaration=factory.SubFactory(ClubFactory), yes_declaration=None)
