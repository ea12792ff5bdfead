"""Submissions and announcements: the service records what was sent (digest, snapshot, xml_uuid at the
first export, audit rows); the export_dsb_xml command's exit codes; no file on failure."""

import datetime
import io
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.formats import dsb_xml
from ratings.models import AuditEvent, Player, Tournament, TournamentSubmission
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


# --- the command ----------------------------------------------------------------------------------------


def test_command_writes_the_file_and_records_the_submission(tmp_path):
    t = _tournament()
    make_user("wr", club=ClubFactory())
    out = tmp_path / "t.xml"
    err = io.StringIO()
    call_command("export_dsb_xml", str(t.pk), "-o", str(out), "--user", "wr", stderr=err)
    report = dsb_xml.parse(out.read_bytes())
    assert report.tournament.label == "Maiturnier" and len(report.players) == 3
    s = TournamentSubmission.objects.get()
    assert s.file_uuid == report.header.file_uuid and s.username == "wr"
    assert "→" in err.getvalue()


def test_command_refuses_with_one_line_per_problem_and_writes_nothing(tmp_path):
    t = _tournament()
    Player.objects.filter(surname__in=("Alpha", "Gamma")).update(birth_year=None)
    out = tmp_path / "t.xml"
    err = io.StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("export_dsb_xml", str(t.pk), "-o", str(out), stderr=err)
    assert exc.value.returncode == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 2 and all("hat kein Geburtsjahr" in line for line in lines)
    assert "Alpha" in lines[0] and "Gamma" in lines[1]
    assert not out.exists() and list(tmp_path.iterdir()) == []
    assert not TournamentSubmission.objects.exists()


@pytest.mark.parametrize(
    ("args", "message"), [(["9999"], "nicht gefunden"), (["--user", "nobody"], "Benutzer")]
)
def test_command_unknown_tournament_or_user(args, message):
    t = _tournament()
    argv = args if args[0] != "--user" else [str(t.pk), *args]
    with pytest.raises(CommandError, match=message) as exc:
        call_command("export_dsb_xml", *argv)
    assert exc.value.returncode == 2


def test_command_by_code_to_standard_output(capsysbinary):
    t = _tournament(code="C524-C05-VM1")
    call_command("export_dsb_xml", "C524-C05-VM1")
    data = capsysbinary.readouterr().out
    assert dsb_xml.parse(data).tournament.label == t.name
