"""Issue 9 §2: two officers on one tournament. Outdated forms are refused with what changed meanwhile and
the officer's input kept; a deleted tournament stays deleted; the results page never writes an old head."""

import datetime

import pytest
from django.urls import reverse

from ratings.models import Game, Tournament, TournamentEntry
from ratings.models.audit import AuditAction, AuditEvent
from ratings.services import tournament_delete, tournament_save_head, tournament_save_results
from ratings.services.tournaments import TournamentConflict, TournamentGone
from tests.builders import grid_data, head_data

pytestmark = pytest.mark.django_db

RESULTS = {(0, 1): "1", (0, 2): "1", (1, 2): "5"}


def test_every_save_increments_the_version(tournament, players):
    assert tournament.version == 1
    tournament_save_head(tournament=tournament, version=1)
    assert tournament.version == 2
    assert Tournament.objects.get(pk=tournament.pk).version == 2
    with pytest.raises(TournamentConflict) as exc:
        tournament_save_head(tournament=tournament, version=1)
    assert (exc.value.version, exc.value.current) == (1, 2)


def test_a_queued_save_does_not_bring_a_deleted_tournament_back(tournament, players):
    stale = Tournament.objects.get(pk=tournament.pk)
    tournament_delete(tournament=tournament)
    with pytest.raises(TournamentGone):
        tournament_save_results(
            tournament=stale, entries=[TournamentEntry(player=players[0], start_rank=1)], games=[]
        )
    assert not Tournament.objects.filter(pk=stale.pk).exists()
    assert not TournamentEntry.objects.exists()


def test_results_save_keeps_a_head_changed_meanwhile(tournament, players):
    stale = Tournament.objects.get(pk=tournament.pk)
    tournament.end_date = datetime.date(2024, 3, 12)
    tournament_save_head(tournament=tournament)
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    tournament_save_results(tournament=stale, entries=entries, games=[])
    assert Tournament.objects.get(pk=tournament.pk).end_date == datetime.date(2024, 3, 12)
    last = AuditEvent.objects.filter(tournament_ref=tournament.pk).order_by("-pk").first()
    assert "head" not in last.changes  # the audit diff shows the entries, not a head revert


def test_outdated_results_form_is_refused_with_the_changes_and_the_input_kept(
    login, users, tree, tournament, players
):
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    a = login(users["officer_a"])
    assert 'name="version" value="1"' in a.get(url).content.decode()
    # Another officer moves the end date meanwhile.
    moved = Tournament.objects.get(pk=tournament.pk)
    moved.end_date = datetime.date(2024, 3, 12)
    tournament_save_head(tournament=moved, user=users["officer_lv"])
    response = a.post(url, grid_data(players, RESULTS, save="1", version="1"))
    assert response.status_code == 409
    html = response.content.decode()
    assert 'id="conflict"' in html
    assert "officer_lv" in html and "12.03.2024" in html
    assert f'name="rr-{players[1].pk}-{players[2].pk}"' in html and 'value="5"' in html
    assert 'name="version" value="2"' in html
    assert not Game.objects.exists()
    # Saving again (now at the current version) is the officer's deliberate choice.
    response = a.post(url, grid_data(players, RESULTS, save="1", version="2"))
    assert response.status_code == 302
    assert Game.objects.filter(tournament=tournament).count() == 3
    assert Tournament.objects.get(pk=tournament.pk).end_date == datetime.date(2024, 3, 12)


def test_outdated_head_form_is_refused_with_the_typed_head_kept(login, users, tree, tournament, players):
    url = reverse("ratings:tournament-edit", args=[tournament.pk])
    a = login(users["officer_a"])
    assert 'name="version" value="1"' in a.get(url).content.decode()
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    games = [Game(round=1, white=players[0], black=players[1], result="1-0")]
    tournament_save_results(tournament=Tournament.objects.get(pk=tournament.pk), entries=entries, games=games)
    response = a.post(url, head_data(tree, name="Stadtmeisterschaft"))
    assert response.status_code == 409
    html = response.content.decode()
    assert 'id="conflict"' in html and "Partien neu" in html
    assert 'value="Stadtmeisterschaft"' in html
    assert 'name="version" value="2"' in html
    assert Tournament.objects.get(pk=tournament.pk).name == "Vereinsmeisterschaft"
    assert a.post(url, head_data(tree, name="Stadtmeisterschaft", version="2")).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).name == "Stadtmeisterschaft"


def test_outdated_delete_is_asked_again(login, users, tournament):
    a = login(users["officer_a"])
    url = reverse("ratings:tournament-delete", args=[tournament.pk])
    tournament_save_head(tournament=Tournament.objects.get(pk=tournament.pk))
    response = a.post(url, {"version": "1"})
    assert response.status_code == 409
    assert 'name="version" value="2"' in response.content.decode()
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    assert a.post(url, {"version": "2"}).status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


def test_save_after_a_delete_answers_deleted_meanwhile(login, users, tournament, players):
    a = login(users["officer_a"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    tournament_delete(tournament=Tournament.objects.get(pk=tournament.pk), user=users["officer_lv"])
    response = a.post(url, grid_data(players, RESULTS, save="1", version="1"))
    assert response.status_code == 410
    assert "Turnier wurde inzwischen gelöscht" in response.content.decode()
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert AuditEvent.objects.filter(tournament_ref=tournament.pk, action=AuditAction.DELETE).count() == 1
    # Pages of a tournament that never existed still answer 404.
    assert a.get(reverse("ratings:tournament-grid", args=[tournament.pk + 1000])).status_code == 404


def test_admin_delete_of_a_tournament_deleted_meanwhile_is_quiet(rf, users, tournament):
    from django.contrib.admin.sites import site

    from ratings.admin import TournamentAdmin

    stale = Tournament.objects.get(pk=tournament.pk)
    tournament_delete(tournament=tournament, user=users["officer_a"])
    request = rf.post("/")
    request.user = users["admin"]
    TournamentAdmin(Tournament, site).delete_model(request, stale)
    assert AuditEvent.objects.filter(tournament_ref=stale.pk, action=AuditAction.DELETE).count() == 1
