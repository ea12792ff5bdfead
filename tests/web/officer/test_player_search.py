"""The officer autocomplete of the participants' search uses the public player search: umlauts and their
transliterations fold (Müller == Mueller == muller), participants are left out."""

import pytest
from django.urls import reverse

from tests.builders import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def muellers(tree):
    club = tree["club_a"]
    return [
        make_player(surname="Müller", first_name="Hans", club=club),
        make_player(surname="Mueller", first_name="Jörg", club=club),
        make_player(surname="Muller", first_name="Ute", club=club),
        make_player(surname="Maier", first_name="Hans", club=club),
    ]


def _found(client, muellers, query, **params):
    html = client.get(reverse("ratings:officer-player-search"), {"q": query, **params}).content.decode()
    return {p.name for p in muellers if f'name="add" value="{p.pk}"' in html}


@pytest.mark.parametrize("query", ["Müller", "Mueller", "muller", "MÜLLER", "mül"])
def test_autocomplete_folds_umlauts(login, users, muellers, query):
    client = login(users["officer_a"])
    assert _found(client, muellers, query) == {p.name for p in muellers[:3]}


def test_autocomplete_folds_first_names_and_leaves_out_participants(login, users, muellers):
    client = login(users["officer_a"])
    assert _found(client, muellers, "Muller, Jorg") == {muellers[1].name}
    assert _found(client, muellers, "Mueller", p=[muellers[0].pk]) == {muellers[1].name, muellers[2].name}
