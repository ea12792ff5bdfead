"""``manage.py export_trf ID|CODE [-o FILE]``: a tournament as TRF26 with GER national-rating lines."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from ratings.models import Tournament
from ratings.selectors.tournament_export import trf_export


class Command(BaseCommand):
    help = "Schreibt ein Turnier als TRF26-Datei (mit GER-Sätzen: DWZ vor dem Turnier, Index, DSB-ID)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("tournament", help="id or tournament code")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, **options) -> None:
        ref = options["tournament"].strip()
        tournament = Tournament.objects.filter(code=ref).first()
        if tournament is None and ref.isascii() and ref.isdecimal() and len(ref) <= 18:
            tournament = Tournament.objects.filter(pk=int(ref)).first()
        if tournament is None:
            raise CommandError(f"Turnier {ref!r} nicht gefunden (ID oder Turniercode).", returncode=2)
        text = trf_export(tournament=tournament)
        if options["output"]:
            try:
                with open(options["output"], "w", encoding="utf-8", newline="") as fh:
                    fh.write(text)
            except OSError as exc:
                raise CommandError(f"{options['output']}: {exc.strerror or exc}", returncode=2) from None
            self.stderr.write(f"{tournament} → {options['output']}")
        else:
            try:
                sys.stdout.write(text)
                sys.stdout.flush()
            except BrokenPipeError:
                pass
