"""Ratings set outside tournaments: start values and dated adjustments."""

from __future__ import annotations

from django.db import transaction

from ratings.dwz.replay import adjustment_order, day_start
from ratings.enums import AdjustmentKind
from ratings.models import Player, RatingAdjustment

from . import audit
from .recalculation import (
    END_OF_TIME,
    Changes,
    RecalculationReport,
    earliest,
    lock_ratings,
    player_first_event,
    recalculate_changes,
)


def _position(adjustment: RatingAdjustment):
    if adjustment.kind == AdjustmentKind.START:
        return player_first_event(adjustment.player_id) or day_start(END_OF_TIME)
    assert adjustment.date is not None  # a dated kind (the model's constraint)
    return adjustment_order(adjustment.date, adjustment.pk)


def adjustment_save(*, adjustment: RatingAdjustment, user=None) -> RecalculationReport:
    """Validate and save a start value or dated adjustment, then recalculate from its (old or new) date."""
    with transaction.atomic():
        lock_ratings()
        old = RatingAdjustment.objects.filter(pk=adjustment.pk).first() if adjustment.pk else None
        if adjustment.author_id is None and getattr(user, "pk", None):
            adjustment.author = user
        if adjustment.kind == AdjustmentKind.START:
            adjustment.date = None
        adjustment.full_clean()
        adjustment.save()
        starts = {a.player_id for a in (old, adjustment) if a is not None and a.kind == AdjustmentKind.START}
        dated = [a for a in (old, adjustment) if a is not None and a.kind != AdjustmentKind.START]
        players = {a.player_id for a in (old, adjustment) if a is not None}
        since = earliest(*(_position(a) for a in (old, adjustment) if a is not None))
        report = recalculate_changes(
            Changes(
                since=since,
                reset=starts,
                dirty=players - starts,
                adjustments=[adjustment.pk] if dated else [],
            )
        )
        audit.record_adjustment(
            adjustment=adjustment,
            user=user,
            action=audit.AuditAction.UPDATE if old else audit.AuditAction.CREATE,
            before=audit.adjustment_snapshot(old) if old else None,
        )
        return report


def adjustment_delete(*, adjustment: RatingAdjustment, user=None) -> RecalculationReport:
    with transaction.atomic():
        lock_ratings()
        since = _position(adjustment)
        audit.record_adjustment(adjustment=adjustment, user=user, action=audit.AuditAction.DELETE)
        if adjustment.kind == AdjustmentKind.START:
            adjustment.delete()
            return recalculate_changes(Changes(since=since, reset=[adjustment.player_id]))
        report = recalculate_changes(Changes(since=since, removed_adjustments=[adjustment.pk]))
        adjustment.delete()
        return report


def player_recalculate(*, player: Player) -> RecalculationReport:
    """After a change of the player's own data (birth year, memberships): replay his history."""
    with transaction.atomic():
        lock_ratings()
        since = player_first_event(player.pk) or day_start(END_OF_TIME)
        return recalculate_changes(Changes(since=since, dirty=[player.pk]))
