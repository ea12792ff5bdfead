"""``manage.py import_tournament FILE.json [...]``: import tournaments in the JSON contract (spec §13).

Exit 2 on a bad file; exit 3 when plausibility warnings (spec §17) are not confirmed with ``--confirm`` /
``--allow-duplicate``: every warning of every file is printed and nothing is saved."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ratings.dwz.contract import loads
from ratings.management import plausibility
from ratings.management.output import quiet_stdout
from ratings.selectors.plausibility import file_digest
from ratings.services.imports import TournamentFileError, import_warnings, tournament_import, tournament_parse


class _DryRun(Exception):
    pass


class _Refused(Exception):
    pass


class Command(BaseCommand):
    help = "Importiert Turniere im JSON-Format (DWZ-Spezifikation §13) und berechnet die Wertungen neu."

    def add_arguments(self, parser) -> None:
        parser.add_argument("files", nargs="+", help="JSON files")
        parser.add_argument("--dry-run", action="store_true", help="show the evaluation, save nothing")
        plausibility.add_arguments(parser)

    def handle(self, *args, **options) -> None:  # noqa: C901 -- existing; issue 27
        self._warnings: list[str] = []
        parsed, errors = [], []
        for path in options["files"]:
            try:
                with open(path, "rb") as fh:
                    raw = fh.read()
                data = loads(raw.decode("utf-8-sig"))  # a UTF-8 BOM is harmless
                parsed.append(tournament_parse(data=data, source=path))
                parsed[-1].digest = file_digest(raw)
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
        refused: list[str] = []
        try:
            with transaction.atomic():
                # Each file is checked after the ones before it are saved (a file given twice is a
                # duplicate too); any unconfirmed warning rolls all of them back.
                for p in parsed:
                    warnings = import_warnings(parsed=p)
                    self._warnings += plausibility.lines(p.name, warnings, options)
                    refused += [w.message for w in plausibility.unconfirmed(warnings, options)]
                    results.append(tournament_import(parsed=p))
                if refused:
                    raise _Refused
                if options["dry_run"]:
                    raise _DryRun
        except _DryRun:
            dry_run = True
        except _Refused:
            self.stderr.write("\n".join(self._warnings))
            raise CommandError(
                "Nicht gespeichert: Warnungen nicht bestätigt.", returncode=plausibility.EXIT_WARNINGS
            ) from None
        # Printed after the commit: a reader that goes away ("| head -1") cannot undo the import.
        try:
            for line in self._warnings:
                self.stdout.write(self.style.WARNING(line))
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
