"""``manage.py export_dsb_xml ID|CODE [-o FILE] [--user USERNAME]``: a tournament as the DSB's XML report 2.5.

Exit 0 with the file written (standard output without ``-o``) and the submission recorded; exit 2 with one
line per problem and no file written when a check fails (a player without a birth year, start numbers twice,
a game with an unlisted player).
"""

from __future__ import annotations

import os
import sys
import tempfile

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from ratings.models import Tournament
from ratings.selectors.dsb_xml_export import dsb_export
from ratings.services.submissions import tournament_submit


def _write_atomically(path: str, data: bytes) -> None:
    """The whole file or none: written beside the target, then renamed over it."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".dsb-xml-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class Command(BaseCommand):
    help = "Schreibt ein Turnier als DSB-XML-Bericht 2.5 und vermerkt die Einreichung."

    def add_arguments(self, parser) -> None:
        parser.add_argument("tournament", help="id or tournament code")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")
        parser.add_argument("--user", help="the sending officer's user name (sender, audit trail)")

    def _tournament(self, ref: str) -> Tournament:
        tournament = Tournament.objects.filter(code=ref).first()
        if tournament is None and ref.isascii() and ref.isdecimal() and len(ref) <= 18:
            tournament = Tournament.objects.filter(pk=int(ref)).first()
        if tournament is None:
            raise CommandError(f"Turnier {ref!r} nicht gefunden (ID oder Turniercode).", returncode=2)
        return tournament

    def _user(self, username: str | None):
        if not username:
            return None
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"Benutzer {username!r} nicht gefunden.", returncode=2)
        return user

    def handle(self, *args, **options) -> None:
        tournament = self._tournament(options["tournament"].strip())
        user = self._user(options["user"])
        check, data = dsb_export(tournament=tournament, user=user)
        if data is None:
            for line in check.blocking:
                self.stderr.write(line)
            raise CommandError(f"{len(check.blocking)} Problem(e): keine Datei geschrieben.", returncode=2)
        for line in check.advice:
            self.stderr.write(f"Hinweis: {line}")
        if options["output"]:
            try:
                _write_atomically(options["output"], data)
            except OSError as exc:
                raise CommandError(f"{options['output']}: {exc.strerror or exc}", returncode=2) from None
        else:
            try:
                sys.stdout.buffer.write(data)
                sys.stdout.flush()
            except BrokenPipeError:
                pass
        tournament_submit(
            tournament=tournament, user=user, data=data, file_uuid=check.report.header.file_uuid
        )
        if options["output"]:
            self.stderr.write(f"{tournament} → {options['output']}")
