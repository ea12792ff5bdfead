"""The audit-trail hook for the public pages: officers see the log and edit links, others nothing."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory

from ratings.services import tournament_save_head
from ratings.web.officer.hooks import officer_panel

pytestmark = pytest.mark.django_db


def render(user, tournament):
    """The hook as a tournament's public page renders it for ``user`` (the view reads the panel)."""
    request = RequestFactory().get("/")
    request.user = user
    panel = officer_panel(request, tournament=tournament)
    return render_to_string("ratings/officer/_audit_trail_for.html", {"panel": panel}, request)


def test_officer_sees_trail_and_links(users, tournament):
    tournament.name = "Umbenannt"
    tournament_save_head(tournament=tournament, user=users["officer_a"])
    html = render(users["officer_a"], tournament)
    assert "Änderungsprotokoll" in html
    assert "Name: Vereinsmeisterschaft → Umbenannt" in html
    assert "officer_a" in html
    assert f"/turniere/{tournament.pk}/erfassen/" in html


def test_other_officer_sees_trail_but_no_links(users, tournament):
    html = render(users["officer_b"], tournament)
    assert "Änderungsprotokoll" in html
    assert "/erfassen/" not in html


def test_visitor_and_plain_user_see_nothing(users, tournament):
    assert render(AnonymousUser(), tournament).strip() == ""
    assert "Änderungsprotokoll" not in render(users["member"], tournament)


def test_public_pages_show_the_trail_to_officers(client, users, tournament, players):
    from django.urls import reverse

    from tests.builders import grid_data as data

    client.force_login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]), data(players, {(0, 1): "1"}, save="1")
    )
    page = client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    assert "Änderungsprotokoll" in page
    assert f"/turniere/{tournament.pk}/erfassen/" in page
    card = client.get(reverse("ratings:player-detail", args=[players[0].key])).content.decode()
    assert "Änderungsprotokoll" in card
    assert "Wertungsänderung" in card  # his start value, recorded by adjustment_save
    client.logout()
    assert (
        "Änderungsprotokoll"
        not in client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    )
