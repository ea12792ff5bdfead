"""``manage.py import_organisations FILE [--dry-run] [--report FILE]``.

Imports the DSB's organisation tree alone: DeWIS' CSV of federations and clubs (``vkz, name, parent_vkz``;
``tests/data/dewis-organizations-2019-08-02.csv``), no players. The same service and report as the DSB list
import (``import_dsb_list``, which takes such a file too): every row created, updated (what changed),
unchanged or rejected. Exit 0 when every row was imported, 1 when some rows were rejected (the others
imported), 2 when the file cannot be used (nothing written). A progress bar on a terminal.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.formats.dsb_list import ListError
from ratings.formats.organisation_tree import read_organisation_tree
from ratings.management.commands.recalculate import ProgressBar
from ratings.models import ListImport, ListImportStatus
from ratings.services.dsb_list import list_limits, organisation_tree_import, report_csv, tree_summary_line

SHOWN = ("updated", "rejected", "warning")


class Command(BaseCommand):
    help = "Importiert den Verbandsbaum (Verbände und Vereine, DeWIS-CSV) ohne Spieler."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="the organisation tree as CSV (vkz, name, parent_vkz)")
        parser.add_argument("--dry-run", action="store_true", help="show the report, save nothing")
        parser.add_argument("--report", help="write the full report (every row) as CSV to this file")

    def handle(self, *args, **options) -> None:
        path = Path(options["path"])
        try:
            if path.stat().st_size > list_limits().uncompressed:
                raise CommandError(_("%(name)s ist zu groß.") % {"name": path.name}, returncode=2)
            tree = read_organisation_tree(path.read_bytes(), path.name)
        except ListError as exc:
            message = _(exc.template) % exc.params if exc.params else _(exc.template)
            raise CommandError(message + " " + _("Nichts importiert."), returncode=2) from exc
        except OSError as exc:
            raise CommandError(f"{options['path']}: {exc}", returncode=2) from exc
        bar = ProgressBar(sys.stderr, _("Import"))
        report = organisation_tree_import(
            tree=tree, dry_run=options["dry_run"], progress=lambda label, done, total: bar(done, total)
        )
        tree_report(self, report, path=str(path), report_file=options["report"])


def tree_report(command: BaseCommand, report, *, path: str, report_file: str | None) -> None:
    """The output of a tree's import (this command's and ``import_dsb_list``'s): the rows worth a look, the
    summary, the ``ListImport`` record, the CSV report; exit 1 when rows were rejected."""
    for item in report.items:
        if item.outcome in SHOWN:
            line = _("Zeile %(line)d") % {"line": item.line} if item.line else "-"
            command.stdout.write(f"{line}: {item.outcome}: {item.key} {item.name} {item.detail}".rstrip())
    command.stdout.write(tree_summary_line(summary=report.summary()))
    if not report.dry_run:
        record(report, path)
    if report_file:
        with open(report_file, "w", encoding="utf-8-sig", newline="") as fh:
            fh.write(report_csv(items=report.items))
    if report.dry_run:
        command.stdout.write(command.style.WARNING(_("Probelauf: nichts gespeichert.")))
    if report.exit_code:
        raise CommandError(_("Einige Zeilen wurden abgelehnt; die übrigen sind importiert."), returncode=1)


def record(report, path: str) -> ListImport:
    """The import as a ``ListImport`` row, as the admin's upload leaves one (without an Abgleich: a tree
    has no players)."""
    return ListImport.objects.create(
        file_name=os.path.basename(os.path.normpath(path))[:255],
        as_of=report.as_of,
        generation=report.generation,
        status=ListImportStatus.DONE,
        done=3,
        total=3,
        exit_code=report.exit_code,
        summary=report.summary(),
        report=[[i.outcome, i.line, i.key, i.name, i.detail] for i in report.items],
        finished_at=timezone.now(),
    )
