"""``manage.py export_ratings --format json|csv``: the current rating list."""

from __future__ import annotations

import csv
import json
from typing import Any

from django.core.management.base import BaseCommand

from ratings.exports import spreadsheet_safe
from ratings.management.output import quiet_stdout
from ratings.selectors.lists import rating_list

FIELDS = ["id", "name", "club", "dwz", "index", "last_evaluation"]


class Command(BaseCommand):
    help = "Gibt die aktuelle DWZ-Liste als JSON oder CSV aus."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--all", action="store_true", help="also players without a DWZ")

    def handle(self, *args, **options) -> None:
        rows = []
        players = rating_list() if options["all"] else rating_list().rated()
        p: Any  # a player with the list's club columns (annotations django-stubs cannot see)
        for p in players:
            rows.append(
                {
                    "id": p.key,
                    "name": p.name,
                    "club": p.club_zps,
                    "dwz": p.dwz,
                    "index": p.index,
                    "last_evaluation": p.last_evaluated.isoformat() if p.last_evaluated else None,
                }
            )
        try:
            if options["format"] == "json":
                self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1))
            else:
                writer = csv.DictWriter(self.stdout, fieldnames=FIELDS, lineterminator="\n")
                writer.writeheader()
                writer.writerows({k: spreadsheet_safe(v) for k, v in row.items()} for row in rows)
            self.stdout.flush()
        except BrokenPipeError:
            # The reader has gone (``export_ratings | head``): stop quietly. Point stdout at /dev/null so
            # the interpreter's final flush of what is still buffered raises no second BrokenPipeError.
            quiet_stdout(getattr(self.stdout, "_out", None))
