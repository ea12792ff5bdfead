"""``manage.py import_dsb_list PATH [--as-of YYYY-MM-DD] [--dry-run] [--umstufung 2026] [--report FILE]``.

Imports the DSB's DWZ list (a zip, a folder or a single spieler.csv / SPIELER.TXT). Exit 0 when every row
was imported, 1 when some rows were rejected (the others imported), 2 when the list cannot be used (nothing
written).

After an import (not a dry run) the import is recorded as a ``ListImport`` row, as the admin's upload leaves
one, and its Abgleich is stored with it (``docs/dsb-list.md``); the last line of the output counts it.
"""

from __future__ import annotations

import datetime
import os
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.formats.dsb_list import DsbList, ListError, read_list
from ratings.formats.organisation_tree import GENERATION as TREE_GENERATION
from ratings.management.commands.import_organisations import tree_report
from ratings.management.commands.recalculate import ProgressBar
from ratings.models import ListImport, ListImportStatus
from ratings.services.dsb_list import (
    UMSTUFUNG_DATE,
    dsb_list_import,
    list_import_compare,
    list_limits,
    report_csv,
)
from ratings.services.official_comparison import abgleich_line

SHOWN = ("rejected", "difference", "warning", "ended")


class Command(BaseCommand):
    help = "Importiert die DWZ-Liste des DSB (Zip, Ordner oder spieler.csv)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="LV-x-csv.zip, LV-x-dos.zip, a folder or spieler.csv")
        parser.add_argument(
            "--as-of", dest="as_of", help="date of the list (YYYY-MM-DD); default: the zip's date"
        )
        parser.add_argument("--dry-run", action="store_true", help="show the report, save nothing")
        parser.add_argument(
            "--umstufung",
            choices=["2026"],
            help="record each player's value as the 'Umstufung 2026' adjustment dated 2026-06-08",
        )
        parser.add_argument("--report", help="write the full report (every row) as CSV to this file")

    def handle(self, *args, **options) -> None:
        as_of = None
        if options["as_of"] is not None:
            try:
                as_of = datetime.date.fromisoformat(options["as_of"])
            except ValueError as exc:
                raise CommandError(
                    _("--as-of: kein Datum im Format YYYY-MM-DD: %(value)r") % {"value": options["as_of"]},
                    returncode=2,
                ) from exc
        umstufung = options["umstufung"] == "2026"
        if umstufung and as_of not in (None, UMSTUFUNG_DATE):
            raise CommandError(_("--umstufung 2026 gilt für den Stand 2026-06-08."), returncode=2)
        dsb_list = _read(options["path"])
        if umstufung and dsb_list.generation == TREE_GENERATION:
            raise CommandError(
                _("--umstufung 2026 gilt für eine DWZ-Liste, nicht den Verbandsbaum."), returncode=2
            )
        bar = ProgressBar(sys.stderr, _("Import"))
        report = dsb_list_import(
            dsb_list=dsb_list,
            as_of=as_of,
            dry_run=options["dry_run"],
            umstufung=umstufung,
            progress=lambda label, done, total: bar(done, total),
        )
        if report.generation == TREE_GENERATION:  # the organisation tree alone: import_organisations' output
            tree_report(self, report, path=options["path"], report_file=options["report"])
            return
        for item in report.items:
            if item.outcome in SHOWN:
                line = _("Zeile %(line)d") % {"line": item.line} if item.line else "-"
                self.stdout.write(f"{line}: {item.outcome}: {item.key} {item.name} {item.detail}".rstrip())
        s = report.summary()
        self.stdout.write(
            _(
                "Liste vom %(date)s (Format %(generation)s): %(rows)d Zeilen, %(created)d angelegt, "
                "%(updated)d geändert, %(unchanged)d unverändert, %(rejected)d abgelehnt."
            )
            % {**s, "date": report.as_of.strftime("%d.%m.%Y")}
        )
        self.stdout.write(
            _(
                "Spieler: %(players_created)d neu, %(players_updated)d geändert; "
                "Vereine neu: %(clubs_created)d; Mitgliedschaften: %(memberships_created)d neu, "
                "%(memberships_ended)d beendet; Startwerte: %(start_values)d; Umstufung: %(adjustments)d; "
                "DWZ weicht ab: %(differences)d; neu ausgewertet: %(tournaments_recalculated)d Turniere "
                "(%(elapsed).1f s)."
            )
            % s
        )
        if not report.dry_run:
            self.stdout.write(_record(report, options["path"], umstufung=umstufung))
        if options["report"]:
            with open(options["report"], "w", encoding="utf-8-sig", newline="") as fh:
                fh.write(report_csv(items=report.items))
        if report.dry_run:
            self.stdout.write(self.style.WARNING(_("Probelauf: nichts gespeichert.")))
        if report.exit_code:
            raise CommandError(
                _("Einige Zeilen wurden abgelehnt; die übrigen sind importiert."), returncode=1
            )


def _read(path: str) -> DsbList:
    try:
        return read_list(path, limits=list_limits())
    except ListError as exc:
        message = _(exc.template) % exc.params if exc.params else _(exc.template)
        raise CommandError(message + " " + _("Nichts importiert."), returncode=2) from exc
    except OSError as exc:
        raise CommandError(f"{path}: {exc}", returncode=2) from exc


def _record(report, path: str, *, umstufung: bool) -> str:
    """The import as a ``ListImport`` row, as the admin's upload leaves one (the officers' Abgleich page
    lists the imports), with its Abgleich stored; returns the Abgleich's line of the report."""
    summary = report.summary()
    list_import = ListImport.objects.create(
        file_name=os.path.basename(os.path.normpath(path))[:255],
        as_of=report.as_of,
        generation=report.generation,
        umstufung=umstufung,
        status=ListImportStatus.RUNNING,
        done=7,
        total=7,
        summary=summary,
    )
    summary["abgleich"] = list_import_compare(list_import=list_import)
    list_import.status = ListImportStatus.DONE
    list_import.exit_code = report.exit_code
    list_import.summary = summary
    list_import.report = [[i.outcome, i.line, i.key, i.name, i.detail] for i in report.items]
    list_import.finished_at = timezone.now()
    list_import.save()
    return (
        abgleich_line(counts=summary["abgleich"])
        or _("Abgleich fehlgeschlagen: %(error)s") % summary["abgleich"]
    )
