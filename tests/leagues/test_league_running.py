"""A division whose season goes on is not overdue: the officer's WO 6.2 lists in ``ratings`` leave out the
tournament of a division with a match not yet approved (``settings.RATINGS_RUNNING_TOURNAMENTS``)."""

import datetime

import pytest
from django.urls import reverse

from leagues.models import DivisionPart
from leagues.selectors.running import running_division_tournaments
from leagues.services.matches import BoardReport, match_approve, match_report_save
from ratings.models import Tournament
from ratings.selectors.officer import overdue_tournaments
from ratings.selectors.tournament_states import unsubmitted_tournaments
from tests.leagues.league_data import small_league

pytestmark = pytest.mark.django_db


def _approve(league, match):
    home, away = league["players"]
    boards = [BoardReport(n, home[n - 1].pk, away[n - 1].pk, "1-0") for n in range(1, 5)]
    match_report_save(match=match, boards=boards, user=league["captain1"])
    match_approve(match=match, user=league["director"])


def test_a_running_division_is_neither_overdue_nor_unsubmitted_until_its_last_match_is_approved():
    league = small_league(boards=4)
    _approve(league, league["match1"])
    tournament = DivisionPart.objects.get(division=league["division"], number=1).tournament
    later = tournament.end_date + datetime.timedelta(days=100)
    everything = Tournament.objects.all()

    assert Tournament.objects.filter(running_division_tournaments()).get() == tournament
    assert list(overdue_tournaments(manageable=everything, ended_before=later)) == []
    assert list(unsubmitted_tournaments(manageable=everything, today=later, since=tournament.end_date)) == []

    league["division"].matches.exclude(pk=league["match1"].pk).delete()  # the season's other matches gone
    assert not Tournament.objects.filter(running_division_tournaments()).exists()
    assert list(overdue_tournaments(manageable=everything, ended_before=later)) == [tournament]
    assert list(unsubmitted_tournaments(manageable=everything, today=later, since=tournament.end_date)) == [
        tournament
    ]


def test_the_officer_pages_refuse_to_change_a_division_tournament(admin_client):
    """The division's DWZ tournament is kept from the approved match reports: a change on the officer's pages
    would be overwritten by the next approval, so they answer 403 and say where it is changed; the public page
    and the DSB export page stay open."""
    league = small_league(boards=4)
    _approve(league, league["match1"])
    tournament = DivisionPart.objects.get(division=league["division"], number=1).tournament
    for name in ("tournament-edit", "tournament-grid", "tournament-participants", "tournament-delete"):
        response = admin_client.get(reverse(f"ratings:{name}", args=[tournament.pk]))
        assert response.status_code == 403, name
        assert "Mannschaftsstaffel" in response.content.decode()
    assert admin_client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).status_code == 200
    assert admin_client.get(reverse("ratings:tournament-dsb-export", args=[tournament.pk])).status_code == 200
