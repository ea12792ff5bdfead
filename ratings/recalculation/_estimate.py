"""How long a recalculation will take, and whether a save leaves the chain after its own tournament to the
background (``ratings.services.background.recalculate_or_schedule``; its preview asks the same)."""

from __future__ import annotations

import datetime
import math

from django.conf import settings
from django.db.models import Count, F, Max, Q

from ratings.models import Tournament, TournamentEntry

from ._changes import Changes


def recalculation_estimate(
    *, since: datetime.date, instead: tuple[int, int] | None = None
) -> tuple[int, float]:
    """(player entries of rated tournaments ending on or after ``since``, estimated seconds).

    The entries are what a replay from ``since`` evaluates at most; the seconds use
    ``settings.RECALCULATION_SECONDS_PER_EVALUATION``, measured end to end. ``instead``
    ``(tournament, entries)``: that tournament counted with this many entries instead of its stored ones
    (the estimate its save will make, asked before the save).

    Counted exactly up to just past the background threshold (``background_limit``), which is all the
    save's choice needs; beyond it extrapolated (``_extrapolated``): a full count of a million entries
    five years back cost half of a league match report's save at 2 M evaluations (issue 29).
    """
    query = TournamentEntry.objects.filter(tournament__rated=True, tournament__end_date__gte=since)
    own = 0
    if instead is not None:
        tournament, own = instead
        query = query.exclude(tournament_id=tournament)
    limit = background_limit()
    # The first entries in the order of the tournaments' end dates (by the end date's index, then the
    # entries' tournament index: stops after ``limit`` rows however many follow).
    sample = (
        query.annotate(day=F("tournament__end_date"))
        .order_by("day")
        .values("day")[:limit]
        .aggregate(entries=Count("day"), last=Max("day"))
    )
    entries = sample["entries"]
    if entries >= limit:
        entries = _extrapolated(since, sample["last"], entries, instead)
    entries += own
    return entries, entries * settings.RECALCULATION_SECONDS_PER_EVALUATION


def background_limit() -> int:
    """The number of entries counted exactly: one more than the most a recalculation below
    ``settings.RECALCULATION_BACKGROUND_SECONDS`` evaluates."""
    per = settings.RECALCULATION_SECONDS_PER_EVALUATION
    if per <= 0:
        return 1  # nothing takes time: the count says only "none" or "some"
    # at least 1: a threshold below zero (everything to the background) still counts whether there is any;
    # an infinite one (``DWZ_BACKGROUND_SECONDS=inf``: never to the background) counts everything.
    return max(1, min(math.floor(min(settings.RECALCULATION_BACKGROUND_SECONDS / per, 2.0**62)) + 1, 2**62))


def _extrapolated(
    since: datetime.date, last: datetime.date, entries: int, instead: tuple[int, int] | None
) -> int:
    """The entries of every rated tournament from ``since`` on, from the ``entries`` of those ending from
    ``since`` to ``last``: their entries per tournament times all the tournaments (one count of the
    tournament table, a twentieth of the entries' at 2 M)."""
    rated = Tournament.objects.filter(rated=True, end_date__gte=since)
    if instead is not None:
        rated = rated.exclude(pk=instead[0])
    counts = rated.aggregate(sampled=Count("pk", filter=Q(end_date__lte=last)), all=Count("pk"))
    sampled, every = int(counts["sampled"]), int(counts["all"])
    return max(entries, math.floor(entries / max(sampled, 1) * every + 0.5))  # half up


def background_estimate(changes: Changes, *, instead: tuple[int, int] | None = None) -> float | None:
    """The estimated seconds of recalculating ``changes`` if that is longer than
    ``settings.RECALCULATION_BACKGROUND_SECONDS`` (a save then replays up to its own tournament and leaves
    the rest to a job), else None (all at once). ``instead`` as in ``recalculation_estimate``."""
    threshold = settings.RECALCULATION_BACKGROUND_SECONDS
    if changes.since is None or (math.isinf(threshold) and threshold > 0):
        return None  # nothing to count: the whole chain runs in the request
    _entries, seconds = recalculation_estimate(since=changes.since[0], instead=instead)
    return None if seconds <= threshold else seconds
