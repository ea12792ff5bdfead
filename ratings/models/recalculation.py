"""Background recalculations: the chain after an officer's save that is too long to wait for."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RecalculationJobStatus(models.TextChoices):
    PENDING = "pending", _("wartet")
    RUNNING = "running", _("läuft")
    DONE = "done", _("fertig")
    FAILED = "failed", _("fehlgeschlagen")


UNFINISHED = (RecalculationJobStatus.PENDING, RecalculationJobStatus.RUNNING)


class RecalculationJob(models.Model):
    """The rest of a recalculation after ``since``, run by the background worker (``ratings.tasks``):
    what the players in ``resume`` reach from where the save stopped, or every event from ``since`` on.

    At most one job is unfinished at a time: a save while one waits moves its ``since`` earlier instead
    of adding another (``ratings.services.background``). ``status`` is ``running`` from the moment a
    worker picked it up; ``started_at`` / ``finished_at`` are written in the recalculation's own
    transaction, so a job is ``done`` exactly when its results are committed.
    """

    since = models.DateField(_("ab"))
    # Where the save's own replay stopped and who was still dirty there: ``[{"after": order key as a list,
    # "players": [pk, ...]}, ...]``; the job replays only what they reach. None: replay every event from
    # ``since`` on (a job that took over a failed one, or a replay that could not tell).
    resume = models.JSONField(_("fortsetzen ab"), null=True, blank=True, default=None, editable=False)
    status = models.CharField(
        _("Status"),
        max_length=10,
        choices=RecalculationJobStatus.choices,
        default=RecalculationJobStatus.PENDING,
    )
    done = models.PositiveIntegerField(_("ausgewertet"), default=0)
    total = models.PositiveIntegerField(_("gesamt"), default=0)
    estimate = models.FloatField(_("geschätzte Dauer (s)"), default=0.0)
    tournament = models.ForeignKey(
        "ratings.Tournament",
        verbose_name=_("Anlass"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Benutzer"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    attempts = models.PositiveSmallIntegerField(_("Versuche"), default=0)
    error = models.TextField(_("Fehler"), blank=True)
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    started_at = models.DateTimeField(_("begonnen"), null=True, blank=True)
    finished_at = models.DateTimeField(_("fertig um"), null=True, blank=True)

    class Meta:
        verbose_name = _("Neuberechnung im Hintergrund")
        verbose_name_plural = _("Neuberechnungen im Hintergrund")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "since"], name="recalc_job_status_since")]

    def __str__(self) -> str:
        return f"{self.since:%d.%m.%Y} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("ratings:recalculation-progress", args=[self.pk])

    @property
    def unfinished(self) -> bool:
        return self.status in UNFINISHED

    @property
    def percent(self) -> int:
        return self.done * 100 // self.total if self.total else 0
