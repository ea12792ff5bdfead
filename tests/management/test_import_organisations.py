"""``import_organisations``: the organisation tree alone from the command line, with progress and the list
import's report (issue 32); ``import_dsb_list`` takes the same file."""

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from ratings.management.commands.recalculate import ProgressBar
from ratings.models import Club, ListImport, Organisation

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parent.parent / "data" / "dewis-organizations-2019-08-02.csv"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_tree_imports_with_a_report_and_a_record(tmp_path):
    out, report = io.StringIO(), tmp_path / "bericht.csv"
    call_command("import_organisations", str(TREE), "--report", str(report), stdout=out)
    assert Organisation.objects.count() == 199 and Club.objects.count() == 2150
    text = out.getvalue()
    assert "Verbandsbaum: 2349 Zeilen, 2349 angelegt, 0 geändert, 0 unverändert, 0 abgelehnt" in text
    assert "Verbände neu: 199, Vereine neu: 2150" in text
    lines = report.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0] == "Ergebnis,Zeile,Schlüssel,Name,Hinweis" and len(lines) == 2350
    assert lines[1] == "angelegt,2,000,Deutscher Schachbund,"
    record = ListImport.objects.get()
    assert record.generation == "verbandsbaum" and record.exit_code == 0 and record.summary["created"] == 2349
    assert "abgleich" not in record.summary  # a tree has no players to compare


def test_progress_bar_on_a_terminal(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    call_command("import_organisations", str(TREE), "--dry-run", stdout=io.StringIO())
    assert "100% (3/3)" in terminal.getvalue() and "[" in terminal.getvalue()
    assert not Organisation.objects.exists() and not ListImport.objects.exists()  # a dry run saves nothing
    assert ProgressBar(io.StringIO(), "x").enabled is False  # logs stay clean


def test_exit_1_with_rejected_rows_and_2_for_what_is_no_tree(tmp_path):
    bad = tmp_path / "baum.csv"
    bad.write_text("vkz,name,parent_vkz\n000,DSB,\nXYZ1,kaputt,000\n", encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("import_organisations", str(bad), stdout=out)
    assert exc.value.returncode == 1
    assert "Zeile 3: rejected:" in out.getvalue() and Organisation.objects.count() == 1
    players = tmp_path / "spieler.csv"
    players.write_bytes(b"ID,ZPS,Mitgliedsnummer\r\n")
    with pytest.raises(CommandError) as exc:
        call_command("import_organisations", str(players), stdout=io.StringIO())
    assert exc.value.returncode == 2 and "kein Verbandsbaum" in str(exc.value)
    with pytest.raises(CommandError) as exc:
        call_command("import_organisations", str(tmp_path / "fehlt.csv"), stdout=io.StringIO())
    assert exc.value.returncode == 2


def test_import_dsb_list_takes_the_tree_too():
    out = io.StringIO()
    call_command("import_dsb_list", str(TREE), stdout=out)
    assert "Verbandsbaum: 2349 Zeilen, 2349 angelegt" in out.getvalue()
    assert Club.objects.count() == 2150 and ListImport.objects.get().generation == "verbandsbaum"
    with pytest.raises(CommandError) as exc:
        call_command("import_dsb_list", str(TREE), "--umstufung", "2026", stdout=io.StringIO())
    assert exc.value.returncode == 2
