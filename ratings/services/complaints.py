"""Complaints (Reklamation, issue 30 §3): submitted by anyone without an account, routed by scope, worked
through by the officers (open → in progress → done with a note), the reporter mailed when it is done.

Routing, at submission: a tournament's report goes to its rating officer; without one, to the officers of
its organiser (club, then its federation and up the tree); a card's report to the officers of the player's
club (his primary membership), then up the tree; where nobody is found, to the admins. Admins see every
complaint anyway. Every step is an audit row. No rating changes here, so no rating lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.models import (
    Club,
    Complaint,
    ComplaintStatus,
    Membership,
    OfficerScope,
    Organisation,
    Player,
    Tournament,
)
from ratings.models.audit import AuditAction, AuditObjectType
from ratings.permissions import user_scope

from . import audit

if TYPE_CHECKING:
    from .audit import Actor


def _officers(*, club: Club | None = None, organisation: Organisation | None = None) -> list[Any]:
    scopes = OfficerScope.objects.filter(user__is_active=True)
    scopes = scopes.filter(club=club) if club is not None else scopes.filter(organisation=organisation)
    return list(get_user_model().objects.filter(pk__in=scopes.values("user_id")).order_by("pk"))


def _up_the_tree(*, club: Club | None, organisation: Organisation | None) -> tuple[list[Any], str]:
    """The officers of ``club``, else of its federation and the ones above; ([], "") if none has any."""
    if club is not None:
        found = _officers(club=club)
        if found:
            return found, str(club)
        organisation = club.organisation
    seen: set[int] = set()
    while organisation is not None and organisation.pk not in seen:
        seen.add(organisation.pk)
        found = _officers(organisation=organisation)
        if found:
            return found, str(organisation)
        organisation = organisation.parent
    return [], ""


def complaint_routing(
    *, player: Player | None = None, tournament: Tournament | None = None
) -> tuple[list[Any], str]:
    """Who receives a report about ``tournament`` (or else ``player``), and a label of where it went."""
    if tournament is not None:
        officer = tournament.rating_officer
        if officer is not None and officer.is_active:
            return [officer], _("Wertungsreferent des Turniers")
        found, where = _up_the_tree(
            club=tournament.organiser_club, organisation=tournament.organiser_organisation
        )
    elif player is not None:
        membership = Membership.objects.current().filter(player=player).select_related("club__organisation")
        primary = membership.primary_first().first()  # type: ignore[no-untyped-call]
        found, where = _up_the_tree(club=primary.club if primary else None, organisation=None)
    else:
        found, where = [], ""
    if found:
        return found, where
    admins = get_user_model().objects.filter(is_active=True, is_staff=True).order_by("pk")
    return list(admins), _("Administratoren")


def complaint_submit(
    *, name: str, email: str, text: str, player: Player | None = None, tournament: Tournament | None = None
) -> Complaint:
    """A visitor's report, stored and routed (an audit row without user)."""
    name, text = name.strip(), text.strip()
    if not name or not text or not email:
        raise ValidationError(_("Bitte Name, E-Mail und Beschreibung angeben."))
    if player is not None and player.publication_objection:
        context = str(player.public_name)  # nor in the officers' mail subject
    elif player is not None:
        context = str(player.name)
        primary = Membership.objects.current().filter(player=player).select_related("club")
        membership = primary.primary_first().first()  # type: ignore[no-untyped-call]
        if membership is not None:  # the officer sees at once which club the report concerns
            context = f"{context} ({membership.club.name})"
    else:
        context = ""
    if tournament is not None:
        context = f"{tournament.name} ({tournament.code})" if tournament.code else tournament.name
    with transaction.atomic():
        recipients, where = complaint_routing(player=player, tournament=tournament)
        complaint = Complaint.objects.create(
            name=name[:100],
            email=email,
            text=text[:4000],
            player=player,
            tournament=tournament,
            context=context[:250],
            routed_to=str(where)[:250],
        )
        complaint.recipients.set(recipients)
        audit.record(
            user=None,
            action=AuditAction.CREATE,
            object_type=AuditObjectType.COMPLAINT,
            object_id=complaint.pk,
            object_repr=str(complaint),
            player_ref=player.pk if player is not None else None,
            tournament_ref=tournament.pk if tournament is not None else None,
            changes={
                "routed_to": [None, complaint.routed_to],
                "recipients": [None, [u.pk for u in recipients]],
            },
        )
        addresses = sorted({u.email for u in recipients if u.email})
        if addresses:
            transaction.on_commit(lambda: _mail_received(complaint, addresses))
    return complaint


def may_handle(*, user: Actor, complaint: Complaint) -> bool:
    """Staff, or one of the complaint's recipients."""
    if user is None or not user.is_authenticated:
        return False
    if user_scope(user).is_staff:
        return True
    return complaint.recipients.filter(pk=user.pk).exists()


def complaint_update(*, complaint: Complaint, status: str, note: str, user: Actor) -> Complaint:
    """Move ``complaint`` to ``status`` with ``note`` (required to close it); closing mails the reporter the
    note (after the commit). Refused for users it was not routed to (admins excepted)."""
    if not may_handle(user=user, complaint=complaint):
        raise PermissionDenied(_("Diese Reklamation ist nicht an Sie gerichtet."))
    if status not in ComplaintStatus.values:
        raise ValidationError({"status": _("Unbekannter Status.")})
    note = note.strip()
    if status == ComplaintStatus.DONE and not note:
        raise ValidationError({"note": _("Bitte zum Abschluss eine Notiz für den Melder angeben.")})
    with transaction.atomic():
        stored = Complaint.objects.select_for_update().get(pk=complaint.pk)
        before = {"status": stored.status, "note": stored.note}
        stored.status, stored.note = status, note
        closing = status == ComplaintStatus.DONE and before["status"] != ComplaintStatus.DONE
        if closing:
            stored.done_at = timezone.now()
        elif status != ComplaintStatus.DONE:
            stored.done_at = None
        stored.save()
        changes = {k: [v, getattr(stored, k)] for k, v in before.items() if v != getattr(stored, k)}
        if changes:
            audit.record(
                user=user,
                action=AuditAction.UPDATE,
                object_type=AuditObjectType.COMPLAINT,
                object_id=stored.pk,
                object_repr=str(stored),
                player_ref=stored.player_id,
                tournament_ref=stored.tournament_id,
                changes=changes,
            )
        if closing:
            transaction.on_commit(lambda: _mail_done(stored))
    return stored


def _mail_received(complaint: Complaint, addresses: list[str]) -> None:
    """The officers' mail: a new report is in their inbox (the reporter's address stays in the inbox)."""
    inbox = settings.SITE_URL.rstrip("/") + reverse("ratings:officer-complaint", args=[complaint.pk])
    body = render_to_string("ratings/mail/complaint_received.txt", {"complaint": complaint, "url": inbox})
    subject = _("Neue Reklamation #%(pk)d: %(context)s") % {
        "pk": complaint.pk,
        "context": complaint.context or _("ohne Bezug"),
    }
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, addresses)


def _mail_done(complaint: Complaint) -> None:
    """The reporter's mail: his report is done, with the officer's note."""
    body = render_to_string("ratings/mail/complaint_done.txt", {"complaint": complaint})
    subject = _("Ihre Fehlermeldung #%(pk)d ist erledigt") % {"pk": complaint.pk}
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [complaint.email])
