"""``manage.py export_dsb_list -o FILE [--club ZPS | --federation CODE] [--format csv|dos|swiss-chess]``.

The rating list with dwzsite's current DWZ and index in the DSB's shape (a zip with ``spieler.csv`` of header
generation 3b, ``vereine.csv``, ``verbaende.csv``; or the DOS files), which ``import_dsb_list`` reads back, or
the Swiss-Chess player database (``.LST`` + ``.SWX``: a zip, or both files into a folder).
"""

from __future__ import annotations

import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.formats import swiss_chess
from ratings.models import Club, Organisation
from ratings.selectors.dsb_list import list_zip, swiss_chess_files, swiss_chess_zip


class Command(BaseCommand):
    help = "Schreibt die DWZ-Liste (DSB-Format CSV/DOS) oder die Swiss-Chess-Spielerdatei."

    def add_arguments(self, parser) -> None:
        parser.add_argument("-o", "--output", required=True, help="a .zip file, or a folder for swiss-chess")
        scope = parser.add_mutually_exclusive_group()
        scope.add_argument("--club", help="ZPS of one club")
        scope.add_argument("--federation", help="code of a federation (with everything below it)")
        parser.add_argument("--format", choices=["csv", "dos", "swiss-chess"], default="csv")

    def handle(self, *args, **options) -> None:
        club = organisation = None
        if options["club"]:
            club = Club.objects.filter(zps=options["club"].upper()).first()
            if club is None:
                raise CommandError(_("Unbekannter Verein %(zps)s.") % {"zps": options["club"]}, returncode=2)
        if options["federation"]:
            organisation = Organisation.objects.filter(code=options["federation"].upper()).first()
            if organisation is None:
                raise CommandError(
                    _("Unbekannter Verband %(code)s.") % {"code": options["federation"]}, returncode=2
                )
        output = Path(options["output"])
        today = datetime.date.today()
        if options["format"] == "swiss-chess" and not output.name.lower().endswith(".zip"):
            output.mkdir(parents=True, exist_ok=True)
            lst, swx = swiss_chess_files(club=club, organisation=organisation)
            lst_name, swx_name = swiss_chess.file_names(today)
            (output / lst_name).write_bytes(lst)
            (output / swx_name).write_bytes(swx)
            written = [output / lst_name, output / swx_name]
        else:
            if options["format"] == "swiss-chess":
                data = swiss_chess_zip(club=club, organisation=organisation, date=today)
            else:
                data = list_zip(
                    club=club, organisation=organisation, dos=options["format"] == "dos", date=today
                )
            output.write_bytes(data)
            written = [output]
        self.stdout.write(", ".join(str(p) for p in written))
