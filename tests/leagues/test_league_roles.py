"""Invitations for every league role (``leagues.services.roles.role_invite``): the user is made (or found by
his e-mail) and mailed the link to set his password; each role only from inside the inviting user's scope."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError

from leagues.models import Division, RankingList, Season
from leagues.services.roles import Role, role_invite
from tests.leagues.league_data import small_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return small_league(boards=4)


@pytest.fixture
def staff():
    return get_user_model().objects.create_user(username="admin", is_staff=True)


def test_staff_invites_a_director_who_is_created_and_mailed(league, staff):
    division = league["division"]
    director = role_invite(role=Role.DIRECTOR, target=division, email=" Leiter@Example.org ", user=staff)
    division.refresh_from_db()
    assert division.director == director and director.email == "leiter@example.org"
    assert director.username == "leiter@example.org" and director.has_usable_password()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["leiter@example.org"]
    assert "/passwort/" in mail.outbox[0].body


def test_an_existing_user_is_found_by_his_email_not_made_twice(league, staff):
    known = get_user_model().objects.create_user(username="wr", email="WR@example.org", password="x-123456")
    got = role_invite(role="rating_officer", target=league["division"], email="wr@example.org", user=staff)
    assert got == known and get_user_model().objects.filter(email__iexact="wr@example.org").count() == 1
    assert Division.objects.get(pk=league["division"].pk).rating_officer == known
    assert len(mail.outbox) == 1


def test_the_director_invites_the_rating_officer_captains_and_club_officers(league):
    director, division = league["director"], league["division"]
    role_invite(role=Role.RATING_OFFICER, target=division, email="wr@example.org", user=director)
    role_invite(role=Role.CAPTAIN, target=league["teams"][1], email="mf@example.org", user=director)
    ranking = RankingList.objects.get(club=league["teams"][0].club)
    officer = role_invite(role=Role.CLUB_OFFICER, target=ranking, email="vsl@example.org", user=director)
    ranking.refresh_from_db()
    assert ranking.officer == officer
    assert league["teams"][1].captain_email == "mf@example.org"
    assert sorted(m.to[0] for m in mail.outbox) == ["mf@example.org", "vsl@example.org", "wr@example.org"]


def test_scope_refusals(league):
    director, division = league["director"], league["division"]
    ranking = RankingList.objects.get(club=league["teams"][0].club)
    with pytest.raises(PermissionDenied):  # only staff names directors
        role_invite(role=Role.DIRECTOR, target=division, email="x@example.org", user=director)
    for user in (league["captain1"], league["officer"]):
        for role, target in (
            (Role.RATING_OFFICER, division),
            (Role.CAPTAIN, league["teams"][1]),
            (Role.CLUB_OFFICER, ranking),
        ):
            with pytest.raises(PermissionDenied):
                role_invite(role=role, target=target, email="x@example.org", user=user)
    # The director of another season's division does not name this season's club officers.
    later = Season.objects.create(name="2026/27", reference_date=ranking.season.reference_date)
    other = get_user_model().objects.create_user(username="anderer-sl")
    Division.objects.create(season=later, name="Kreisliga", boards=4, rounds=1, director=other)
    with pytest.raises(PermissionDenied):
        role_invite(role=Role.CLUB_OFFICER, target=ranking, email="x@example.org", user=other)
    assert mail.outbox == []
    assert get_user_model().objects.filter(email="x@example.org").exists() is False


def test_bad_input_saves_nothing(league, staff):
    division = league["division"]
    with pytest.raises(ValidationError):
        role_invite(role=Role.DIRECTOR, target=division, email="kein-mail", user=staff)
    with pytest.raises(ValidationError):
        role_invite(role="kassenwart", target=division, email="a@example.org", user=staff)
    with pytest.raises(ValidationError):  # a team has no rating officer
        role_invite(role=Role.RATING_OFFICER, target=league["teams"][0], email="a@example.org", user=staff)
    get_user_model().objects.create_user(username="b@example.org", email="")
    with pytest.raises(ValidationError):  # the user name is taken by someone with another address
        role_invite(role=Role.DIRECTOR, target=division, email="b@example.org", user=staff)
    division.refresh_from_db()
    assert division.director == league["director"] and mail.outbox == []
