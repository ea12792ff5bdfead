"""Ratings set outside tournaments: start values and dated adjustments."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from ratings.dwz.replay import OrderKey, adjustment_order, day_start
from ratings.enums import AdjustmentKind, RatingChangeCause
from ratings.models import Player, RatingAdjustment
from ratings.recalculation import (
    END_OF_TIME,
    Changes,
    RecalculationReport,
    earliest,
    lock_ratings,
    player_first_event,
    recalculate_start_values,
    tournaments_of,
)

from . import audit
from .announce import announce_rating_changes
from .background import recalculate_or_schedule

if TYPE_CHECKING:
    from ratings.services.audit import Actor


def _position(adjustment: RatingAdjustment) -> OrderKey | None:
    """Where the adjustment takes effect in the order; None for a start value of a player without events."""
    if adjustment.kind == AdjustmentKind.START:
        return player_first_event(adjustment.player_id)
    assert adjustment.date is not None  # a dated kind (the model's constraint)
    return adjustment_order(adjustment.date, adjustment.pk)


def adjustment_save(*, adjustment: RatingAdjustment, user: Actor = None) -> RecalculationReport:
    """Validate and save a start value or dated adjustment, then recalculate from its (old or new) date."""
    with transaction.atomic():
        lock_ratings()
        old = RatingAdjustment.objects.filter(pk=adjustment.pk).first() if adjustment.pk else None
        author = audit.stored_user(user=user)
        if adjustment.author_id is None and author is not None:
            adjustment.author = author
        if adjustment.kind == AdjustmentKind.START:
            adjustment.date = None
        adjustment.full_clean()
        adjustment.save()
        starts = {a.player_id for a in (old, adjustment) if a is not None and a.kind == AdjustmentKind.START}
        dated = [a for a in (old, adjustment) if a is not None and a.kind != AdjustmentKind.START]
        players = {a.player_id for a in (old, adjustment) if a is not None}
        since = earliest(*(_position(a) for a in (old, adjustment) if a is not None))
        if since is None:  # start values of players without events
            report = recalculate_start_values(players=starts)
        else:
            changes = Changes(
                since=since,
                reset=starts,
                dirty=players - starts,
                adjustments=[adjustment.pk] if dated else [],
                lost=_moved_away(old, adjustment),
            )
            # The request replays up to the adjustment's new place: a job that finishes the chain knows
            # only its dirty players and would take the adjustment after it as unchanged.
            until = max(place for place in (since, _position(adjustment)) if place is not None)
            report = recalculate_or_schedule(changes=changes, until=until, user=user)
        audit.record_adjustment(
            adjustment=adjustment,
            user=user,
            action=audit.AuditAction.UPDATE if old else audit.AuditAction.CREATE,
            before=audit.adjustment_snapshot(adjustment=old) if old else None,
        )
        announce_rating_changes(report=report, tournament_id=None, cause=RatingChangeCause.ADJUSTMENT)
        return report


def _moved_away(old: RatingAdjustment | None, new: RatingAdjustment) -> list[tuple[OrderKey, list[int]]]:
    """A dated adjustment that moved (another date or player, or now a start value) leaves its old player's
    stored rows after its old place counting it: he is dirty there (``Changes.lost``)."""
    if old is None or old.kind == AdjustmentKind.START:
        return []
    place = _position(old)
    if place is None or (old.player_id, place) == (new.player_id, _position(new)):
        return []
    return [(place, [old.player_id])]


def adjustment_delete(*, adjustment: RatingAdjustment, user: Actor = None) -> RecalculationReport:
    with transaction.atomic():
        lock_ratings()
        position = _position(adjustment)
        audit.record_adjustment(adjustment=adjustment, user=user, action=audit.AuditAction.DELETE)
        if adjustment.kind == AdjustmentKind.START:
            adjustment.delete()
            if position is None:
                report = recalculate_start_values(players={adjustment.player_id})
            else:
                report = recalculate_or_schedule(
                    changes=Changes(since=position, reset=[adjustment.player_id]), until=position, user=user
                )
        else:
            assert position is not None  # a dated adjustment has its place (_position)
            changes = Changes(since=position, removed_adjustments=[adjustment.pk])
            report = recalculate_or_schedule(changes=changes, until=position, user=user)
            adjustment.delete()
        announce_rating_changes(report=report, tournament_id=None, cause=RatingChangeCause.ADJUSTMENT)
        return report


def player_recalculate(*, player: Player, user: Actor = None) -> RecalculationReport:
    """After a change of the player's own data (birth year, memberships): replay his history.

    Every tournament of his counts as changed (evaluated again whatever else happens): his birth year is an
    input of each of them (his age class) that no rating state carries, so he must not turn clean again
    where a tournament happens to give him his stored DWZ and index."""
    with transaction.atomic():
        lock_ratings()
        since = player_first_event(player.pk) or day_start(END_OF_TIME)
        changes = Changes(since=since, dirty=[player.pk], tournaments=tournaments_of([player.pk]))
        report = recalculate_or_schedule(changes=changes, until=since, user=user)
        announce_rating_changes(report=report, tournament_id=None, cause=RatingChangeCause.PLAYER)
        return report
