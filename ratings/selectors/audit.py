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


# The audit rows of a tournament's saves: each holds the state the save left (its snapshot, with the version).
SAVE_ACTIONS = (AuditAction.CREATE, AuditAction.UPDATE, AuditAction.RESTORE)


def _saves(tournament_id: int | None):
    return AuditEvent.objects.filter(
        object_type=AuditObjectType.TOURNAMENT, tournament_ref=tournament_id, action__in=SAVE_ACTIONS
    ).exclude(snapshot=None)


def save_event(*, tournament_id: int, version: int) -> AuditEvent | None:
    """The audit row of the save that made ``version`` of a tournament (None if there is none)."""
    return _saves(tournament_id).filter(snapshot__version=version).order_by("-pk").first()


def tournament_save(*, tournament_id: int, pk: int) -> AuditEvent | None:
    """The save row ``pk`` of a tournament (None if it is none of its saves)."""
    return _saves(tournament_id).filter(pk=pk).first()


def version_before(*, event: AuditEvent) -> AuditEvent | None:
    """The audit row holding the state a tournament had before the save ``event`` recorded: the save of the
    version before it (None for a creation, a restored deletion or a row without a snapshot)."""
    version = (event.snapshot or {}).get("version")
    if (
        event.object_type != AuditObjectType.TOURNAMENT
        or event.action not in (AuditAction.UPDATE, AuditAction.RESTORE)
        or not isinstance(version, int)
        or version < 2
    ):
        return None
    if not event.tournament_ref:
        return None
    return save_event(tournament_id=event.tournament_ref, version=version - 1)


def restorable_saves(*, tournament_id: int) -> set[int]:
    """The pks of a tournament's save rows whose version before is stored (a "Fassung davor
    wiederherstellen" link each); one query."""
    rows = list(_saves(tournament_id).values_list("pk", "action", "snapshot__version"))
    versions = {v for _pk, _action, v in rows if isinstance(v, int)}
    return {
        pk
        for pk, action, v in rows
        if action != AuditAction.CREATE and isinstance(v, int) and v >= 2 and v - 1 in versions
    }
