"""``manage.py import_dsb_xml FILE [...]``: import tournaments from DSB tournament reports (XML 2.5,
formats.md §3.10), as CLM and the NSV's league manager write them.

The same import as ``import_trf`` (the file is converted to its intermediate by
``ratings.formats.dsb_xml_trf.to_trf``): the same matching (DSB id, ZPS + member number, name + birth year,
umlaut-insensitive: ``Mueller, Joerg`` is ``Müller, Jörg``), options, messages and exit codes: 0 on success;
2 on a bad file (every problem with its line and element), an unknown or ambiguous player (without
``--create-unknown``) or an unknown organiser; 3 when plausibility warnings are not confirmed with
``--confirm`` / ``--allow-duplicate``. Nothing is saved on any error (all files in one transaction).
"""

from __future__ import annotations

from ratings.formats.trf import TrfTournament
from ratings.management import plausibility
from ratings.selectors.trf_import import xml_read

from .import_trf import Command as TrfCommand


class Command(TrfCommand):
    help = "Importiert Turniere aus DSB-XML-Turnierberichten (Version 2.5) und berechnet die Wertungen neu."

    def add_arguments(self, parser) -> None:
        parser.add_argument("files", nargs="+", help="DSB-XML files (DSB_DWZ_TournamentReport 2.5)")
        parser.add_argument("--dry-run", action="store_true", help="show the evaluation, save nothing")
        parser.add_argument("--create-unknown", action="store_true", help="create players not found")
        parser.add_argument("--organiser", help="ZPS of the organising club or code of the organisation")
        parser.add_argument(
            "--code", help="tournament code (YYWW-ZZZ-KKK or the DSB portal's UUID); one file only"
        )
        parser.add_argument("--time-control", help="the time control, instead of the file's; one file only")
        plausibility.add_arguments(parser)
        parser.add_argument(
            "--non-member",
            type=int,
            action="append",
            default=[],
            metavar="START_NUMBER",
            help="this start number is not a member of a DSB club (WO 3.4.3); repeatable; one file only",
        )
        parser.set_defaults(date_order="")

    def read(self, data: bytes, options) -> TrfTournament:
        return xml_read(data)
