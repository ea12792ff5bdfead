"""Admin: the audit log is read-only and restores deleted tournaments; scopes are editable."""

import pytest
from django.urls import reverse

from ratings.models import Game, Tournament
from ratings.models.audit import AuditAction, AuditEvent
from ratings.services import tournament_delete
from tests.builders import grid_data

pytestmark = pytest.mark.django_db


def test_admin_restores_a_deleted_tournament(client, users, tournament, players):
    client.force_login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]),
        grid_data(players, {(0, 1): "1"}, save="1"),
    )
    tournament_delete(tournament=Tournament.objects.get(pk=tournament.pk), user=users["officer_a"])
    event = AuditEvent.objects.get(action=AuditAction.DELETE)
    client.force_login(users["admin"])
    changelist = reverse("admin:ratings_auditevent_changelist")
    assert client.get(changelist).status_code == 200
    response = client.post(
        changelist, {"action": "restore_tournament", "_selected_action": [event.pk]}, follow=True
    )
    assert "wiederhergestellt" in response.content.decode()
    restored = Tournament.objects.get(name="Vereinsmeisterschaft")
    assert Game.objects.filter(tournament=restored).count() == 1
    players[0].refresh_from_db()
    assert players[0].dwz is not None and players[0].dwz > 1600


def test_audit_log_is_read_only_and_scopes_editable(client, users):
    client.force_login(users["admin"])
    assert client.get(reverse("admin:ratings_auditevent_add")).status_code == 403
    assert client.get(reverse("admin:ratings_officerscope_add")).status_code == 200
