"""``manage.py export_dsb_xml``: the file written and the submission recorded (exit 0); exit 2 with one line
per problem and no file when a check fails; unknown tournament or user."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.formats import dsb_xml
from ratings.models import Player, TournamentSubmission
from tests.builders import make_player, make_tournament, make_user
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _tournament(**kwargs):
    a, b, c = (make_player(surname=n, birth_year=1980 + i) for i, n in enumerate(("Alpha", "Beta", "Gamma")))
    games = [(1, a, b, "1-0"), (2, b, c, "1/2-1/2"), (3, c, a, "0-1")]
    return make_tournament([a, b, c], games, end=datetime.date(2026, 5, 3), name="Maiturnier", **kwargs)


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
