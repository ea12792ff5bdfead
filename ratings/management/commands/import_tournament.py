"""``manage.py import_tournament FILE.json [...]``: import tournaments in the JSON contract (spec §13)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ratings.dwz.contract import loads
from ratings.management.output import quiet_stdout
from ratings.services.imports import TournamentFileError, tournament_import, tournament_parse


class _DryRun(Exception):
    pass


class Command(BaseCommand):
    help = "Importiert Turniere im JSON-Format (DWZ-Spezifikation §13) und berechnet die Wertungen neu."

    def add_arguments(self, parser) -> None:
        parser.add_argument("files", nargs="+", help="JSON files")
        parser.add_argument("--dry-run", action="store_true", help="show the evaluation, save nothing")

    def handle(self, *args, **options) -> None:
        parsed, errors = [], []
        for path in options["files"]:
            try:
                with open(path, encoding="utf-8-sig") as fh:  # a UTF-8 BOM is harmless
                    data = loads(fh.read())
                parsed.append(tournament_parse(data, source=path))
            except TournamentFileError as exc:
                errors += exc.messages
            except (OSError, ValueError) as exc:  # also bad UTF-8 and integers beyond 4,300 digits
                errors.append(f"{path}: cannot read JSON: {exc}")
            except RecursionError:
                errors.append(f"{path}: cannot read JSON: malformed JSON: nested too deeply")
        if errors:
            raise CommandError("\n".join(errors), returncode=2)
        results = []
        dry_run = False
        try:
            with transaction.atomic():
                for p in parsed:
                    results.append(tournament_import(parsed=p))
                if options["dry_run"]:
                    raise _DryRun
        except _DryRun:
            dry_run = True
        # Printed after the commit: a reader that goes away ("| head -1") cannot undo the import.
        try:
            for result in results:
                self._print(result)
            if dry_run:
                self.stdout.write(self.style.WARNING("Probelauf: nichts gespeichert."))
            self.stdout.flush()
        except BrokenPipeError:
            quiet_stdout(self.stdout._out)

    def _print(self, result) -> None:
        t = result.tournament
        report = result.report
        self.stdout.write(self.style.SUCCESS(f"{t.code or '-'} {t.name} ({t.end_date:%d.%m.%Y})"))
        for key, name, status, old, new in result.rows:
            self.stdout.write(
                f"  {key:<16} {name:<32} {status:<10} {old if old is not None else '-':>5} → "
                f"{new if new is not None else '-'}"
            )
        if result.created_players:
            self.stdout.write(f"  neue Spieler: {len(result.created_players)}")
        self.stdout.write(
            f"  neu ausgewertet: {len(report.tournaments)} Turniere, "
            f"{len(report.rating_changes)} DWZ geändert, {report.elapsed:.2f} s"
        )
