"""Reads of the background recalculations: the progress page and the "Neuberechnung läuft" notice."""

from __future__ import annotations

import datetime

from ratings.models import Evaluation, RecalculationJob
from ratings.models.recalculation import UNFINISHED


def recalculation_job(*, pk: int) -> RecalculationJob | None:
    return RecalculationJob.objects.filter(pk=pk).first()


def running_recalculation(
    *, player_id: int | None = None, end_date: datetime.date | None = None
) -> RecalculationJob | None:
    """The unfinished background recalculation whose replay can still change the player's card (he has an
    evaluation from its start date on) or the tournament ending on ``end_date``; None if there is none.
    One query while no job is unfinished (nearly always: it is asked on every card), two for a card while
    one is."""
    jobs = RecalculationJob.objects.filter(status__in=UNFINISHED).order_by("since", "pk")
    if end_date is not None:
        jobs = jobs.filter(since__lte=end_date)
    if player_id is None:
        return jobs.first()
    unfinished = list(jobs)
    if not unfinished:
        return None
    latest = (
        Evaluation.objects.filter(player_id=player_id)
        .order_by("-end_date")
        .values_list("end_date", flat=True)
        .first()
    )
    return next((job for job in unfinished if latest is not None and job.since <= latest), None)
