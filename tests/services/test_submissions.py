"""Submissions and announcements: the service records what was sent (digest, snapshot, xml_uuid at the
first export, audit rows); an announcement only before the start."""

import datetime
import uuid

import pytest
from django.core.exceptions import ValidationError

from ratings.formats import dsb_xml
from ratings.models import AuditEvent, Tournament, TournamentSubmission
from ratings.models.audit import AuditAction
from ratings.selectors.dsb_xml_export import dsb_export
from ratings.services.submissions import tournament_announce, tournament_submit
from tests.builders import make_player, make_tournament, make_user
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _tournament(**kwargs):
    a, b, c = (make_player(surname=n, birth_year=1980 + i) for i, n in enumerate(("Alpha", "Beta", "Gamma")))
    games = [(1, a, b, "1-0"), (2, b, c, "1/2-1/2"), (3, c, a, "0-1")]
    return make_tournament([a, b, c], games, end=datetime.date(2026, 5, 3), name="Maiturnier", **kwargs)


def test_submit_records_digest_snapshot_uuid_and_audit_row():
    t = _tournament()
    officer = make_user("wr", club=ClubFactory())
    check, data = dsb_export(tournament=t, user=officer)
    file_uuid = check.report.header.file_uuid
    s = tournament_submit(tournament=t, user=officer, data=data, file_uuid=file_uuid)
    t.refresh_from_db()
    assert t.xml_uuid == dsb_xml.tournament_uuid(f"tournament:{t.pk}") == check.report.tournament.uuid
    assert (s.user, s.username, s.file_uuid, len(s.digest)) == (officer, "wr", file_uuid, 64)
    assert [p["surname"] for p in s.snapshot["players"]] == ["Alpha", "Beta", "Gamma"]
    event = AuditEvent.objects.get(action=AuditAction.SUBMIT)
    assert (event.tournament_ref, event.user, event.changes["file_uuid"]) == (t.pk, officer, str(file_uuid))
    # the second export: same digest (header aside), the stored UUID kept, a second row
    check2, data2 = dsb_export(tournament=t)
    s2 = tournament_submit(tournament=t, user=None, data=data2, file_uuid=check2.report.header.file_uuid)
    assert s2.digest == s.digest and s2.file_uuid != s.file_uuid and data2 != data
    assert TournamentSubmission.objects.filter(tournament=t).count() == 2
    assert t.version == Tournament.objects.get(pk=t.pk).version  # an open form stays valid


def test_submit_keeps_a_portal_uuid_out_of_xml_uuid_and_refuses_a_foreign_file_uuid():
    t = _tournament(code="019f75b9-af1b-77c0-8e1a-3c5d2b7f9a10")
    check, data = dsb_export(tournament=t)
    with pytest.raises(ValueError, match="file_uuid"):
        tournament_submit(tournament=t, user=None, data=data, file_uuid=uuid.uuid4())
    assert not TournamentSubmission.objects.exists()
    tournament_submit(tournament=t, user=None, data=data, file_uuid=check.report.header.file_uuid)
    t.refresh_from_db()
    assert t.xml_uuid is None and check.report.tournament.uuid == uuid.UUID(t.code)


def test_announce_before_the_start_only():
    club = ClubFactory()
    officer = make_user("wr", club=club)
    today = datetime.date(2026, 6, 1)
    head = {"name": "Sommeropen", "organiser_club": club, "time_control": "90/40+30+30s", "rounds": 7}
    late = Tournament(start_date=today, end_date=today + datetime.timedelta(days=2), **head)
    with pytest.raises(ValidationError) as exc:
        tournament_announce(tournament=late, user=officer, today=today)
    assert "start_date" in exc.value.error_dict and not Tournament.objects.exists()
    t = Tournament(
        start_date=today + datetime.timedelta(days=10), end_date=today + datetime.timedelta(days=12), **head
    )
    tournament_announce(tournament=t, user=officer, today=today)
    t.refresh_from_db()
    assert t.announced and t.rating_officer == officer
    actions = set(AuditEvent.objects.filter(tournament_ref=t.pk).values_list("action", flat=True))
    assert actions == {AuditAction.CREATE, AuditAction.ANNOUNCE}
