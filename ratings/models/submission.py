"""A tournament's way to the DSB: announced before its start, and each export of its DSB XML report.

The state shown to officers (angemeldet, in Erfassung, ausgewertet, eingereicht, geändert seit Einreichung,
bestätigt/abweichend) is computed by ``ratings.selectors.tournament_states``; stored here are only the facts
it is computed from: the announcement (``Tournament.announced``) and the submissions.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class TournamentSubmission(models.Model):
    """One export of a tournament for the DSB (``manage.py export_dsb_xml`` or the officer's download)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("Turnier"), on_delete=models.CASCADE, related_name="submissions"
    )
    submitted_at = models.DateTimeField(_("eingereicht am"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("eingereicht von"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    username = models.CharField(_("Benutzername"), max_length=150, blank=True)
    file_uuid = models.UUIDField(_("Datei-UUID"))
    # SHA-256 of what was sent without the file's header (creation date, file UUID, sender): the same
    # tournament exported twice has the same digest.
    digest = models.CharField(_("Prüfsumme"), max_length=64)
    # Head, players and games as sent (``selectors.dsb_xml_export.report_snapshot``): "what changed since".
    snapshot = models.JSONField(_("Stand"), default=dict)

    class Meta:
        verbose_name = _("Einreichung beim DSB")
        verbose_name_plural = _("Einreichungen beim DSB")
        ordering = ["-submitted_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.submitted_at:%Y-%m-%d %H:%M}" if self.submitted_at else ""
