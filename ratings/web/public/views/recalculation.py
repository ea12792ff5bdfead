"""The progress page of a background recalculation (linked from every "Neuberechnung läuft" notice)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.selectors.recalculation import recalculation_job


def recalculation_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """Status, progress and outcome; polls itself (htmx, a refresh without JavaScript) while unfinished."""
    job = recalculation_job(pk=pk)
    if job is None:
        raise Http404(_("Diese Neuberechnung gibt es nicht."))
    elapsed = None
    if job.started_at is not None and job.finished_at is not None:
        elapsed = (job.finished_at - job.started_at).total_seconds()
    context = {
        "job": job,
        "elapsed": elapsed,
        "waiting": (timezone.now() - job.created_at).total_seconds(),
        "show_error": request.user.is_staff,
    }
    return render(request, "ratings/public/recalculation.html", context)
