"""``manage.py import_trf FILE [...]``: import tournaments from TRF files (TRF16/TRF26) for scripts.

Exit 0 on success; exit 2 on a bad file, an unknown or ambiguous player (without ``--create-unknown``) or an
unknown organiser; exit 3 when plausibility warnings (spec §17: end date, time control, players, a likely
duplicate) are not confirmed with ``--confirm`` / ``--allow-duplicate``. Nothing is saved on any error: all
files are read and matched first, then checked and saved in one transaction.
"""

from __future__ import annotations

import dataclasses

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ratings.dwz.codes import normalise_code
from ratings.formats.trf import TrfTournament
from ratings.management import plausibility
from ratings.models import Club
from ratings.selectors.plausibility import file_digest
from ratings.selectors.trf_import import (
    Decision,
    TrfImportError,
    attach_stored_ratings,
    decisions_from_matches,
    find_organiser,
    head_from_file,
    problem_text,
    trf_match,
    trf_read,
    trf_warnings,
)
from ratings.services.trf_import import trf_save


class _DryRun(Exception):
    pass


class _Refused(Exception):
    pass


def _non_members(decisions: dict[int, Decision], ranks: list[int]) -> dict[int, Decision]:
    return {r: dataclasses.replace(d, member=False) if r in ranks else d for r, d in decisions.items()}


class Command(BaseCommand):
    help = "Importiert Turniere aus TRF-Dateien (TRF16/TRF26) und berechnet die Wertungen neu."

    def add_arguments(self, parser) -> None:
        parser.add_argument("files", nargs="+", help="TRF files")
        parser.add_argument("--dry-run", action="store_true", help="show the evaluation, save nothing")
        parser.add_argument("--create-unknown", action="store_true", help="create players not found")
        parser.add_argument("--organiser", help="ZPS of the organising club or code of the organisation")
        parser.add_argument(
            "--code", help="tournament code (YYWW-ZZZ-KKK or the DSB portal's UUID); one file only"
        )
        parser.add_argument("--date-order", choices=["dmy", "mdy"], help="how to read dates like 08/04/2018")
        parser.add_argument(
            "--time-control", help="the time control, instead of the file's record 122; one file only"
        )
        plausibility.add_arguments(parser)
        parser.add_argument(
            "--non-member",
            type=int,
            action="append",
            default=[],
            metavar="START_RANK",
            help="this start rank is not a member of a DSB club (WO 3.4.3); repeatable; one file only",
        )

    def handle(self, *args, **options) -> None:  # noqa: C901, PLR0912, PLR0915 -- existing; issue 27
        files = options["files"]
        if options["non_member"] and len(files) > 1:
            raise CommandError("--non-member gilt für eine Datei.", returncode=2)
        if options["code"] and len(files) > 1:
            raise CommandError("--code gilt für eine Datei.", returncode=2)
        if options["time_control"] and len(files) > 1:
            raise CommandError("--time-control gilt für eine Datei.", returncode=2)
        errors: list[str] = []
        organiser = None
        if options["organiser"]:
            try:
                organiser = find_organiser(options["organiser"])
            except TrfImportError as exc:
                raise CommandError("\n".join(exc.messages), returncode=2) from None
        plans = []
        for path in files:
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
                tournament = self.read(data, options)
            except OSError as exc:
                errors.append(f"{path}: {exc.strerror or exc}")
                continue
            except TrfImportError as exc:
                errors += [f"{path}: {m}" for m in exc.messages]
                if exc.ambiguous_date:
                    errors.append(f"{path}: --date-order dmy|mdy")
                continue
            matches = trf_match(tournament)
            head = head_from_file(tournament)
            head.code = normalise_code(options["code"]) if options["code"] else None
            if options["time_control"]:
                head.time_control = options["time_control"][:100]
            attach_stored_ratings(matches, head)
            decisions = decisions_from_matches(matches, create_unknown=options["create_unknown"])
            ranks = {p.start_rank for p in tournament.players}
            errors += [
                f"{path}: --non-member {r}: keine Startnummer der Datei"
                for r in options["non_member"]
                if r not in ranks
            ]
            decisions = _non_members(decisions, options["non_member"])
            for m in matches:
                if m.trf.start_rank in decisions:
                    continue
                label = f"{path}: {m.trf.start_rank:>4} {m.trf.name}"
                if m.candidates:
                    names = "; ".join(f"{c.key} {c.name} ({c.birth_year or '?'})" for c in m.candidates)
                    kind = "mehrdeutig" if len(m.candidates) > 1 else "unsicher (ohne Geburtsjahr)"
                    errors.append(f"{label}: {kind} – {names}")
                else:
                    errors.append(f"{label}: unbekannt")
            plans.append((path, tournament, head, matches, decisions, file_digest(data)))
        if errors:
            raise CommandError("\n".join(errors), returncode=2)
        warned: list[str] = []
        refused = False
        try:
            with transaction.atomic():
                for n, (path, tournament, head, matches, decisions, digest) in enumerate(plans):
                    if n:  # match again: the files before may have created some of this file's players
                        matches = trf_match(tournament)
                        attach_stored_ratings(matches, head)
                        decisions = decisions_from_matches(matches, create_unknown=options["create_unknown"])
                        decisions = _non_members(decisions, options["non_member"])
                        if len(decisions) < len(tournament.players):
                            raise TrfImportError(
                                [
                                    f"{path}: {len(tournament.players) - len(decisions)} Spieler "
                                    "mehrdeutig – bitte einzeln importieren."
                                ]
                            )
                    if isinstance(organiser, Club):
                        head.organiser_club = organiser
                    elif organiser is not None:
                        head.organiser_organisation = organiser
                    # Checked after the files before it are saved: a file given twice is a duplicate too.
                    warnings = trf_warnings(
                        tournament=tournament, head=head, decisions=decisions, digest=digest
                    )
                    warned += plausibility.lines(path, warnings, options)
                    refused = refused or bool(plausibility.unconfirmed(warnings, options))
                    result = trf_save(
                        tournament=tournament, head=head, decisions=decisions, source_digest=digest
                    )
                    if not refused:
                        self._print(path, tournament, matches, result, warned)
                if refused:
                    raise _Refused
                if options["dry_run"]:
                    raise _DryRun
        except _DryRun:
            self.stdout.write(self.style.WARNING("Probelauf: nichts gespeichert."))
        except _Refused:
            self.stderr.write("\n".join(warned))
            raise CommandError(
                "Nicht gespeichert: Warnungen nicht bestätigt.", returncode=plausibility.EXIT_WARNINGS
            ) from None
        except TrfImportError as exc:
            raise CommandError("\n".join(exc.messages), returncode=2) from None

    def read(self, data: bytes, options) -> TrfTournament:
        """The file as the import's intermediate (``import_dsb_xml`` reads DSB-XML here)."""
        return trf_read(data, date_order=options["date_order"] or "")

    def _print(self, path, tournament, matches, result, warned: list[str]) -> None:
        t = result.tournament
        self.stdout.write(self.style.SUCCESS(f"{path}: {t.code or '-'} {t.name} ({t.end_date:%d.%m.%Y})"))
        for line in warned:
            if line.startswith(f"{path}: "):
                self.stdout.write(self.style.WARNING(f"  {line[len(path) + 2 :]}"))
        self.stdout.write(
            f"  {len(tournament.players)} Spieler, {tournament.rounds} Runden, "
            f"{len(tournament.games)} Partien, "
            f"{len(tournament.byes)} Freilose; neue Spieler: {len(result.created)}"
        )
        for m in matches:
            if m.differs:
                self.stdout.write(
                    f"  {m.trf.start_rank:>4} {m.trf.name}: DWZ in der Datei {m.file_dwz}, in dwzsite "
                    f"{m.stored_dwz if m.stored_dwz is not None else '-'}"
                )
        for w in tournament.warnings:
            self.stdout.write(f"  Hinweis: {problem_text(w)}")
        for note in result.notes:
            self.stdout.write(f"  Hinweis: {note}")
        report = result.report
        self.stdout.write(
            f"  neu ausgewertet: {len(report.tournaments)} Turniere, "
            f"{len(report.rating_changes)} DWZ geändert, {report.elapsed:.2f} s"
        )
