"""A tournament's entry in progress (Entwurf): participants and boards typed but not yet evaluated.

The draft lives beside the tournament and never in its entries or games, so no rating reads it; "Speichern
und auswerten" moves it into the tournament (``services.drafts.draft_publish``) and deletes it.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class TournamentDraft(models.Model):
    tournament = models.OneToOneField(
        Tournament, verbose_name=_("Turnier"), on_delete=models.CASCADE, related_name="draft"
    )
    # Player pks in start order (start number = position + 1).
    participants = models.JSONField(_("Teilnehmer"), default=list, blank=True)
    # {"round", "board", "white", "black" (None for a bye), "result" ("" while open)}
    games = models.JSONField(_("Partien"), default=list, blank=True)
    # The tournament's version when the draft began: publishing refuses if another save came in between.
    base_version = models.PositiveIntegerField(_("Version beim Beginn"), null=True, blank=True)
    updated_at = models.DateTimeField(_("geändert"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("geändert von"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("Entwurf")
        verbose_name_plural = _("Entwürfe")

    def __str__(self) -> str:
        return str(self.tournament)
