"""The DSB list in the database: each import with its report, and the official values it carried."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .player import Player


class ListImportStatus(models.TextChoices):
    QUEUED = "queued", _("wartet")
    RUNNING = "running", _("läuft")
    DONE = "done", _("fertig")
    FAILED = "failed", _("fehlgeschlagen")


class ListImport(models.Model):
    """One import of a DSB list (command or admin page): its source, progress and report.

    The uploaded file is kept in ``data`` until a background worker has read it, then cleared.
    """

    file_name = models.CharField(_("Datei"), max_length=255)
    as_of = models.DateField(_("Stand"), null=True, blank=True)
    generation = models.CharField(_("Format"), max_length=20, blank=True)
    umstufung = models.BooleanField(_("Umstufung 2026"), default=False)
    dry_run = models.BooleanField(_("Probelauf"), default=False)
    status = models.CharField(
        _("Status"), max_length=10, choices=ListImportStatus.choices, default=ListImportStatus.QUEUED
    )
    done = models.PositiveIntegerField(_("bearbeitet"), default=0)
    total = models.PositiveIntegerField(_("gesamt"), default=0)
    exit_code = models.PositiveSmallIntegerField(_("Ergebnis"), null=True, blank=True)
    summary = models.JSONField(_("Zusammenfassung"), default=dict, blank=True)
    report = models.JSONField(_("Bericht"), default=list, blank=True)
    data = models.BinaryField(_("Datei-Inhalt"), null=True, blank=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Benutzer"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="list_imports",
    )
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    finished_at = models.DateTimeField(_("fertig um"), null=True, blank=True)

    class Meta:
        verbose_name = _("DSB-Listen-Import")
        verbose_name_plural = _("DSB-Listen-Importe")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.as_of or '?'})"


class OfficialRating(models.Model):
    """A player's DWZ and index as the DSB's list gave them on its date (never computed here)."""

    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.CASCADE, related_name="official_ratings"
    )
    as_of = models.DateField(_("Stand"))
    dwz = models.PositiveIntegerField(_("DWZ"), null=True, blank=True)
    index = models.PositiveIntegerField(_("Index"), null=True, blank=True)
    last_evaluation = models.CharField(_("letzte Auswertung (JJJJWW)"), max_length=20, blank=True)

    class Meta:
        verbose_name = _("Offizielle DWZ")
        verbose_name_plural = _("Offizielle DWZ")
        ordering = ["player", "-as_of"]
        constraints = [
            models.UniqueConstraint(fields=["player", "as_of"], name="official_rating_unique_date")
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.dwz}-{self.index} ({self.as_of})"
