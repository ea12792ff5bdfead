"""Reads of the background recalculations: the progress page and the "Neuberechnung läuft" notice."""

from __future__ import annotations

import datetime

from django.db.models import Exists, OuterRef

from ratings.models import Evaluation, RecalculationJob
from ratings.models.recalculation import UNFINISHED


def recalculation_job(*, pk: int) -> RecalculationJob | None:
    return RecalculationJob.objects.filter(pk=pk).first()


def running_recalculation(
    *, player_id: int | None = None, end_date: datetime.date | None = None
) -> RecalculationJob | None:
    """The unfinished background recalculation whose replay can still change the player's card (he has an
    evaluation from its start date on) or the tournament ending on ``end_date``; None if there is none.
    One query."""
    jobs = RecalculationJob.objects.filter(status__in=UNFINISHED).order_by("since")
    if end_date is not None:
        jobs = jobs.filter(since__lte=end_date)
    if player_id is not None:
        later = Evaluation.objects.filter(player_id=player_id, end_date__gte=OuterRef("since"))
        jobs = jobs.filter(Exists(later))
    return jobs.first()
