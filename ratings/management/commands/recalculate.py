"""``manage.py recalculate [--from DATE] [--verify] [--no-reuse]``: replay the ratings chronologically
(spec §9)."""

from __future__ import annotations

import datetime
import sys

from django.core.management.base import BaseCommand, CommandError

from ratings.recalculation import ratings_verify, recalculate


class ProgressBar:
    """A small progress bar on stderr (only on a terminal, so logs stay clean)."""

    def __init__(self, stream, label: str) -> None:
        self.stream, self.label, self.last = stream, label, -1
        self.enabled = hasattr(stream, "isatty") and stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total == 0:
            return
        percent = done * 100 // total
        if percent != self.last:
            self.last = percent
            bar = "#" * (percent // 4)
            self.stream.write(f"\r{self.label} [{bar:<25}] {percent:3d}% ({done}/{total})")
            if done == total:
                self.stream.write("\n")
            self.stream.flush()


class Command(BaseCommand):
    help = "Berechnet alle DWZ chronologisch neu (oder ab einem Datum); --verify prüft nur."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--from", dest="since", help="replay only from this date (YYYY-MM-DD)")
        parser.add_argument(
            "--verify",
            action="store_true",
            help="compare the stored state with a replay from scratch; exit 1 on differences",
        )
        parser.add_argument(
            "--no-reuse",
            dest="reuse",
            action="store_false",
            help="evaluate every tournament, also those whose stored rows their digest certifies",
        )

    def handle(self, *args, **options) -> None:
        if options["verify"]:
            problems = ratings_verify(progress=ProgressBar(sys.stderr, "Prüfung"))
            for problem in problems:
                self.stdout.write(problem)
            if problems:
                raise CommandError(f"{len(problems)} gespeicherte Werte weichen ab.", returncode=1)
            self.stdout.write(self.style.SUCCESS("Gespeicherter Stand = Neuberechnung."))
            return
        since = None
        if options["since"] is not None:  # an empty --from '' is an error, not "everything"
            try:
                since = datetime.date.fromisoformat(options["since"])
            except ValueError as exc:
                raise CommandError(
                    f"--from: kein Datum im Format YYYY-MM-DD: {options['since']!r}", returncode=2
                ) from exc
        report = recalculate(
            since=since, progress=ProgressBar(sys.stderr, "Neuberechnung"), reuse=options["reuse"]
        )
        rate = report.evaluations / report.elapsed if report.elapsed else 0
        reused = f" (davon {report.reused} unverändert übernommen)" if report.reused else ""
        self.stdout.write(
            self.style.SUCCESS(
                f"{len(report.tournaments)} Turniere, {report.evaluations} Auswertungen{reused} in "
                f"{report.elapsed:.2f} s ({rate:,.0f}/s); {len(report.rating_changes)} DWZ geändert."
            )
        )
