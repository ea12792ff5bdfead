"""The audit trail of a tournament or a player, newest first."""

from ratings.models.audit import AuditEvent


def audit_trail(*, tournament_id: int | None = None, player_id: int | None = None, limit: int = 50):
    qs = AuditEvent.objects.select_related("user")
    if tournament_id is not None:
        qs = qs.filter(tournament_ref=tournament_id)
    if player_id is not None:
        qs = qs.filter(player_ref=player_id)
    return list(qs[:limit])
