"""Memberships with history: every write of a membership goes through this module.

A membership ends (``valid_until``) instead of being deleted, so the club pages and the player card keep
the history; a player's status (A/P) follows his current memberships (A over P, formats.md §3.2).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import transaction

from ratings.enums import PlayerStatus
from ratings.models import Evaluation, Membership, Player

from .adjustments import player_recalculate


def players_status_sync(player_ids: Iterable[int]) -> int:
    """Set each player's status from his current memberships: A if one is active, else P if he has one.

    Players without a current membership keep their status. Returns the number of players changed.
    """
    ids = set(player_ids)
    if not ids:
        return 0
    best: dict[int, str] = {}
    ordered = list(ids)
    for i in range(0, len(ordered), 900):
        rows = Membership.objects.current().filter(player_id__in=ordered[i : i + 900])
        for player_id, status in rows.values_list("player_id", "status"):
            if status == PlayerStatus.ACTIVE or player_id not in best:
                best[player_id] = (
                    PlayerStatus.ACTIVE if status == PlayerStatus.ACTIVE else PlayerStatus.PASSIVE
                )
    changed = 0
    for status in (PlayerStatus.ACTIVE, PlayerStatus.PASSIVE):
        pks = [pk for pk, s in best.items() if s == status]
        for i in range(0, len(pks), 900):
            changed += (
                Player.objects.filter(pk__in=pks[i : i + 900]).exclude(status=status).update(status=status)
            )
    return changed


def membership_save(*, membership: Membership, user=None) -> None:
    """Validate and save a membership, then bring the player's status and (if he just became a member of a
    DSB club with tournaments behind him) his Restpartien up to date."""
    with transaction.atomic():
        was_member = (
            Membership.objects.filter(player_id=membership.player_id).exclude(pk=membership.pk).exists()
        )
        membership.full_clean()
        membership.save()
        players_status_sync([membership.player_id])
        if not was_member and Evaluation.objects.filter(player_id=membership.player_id).exists():
            player_recalculate(player=membership.player)


def membership_end(*, membership: Membership, until: datetime.date, user=None) -> None:
    """End a membership on ``until`` (it stays in the history)."""
    with transaction.atomic():
        membership.valid_until = until
        membership.full_clean()
        membership.save(update_fields=["valid_until"])
        players_status_sync([membership.player_id])
