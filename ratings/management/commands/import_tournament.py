"""``manage.py import_tournament FILE.json [...]``: import tournaments in the JSON contract (spec §13)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

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
                    data = json.load(fh)
                parsed.append(tournament_parse(data, source=path))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                errors.append(f"{path}: cannot read JSON: {exc}")
            except RecursionError:
                errors.append(f"{path}: cannot read JSON: malformed JSON: nested too deeply")
            except TournamentFileError as exc:
                errors += exc.messages
        if errors:
            raise CommandError("\n".join(errors), returncode=2)
        try:
            with transaction.atomic():
                for p in parsed:
                    result = tournament_import(parsed=p)
                    self._print(result)
                if options["dry_run"]:
                    raise _DryRun
        except _DryRun:
            self.stdout.write(self.style.WARNING("Probelauf: nichts gespeichert."))

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
