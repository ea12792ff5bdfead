"""``manage.py dwz_evaluate FILE.json`` (or ``-`` for stdin): evaluate one tournament, print the result JSON.

A thin wrapper: parsing, validation and serialisation live in the pure ``ratings.dwz.contract``. It needs
no database. Bad input exits with status 2, one message per problem on stderr and nothing on stdout.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from ratings.dwz import evaluate
from ratings.dwz.contract import ContractError, parse_json_text, result_to_json
from ratings.management.output import quiet_stdout


class Command(BaseCommand):
    help = "Evaluates one tournament given as JSON (DWZ spec §13) and prints the result as JSON."
    # No checks: they may touch the database, and this command must run without one.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="input JSON file, or - for stdin")

    def handle(self, *args, **options) -> None:
        path = options["file"]
        try:
            if path == "-":
                text = sys.stdin.read().removeprefix("\ufeff")
            else:
                with open(path, encoding="utf-8-sig") as fh:  # a UTF-8 BOM is harmless
                    text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            self._fail([f"{path}: cannot read: {exc}"])
        try:
            tournament = parse_json_text(text)
        except ContractError as exc:
            self._fail(exc.messages)
        output = json.dumps(result_to_json(evaluate(tournament)), ensure_ascii=False)
        try:
            self.stdout.write(output)
            self.stdout.flush()
        except BrokenPipeError:  # the reader went away ("| head -c 100"): nothing left to do
            quiet_stdout(self.stdout._out)

    def _fail(self, messages: list[str]) -> None:
        for message in messages:
            self.stderr.write(message)
        sys.exit(2)
