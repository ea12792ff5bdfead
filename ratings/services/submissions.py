"""A tournament's way to the DSB: its announcement before the start and its submissions (the DSB XML export).

Neither changes a rating; both take the rating lock first like every write (one order of locks), record an
audit row, and never bump the tournament's version (an officer's open form stays valid).
"""

from __future__ import annotations

import datetime
import uuid
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ratings import permissions
from ratings.formats import dsb_xml
from ratings.formats.dsb_xml_snapshot import report_snapshot, snapshot_digest
from ratings.models import Tournament, TournamentSubmission
from ratings.models.audit import AuditAction, AuditObjectType
from ratings.recalculation import RecalculationReport, lock_ratings

from . import audit
from .tournaments import tournament_create

if TYPE_CHECKING:
    from .audit import Actor


def _is_portal_uuid(code: str | None) -> bool:
    try:
        uuid.UUID((code or "").strip())
    except ValueError:
        return False
    return True


def tournament_submit(
    *, tournament: Tournament, user: Actor, data: bytes, file_uuid: uuid.UUID
) -> TournamentSubmission:
    """Record that ``data`` (the DSB XML report just exported, ``file_uuid`` its header's) went to the DSB:
    the submission with its digest and snapshot, the tournament's ``xml_uuid`` at its first export (unless
    its code is a portal UUID), and an audit row "eingereicht"."""
    report = dsb_xml.parse(data)  # the bytes as sent: what the snapshot holds is what the DSB got
    if report.header.file_uuid != file_uuid:
        raise ValueError("file_uuid is not the file's")
    snapshot = report_snapshot(report)
    digest = snapshot_digest(snapshot)
    stored_user = audit.stored_user(user=user)
    with transaction.atomic():
        lock_ratings()
        stored = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if stored is None:
            raise Tournament.DoesNotExist(tournament.pk)
        if stored.xml_uuid is None and not _is_portal_uuid(stored.code):
            Tournament.objects.filter(pk=stored.pk).update(xml_uuid=report.tournament.uuid)
            tournament.xml_uuid = report.tournament.uuid
        submission = TournamentSubmission.objects.create(
            tournament=stored,
            user=stored_user,
            username=stored_user.get_username() if stored_user is not None else "",
            file_uuid=file_uuid,
            digest=digest,
            snapshot=snapshot,
        )
        audit.record(
            user=user,
            action=AuditAction.SUBMIT,
            object_type=AuditObjectType.TOURNAMENT,
            object_id=stored.pk,
            object_repr=str(stored),
            tournament_ref=stored.pk,
            changes={"file_uuid": str(file_uuid), "digest": digest},
        )
    return submission


def tournament_announce(
    *, tournament: Tournament, mode: str | None = None, user: Actor = None, today: datetime.date | None = None
) -> RecalculationReport:
    """Save a new tournament's head as announced before its start (WO 7.6): no participants, no games; an
    audit row "angemeldet" beside the "angelegt" one. Entering its results later moves it on."""
    if tournament.start_date <= (today or permissions.today()):
        raise ValidationError(
            {"start_date": _("Anmelden lässt sich ein Turnier nur vor seinem Beginn.")}, code="started"
        )
    tournament.announced = True
    with transaction.atomic():
        report = tournament_create(tournament=tournament, entries=[], games=[], mode=mode, user=user)
        audit.record(
            user=user,
            action=AuditAction.ANNOUNCE,
            object_type=AuditObjectType.TOURNAMENT,
            object_id=tournament.pk,
            object_repr=str(tournament),
            tournament_ref=tournament.pk,
        )
    return report
