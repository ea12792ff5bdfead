"""``manage.py import_league FILE.json [--dry-run] [--draft]``: a division in the league contract
(``leagues.core.contract``), all or nothing. Exit 2 on a bad file, every problem naming its JSON path
(``matches[3].boards[2].away: ...``). Evaluates the division unless ``--draft``."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from leagues.core.contract import ContractError, parse_json_text
from leagues.selectors.checks import division_checks
from leagues.services.league_import import DryRun, LeagueImportResult, league_import


class Command(BaseCommand):
    help = "Importiert eine Staffel (Mannschaftskämpfe) im JSON-Format und wertet sie aus."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="JSON file")
        parser.add_argument("--dry-run", action="store_true", help="check and show, save nothing")
        parser.add_argument(
            "--draft", action="store_true", help="keep the DWZ tournament a draft (no evaluation)"
        )

    def handle(self, *args, **options) -> None:
        path = options["file"]
        try:
            with open(path, "rb") as fh:
                text = fh.read().decode("utf-8-sig")
        except (OSError, ValueError) as exc:
            raise CommandError(f"{path}: cannot read: {exc}", returncode=2) from None
        try:
            league = parse_json_text(text)
            result = league_import(league=league, draft=options["draft"], dry_run=options["dry_run"])
            dry = False
        except ContractError as exc:
            raise CommandError("\n".join(f"{path}: {m}" for m in exc.messages), returncode=2) from None
        except DryRun as run:
            result, dry = run.result, True
        self._print(result)
        if not dry:
            for line in division_checks(division=result.division):
                self.stdout.write(self.style.WARNING(f"  Warnung: {line}"))
        if dry:
            self.stdout.write(self.style.WARNING("Probelauf: nichts gespeichert."))

    def _print(self, result: LeagueImportResult) -> None:
        d = result.division
        self.stdout.write(self.style.SUCCESS(f"{d.name} {d.season.name}"))
        self.stdout.write(f"  Mannschaftskämpfe: {result.matches}, Bretter: {result.boards}")
        if result.created_players:
            self.stdout.write(f"  neue Spieler: {len(result.created_players)}")
        self.stdout.write(
            f"  ausgewertet: {result.evaluated_parts} Teil(e)"
            if result.evaluated_parts
            else "  Entwurf (nicht ausgewertet)"
        )
