"""The time control on the tournament head: typed in the officer's head form, shown on the public page."""

import pytest
from django.urls import reverse

from ratings.models import Tournament
from tests.builders import head_data

pytestmark = pytest.mark.django_db


def test_the_officer_enters_the_time_control_and_the_public_page_shows_it(client, users, tree, tournament):
    client.force_login(users["officer_a"])
    url = reverse("ratings:tournament-edit", args=[tournament.pk])
    assert 'name="time_control"' in client.get(url).content.decode()
    response = client.post(url, head_data(tree, time_control="90 Min. + 30 Sek."))
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).time_control == "90 Min. + 30 Sek."
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert '<dd class="col-sm-8 col-lg-4" id="time-control">90 Min. + 30 Sek.</dd>' in page


def test_the_public_page_leaves_out_an_empty_time_control(client, tournament):
    assert 'id="time-control"' not in client.get(tournament.get_absolute_url()).content.decode()
