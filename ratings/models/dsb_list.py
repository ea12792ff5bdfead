"""The DSB list in the database: each import with its report, and the official values it carried."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

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


class DifferenceCause(models.TextChoices):
    """The values of ``ratings.selectors.official_comparison.Cause``."""

    OURS_EXTRA = "ours_extra", pgettext_lazy("Abgleich", "hier mehr")
    DSB_EXTRA = "dsb_extra", pgettext_lazy("Abgleich", "beim DSB mehr")
    CHAIN_PARTS = "chain_parts", pgettext_lazy("Abgleich", "Kette")


class OfficialDifference(models.Model):
    """One row of the Abgleich of a list import: a listed player whose official DWZ-Index differs from
    dwzsite's as of the week of his last official evaluation, with its likely cause (stored by
    ``ratings.services.official_comparison``; the selector ``official_comparison`` computes it)."""

    list_import = models.ForeignKey(
        ListImport, verbose_name=_("Import"), on_delete=models.CASCADE, related_name="differences"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.CASCADE, related_name="official_differences"
    )
    cause = models.CharField(
        pgettext_lazy("Abgleich", "Ursache"), max_length=12, choices=DifferenceCause.choices
    )
    evidence = models.CharField(_("Anhaltspunkt"), max_length=12, blank=True)
    official_dwz = models.PositiveIntegerField(_("DSB DWZ"), null=True, blank=True)
    official_index = models.PositiveIntegerField(_("DSB Index"), default=0)
    official_week = models.CharField(_("KW (JJJJWW)"), max_length=20, blank=True)
    window_end = models.DateField(_("verglichen bis"))
    our_dwz = models.PositiveIntegerField(_("dwzsite DWZ"), null=True, blank=True)
    our_index = models.PositiveIntegerField(_("dwzsite Index"), default=0)
    # The named tournaments: [{"id", "name", "code", "date" (ISO)}], in evaluation order.
    tournaments = models.JSONField(_("Turniere"), default=list, blank=True)
    message = models.TextField(_("Hinweis"), blank=True)

    class Meta:
        verbose_name = _("Abweichung (Abgleich)")
        verbose_name_plural = _("Abweichungen (Abgleich)")
        ordering = ["list_import", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["list_import", "player"], name="official_difference_unique")
        ]
        indexes = [models.Index(fields=["list_import", "cause"], name="official_difference_cause")]

    def __str__(self) -> str:
        return f"{self.list_import_id}/{self.player_id}: {self.cause}"


class VerdictState(models.TextChoices):
    """The values of ``ratings.selectors.official_comparison.Agreement``."""

    CONFIRMED = "confirmed", pgettext_lazy("Abgleich", "bestätigt")
    DIFFERS = "differs", pgettext_lazy("Abgleich", "abweichend")
    UNCLEAR = "unclear", pgettext_lazy("Abgleich", "unklar")
    PENDING = "pending", pgettext_lazy("Abgleich", "offen")


class OfficialVerdict(models.Model):
    """A tournament's verdict against one list import (bestätigt, abweichend with the differences, unklar,
    offen); the newest import's verdict is the one that counts (``selectors.official_stored``)."""

    tournament = models.ForeignKey(
        "ratings.Tournament",
        verbose_name=_("Turnier"),
        on_delete=models.CASCADE,
        related_name="official_verdicts",
    )
    list_import = models.ForeignKey(
        ListImport, verbose_name=_("Import"), on_delete=models.CASCADE, related_name="verdicts"
    )
    state = models.CharField(
        pgettext_lazy("Abgleich", "Abgleich"), max_length=10, choices=VerdictState.choices
    )
    checked_at = models.DateTimeField(_("geprüft am"))
    # The differences behind it: [{"player", "key", "name", "cause", "message"}].
    differences = models.JSONField(pgettext_lazy("Abgleich", "Abweichungen"), default=list, blank=True)

    class Meta:
        verbose_name = _("Abgleich eines Turniers")
        verbose_name_plural = _("Abgleiche der Turniere")
        ordering = ["tournament", "-checked_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "list_import"], name="official_verdict_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.list_import_id}: {self.state}"
