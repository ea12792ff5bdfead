"""Every admin write (add, change, delete of players, memberships, adjustments, tournaments with their
inline entries and games, clubs) leaves the stored ratings equal to a replay from scratch."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings.models import Club, Game, Membership, Player, RatingAdjustment, Tournament
from tests.builders import player, save_tournament
from tests.factories import ClubFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def _value(bound_field):
    value = bound_field.value()
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else None
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def _form_fields(form, data: dict) -> None:
    for name in form.fields:
        value = _value(form[name])
        if value is not None:
            data[form.add_prefix(name)] = value


def admin_form_data(response) -> dict:
    """What the admin page would post back unchanged: the main form and every inline formset."""
    data: dict = {}
    _form_fields(response.context["adminform"].form, data)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        _form_fields(formset.management_form, data)
        for form in formset.initial_forms:
            _form_fields(form, data)
    return data


@pytest.fixture
def world():
    """Rated members, an unrated member (he keeps Restpartien) and an unrated non-member in two
    tournaments, and a rated player who never played."""
    home, away = ClubFactory(), ClubFactory()
    a = player(dwz=1600, index=10, birth_year=1970)
    b = player(dwz=1500, index=8, birth_year=2008)
    member = player()
    guest = player()
    for p in (a, b, member):
        MembershipFactory(player=p, club=home)
    first, _ = save_tournament(
        [a, b, member, guest],
        [(a, member, "1/2-1/2"), (b, member, "1-0"), (a, guest, "1-0"), (guest, b, "1-0")],
        end=datetime.date(2024, 3, 10),
    )
    save_tournament([a, b, member], [(a, b, "1-0"), (member, a, "0-1")], end=datetime.date(2024, 6, 20))
    lone = player(dwz=1400, index=3)
    return {
        "a": a,
        "b": b,
        "member": member,
        "guest": guest,
        "lone": lone,
        "home": home,
        "away": away,
        "first": first,
    }


def _change(client, model: str, pk: int, **changes):
    url = reverse(f"admin:ratings_{model}_change", args=[pk])
    data = admin_form_data(client.get(url)) | changes
    return client.post(url, data)


def _delete(client, model: str, pk: int):
    return client.post(reverse(f"admin:ratings_{model}_delete", args=[pk]), {"post": "yes"})


def _add(client, model: str, data: dict):
    return client.post(reverse(f"admin:ratings_{model}_add"), data)


def player_add(client, w):
    return _add(
        client,
        "player",
        {
            "key": "NEU-1",
            "surname": "Neumann",
            "first_name": "Nora",
            "sex": "w",
            "birth_year": "2001",
            "status": "A",
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-0-club": str(w["home"].pk),
            "memberships-0-member_number": "0901",
            "memberships-0-status": "A",
            "adjustments-TOTAL_FORMS": "0",
            "adjustments-INITIAL_FORMS": "0",
        },
    )


def player_change_birth_year(client, w):
    return _change(client, "player", w["b"].pk, birth_year="1960")


def player_change_new_membership(client, w):
    url = reverse("admin:ratings_player_change", args=[w["guest"].pk])
    data = admin_form_data(client.get(url))
    data |= {
        "memberships-TOTAL_FORMS": "1",
        "memberships-0-club": str(w["away"].pk),
        "memberships-0-member_number": "0077",
        "memberships-0-status": "A",
    }
    return client.post(url, data)


def player_delete(client, w):
    return _delete(client, "player", w["lone"].pk)


def membership_add(client, w):
    return _add(
        client,
        "membership",
        {"player": w["guest"].pk, "club": w["away"].pk, "member_number": "0042", "status": "A"},
    )


def membership_change_player(client, w):
    membership = Membership.objects.get(player=w["member"])
    return _change(client, "membership", membership.pk, player=str(w["guest"].pk))


def membership_delete(client, w):
    return _delete(client, "membership", Membership.objects.get(player=w["member"]).pk)


def adjustment_add(client, w):
    return _add(
        client,
        "ratingadjustment",
        {"player": w["a"].pk, "kind": "correction", "date": "2024-04-01", "dwz": "1700", "index": "11"},
    )


def adjustment_change(client, w):
    start = RatingAdjustment.objects.get(player=w["b"])
    return _change(client, "ratingadjustment", start.pk, dwz="1450")


def adjustment_delete(client, w):
    return _delete(client, "ratingadjustment", RatingAdjustment.objects.get(player=w["a"]).pk)


def tournament_add(client, w):
    a, b, member = w["a"], w["b"], w["member"]
    return _add(
        client,
        "tournament",
        {
            "name": "Pokal",
            "code": "",
            "place": "Ulm",
            "start_date": "2024-04-01",
            "end_date": "2024-04-02",
            "rounds": "2",
            "notes": "",
            "rated": "on",
            "entries-TOTAL_FORMS": "3",
            "entries-INITIAL_FORMS": "0",
            **{f"entries-{i}-player": str(p.pk) for i, p in enumerate((a, b, member))},
            **{f"entries-{i}-start_rank": str(i + 1) for i in range(3)},
            **{f"entries-{i}-member": "on" for i in range(3)},
            "games-TOTAL_FORMS": "2",
            "games-INITIAL_FORMS": "0",
            "games-0-round": "1",
            "games-0-white": str(member.pk),
            "games-0-black": str(b.pk),
            "games-0-result": "1-0",
            "games-1-round": "2",
            "games-1-white": str(a.pk),
            "games-1-black": str(member.pk),
            "games-1-result": "1/2-1/2",
        },
    )


def tournament_change_result(client, w):
    url = reverse("admin:ratings_tournament_change", args=[w["first"].pk])
    data = admin_form_data(client.get(url))
    game = next(k for k, v in data.items() if k.startswith("games-") and k.endswith("-result") and v == "1-0")
    return client.post(url, data | {game: "0-1", "end_date": "2024-07-01", "start_date": "2024-07-01"})


def tournament_delete(client, w):
    return _delete(client, "tournament", w["first"].pk)


def club_add(client, w):
    return _add(
        client, "club", {"zps": "C0999", "name": "Neuer Verein", "organisation": w["home"].organisation_id}
    )


def club_change(client, w):
    return _change(client, "club", w["home"].pk, name="Umbenannt")


def club_delete(client, w):
    return _delete(client, "club", w["away"].pk)


WRITES = [
    player_add,
    player_change_birth_year,
    player_change_new_membership,
    player_delete,
    membership_add,
    membership_change_player,
    membership_delete,
    adjustment_add,
    adjustment_change,
    adjustment_delete,
    tournament_add,
    tournament_change_result,
    tournament_delete,
    club_add,
    club_change,
    club_delete,
]


def _entered_data():
    models = (Player, Membership, RatingAdjustment, Tournament, Game, Club)
    return [sorted(map(repr, m.objects.values_list())) for m in models]


@pytest.mark.parametrize("write", WRITES, ids=lambda f: f.__name__)
def test_admin_write_leaves_the_ratings_equal_to_a_replay(admin_client, world, write):
    before = _entered_data()
    response = write(admin_client, world)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert _entered_data() != before
    out = StringIO()
    call_command("recalculate", "--verify", stdout=out)
    assert "Gespeicherter Stand = Neuberechnung." in out.getvalue()
