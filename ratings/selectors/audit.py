"""The audit trail of a tournament or a player, newest first."""

from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType


def audit_trail(*, tournament_id: int | None = None, player_id: int | None = None, limit: int = 50):
    qs = AuditEvent.objects.select_related("user")
    if tournament_id is not None:
        qs = qs.filter(tournament_ref=tournament_id)
    if player_id is not None:
        qs = qs.filter(player_ref=player_id)
    return list(qs[:limit])


def tournament_events_since(*, tournament_id: int, version: int) -> list[AuditEvent]:
    """The audit rows of the saves that made the versions after ``version``, oldest first."""
    return list(
        AuditEvent.objects.select_related("user")
        .filter(
            object_type=AuditObjectType.TOURNAMENT,
            tournament_ref=tournament_id,
            snapshot__version__gt=version,
        )
        .order_by("created_at", "pk")
    )


def tournament_deleted(*, tournament_id: int) -> bool:
    return AuditEvent.objects.filter(
        object_type=AuditObjectType.TOURNAMENT, object_id=tournament_id, action=AuditAction.DELETE
    ).exists()
