"""How long a recalculation will take, and whether a save leaves the chain after its own tournament to the
background (``ratings.services.background.recalculate_or_schedule``; its preview asks the same)."""

from __future__ import annotations

import datetime

from django.conf import settings

from ratings.models import TournamentEntry

from ._changes import Changes


def recalculation_estimate(
    *, since: datetime.date, instead: tuple[int, int] | None = None
) -> tuple[int, float]:
    """(player entries of rated tournaments ending on or after ``since``, estimated seconds).

    The entries are what a replay from ``since`` evaluates at most (one indexed count, no evaluation
    scan); the seconds use ``settings.RECALCULATION_SECONDS_PER_EVALUATION``, measured end to end.
    ``instead`` ``(tournament, entries)``: that tournament counted with this many entries instead of its
    stored ones (the estimate its save will make, asked before the save).
    """
    query = TournamentEntry.objects.filter(tournament__rated=True, tournament__end_date__gte=since)
    if instead is None:
        entries = query.count()
    else:
        tournament, count = instead
        entries = query.exclude(tournament_id=tournament).count() + count
    return entries, entries * settings.RECALCULATION_SECONDS_PER_EVALUATION


def background_estimate(changes: Changes, *, instead: tuple[int, int] | None = None) -> float | None:
    """The estimated seconds of recalculating ``changes`` if that is longer than
    ``settings.RECALCULATION_BACKGROUND_SECONDS`` (a save then replays up to its own tournament and leaves
    the rest to a job), else None (all at once). ``instead`` as in ``recalculation_estimate``."""
    if changes.since is None:
        return None
    _entries, seconds = recalculation_estimate(since=changes.since[0], instead=instead)
    return None if seconds <= settings.RECALCULATION_BACKGROUND_SECONDS else seconds
