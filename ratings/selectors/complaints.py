"""The officers' inbox of complaints (issue 30 §3): what was routed to a user, everything for admins."""

from __future__ import annotations

from django.db.models import QuerySet

from ratings.models import AuditEvent, Complaint
from ratings.models.audit import AuditObjectType
from ratings.permissions import user_scope


def inbox(*, user, status: str | None = None) -> QuerySet[Complaint]:
    """The complaints routed to ``user`` (all for staff), newest first, optionally of one status."""
    rows = Complaint.objects.select_related("player", "tournament")
    if not user_scope(user).is_staff:
        rows = rows.filter(recipients=user)
    if status:
        rows = rows.filter(status=status)
    return rows.order_by("-created_at", "-pk")


def complaint_for(*, user, pk: int) -> Complaint | None:
    return inbox(user=user).filter(pk=pk).first()


def trail(*, complaint_id: int) -> QuerySet[AuditEvent]:
    """The complaint's audit rows, oldest first."""
    return AuditEvent.objects.filter(object_type=AuditObjectType.COMPLAINT, object_id=complaint_id).order_by(
        "created_at", "pk"
    )
