"""Privacy (issue 30 §4): a player's objection to publication, set by an officer or admin on his request.

The flag only changes what public pages, exports and the API show ("nicht veröffentlicht" instead of his
name and history); no rating depends on it, so no lock and no recalculation: the player stays in every
calculation. Each change is one audit row on the player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from ratings.generation import bump_generation
from ratings.models import AuditEvent, Player
from ratings.models.audit import AuditAction, AuditObjectType
from ratings.permissions import can_manage_player

from . import audit

if TYPE_CHECKING:
    from .audit import Actor


def player_publication_set(
    *, player: Player, objection: bool, user: Actor, note: str = ""
) -> AuditEvent | None:
    """Record (``objection`` True) or withdraw the player's objection to publication; None when it was
    already so. Only an officer of one of his clubs or an admin may."""
    if user is None or not can_manage_player(user, player):
        raise PermissionDenied(_("Dieser Spieler liegt außerhalb Ihres Bereichs."))
    with transaction.atomic():
        stored = Player.objects.select_for_update().get(pk=player.pk)
        if stored.publication_objection == objection:
            player.publication_objection = objection
            return None
        Player.objects.filter(pk=player.pk).update(publication_objection=objection)
        # Public pages show him differently from now on: cached copies must go (an update fires no signal).
        bump_generation()
        player.publication_objection = objection
        changes: dict[str, list[object]] = {"publication_objection": [not objection, objection]}
        if note.strip():
            changes["note"] = [None, note.strip()[:500]]
        return audit.record(
            user=user,
            action=AuditAction.UPDATE,
            object_type=AuditObjectType.PLAYER,
            object_id=player.pk,
            object_repr=player.name,
            player_ref=player.pk,
            changes=changes,
        )
