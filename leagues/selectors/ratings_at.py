"""A player's DWZ at a date from the product's own history (spec/leagues.md §4): the last evaluation ending on
or before that date (in the evaluation order), or a later-dated adjustment (start value, correction,
Umstufung) on or before it; exact and reproducible. Two queries for any number of players."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import F

from ratings.models import Evaluation, RatingAdjustment


def dwz_at(*, player_ids: Iterable[int], on: datetime.date) -> dict[int, tuple[int | None, int | None]]:
    """Player pk → (DWZ, index) on ``on``; players without a rating then are left out."""
    ids = list(player_ids)
    found: dict[int, tuple[datetime.date | None, int | None, int | None]] = {}
    rows = (
        Evaluation.objects.filter(player_id__in=ids, end_date__lte=on, dwz_new__isnull=False)
        .in_evaluation_order()
        .values_list("player_id", "end_date", "dwz_new", "index_new")
    )
    for pk, end, dwz, index in rows:
        found[pk] = (end, dwz, index)
    adjustments = RatingAdjustment.objects.filter(player_id__in=ids, dwz__isnull=False)
    for pk, day, dwz, index in adjustments.order_by(F("date").asc(nulls_first=True), "pk").values_list(
        "player_id", "date", "dwz", "index"
    ):
        if day is not None and day > on:
            continue
        previous = found.get(pk)
        # A start value without a date is the player's beginning: it counts only where nothing else does.
        if previous is None or (day is not None and (previous[0] is None or day > previous[0])):
            found[pk] = (day, dwz, index)
    return {pk: (dwz, index) for pk, (_day, dwz, index) in found.items()}
