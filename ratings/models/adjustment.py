"""Ratings set outside tournaments, and the singleton row that serialises recalculations."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from ratings.enums import AdjustmentKind

from .player import Player


class RatingAdjustment(models.Model):
    """Either the undated start value of a player (his state before his first evaluation) or a dated
    value that replaces his DWZ and index in the replay, before the tournaments ending on or after its
    date."""

    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.CASCADE, related_name="adjustments"
    )
    kind = models.CharField(_("Art"), max_length=12, choices=AdjustmentKind.choices)
    date = models.DateField(_("gültig ab"), null=True, blank=True)
    dwz = models.PositiveIntegerField(_("DWZ"), null=True, blank=True)
    index = models.PositiveSmallIntegerField(_("Index"), null=True, blank=True)
    fide_elo = models.PositiveSmallIntegerField(
        _("Elo"), null=True, blank=True, help_text=_("Nur beim Startwert: für eine Elo-Übernahme ohne DWZ.")
    )
    reason = models.TextField(_("Begründung"), blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("erfasst von"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rating_adjustments",
    )
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)

    class Meta:
        verbose_name = _("Wertungsänderung")
        verbose_name_plural = _("Wertungsänderungen")
        ordering = ["player", "date", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind=AdjustmentKind.START) & Q(date__isnull=True))
                | (~Q(kind=AdjustmentKind.START) & Q(date__isnull=False)),
                name="adjustment_start_iff_undated",
            ),
            models.CheckConstraint(
                condition=Q(kind=AdjustmentKind.START)
                | (Q(dwz__isnull=False) & Q(index__isnull=False) & Q(fide_elo__isnull=True)),
                name="adjustment_dated_sets_dwz_and_index",
            ),
            models.CheckConstraint(
                condition=~Q(kind=AdjustmentKind.START) | Q(dwz__isnull=False) | Q(fide_elo__isnull=False),
                name="adjustment_start_has_value",
            ),
            models.CheckConstraint(
                condition=Q(index__isnull=True) | Q(dwz__isnull=False), name="adjustment_index_needs_dwz"
            ),
            models.UniqueConstraint(
                fields=["player"], condition=Q(kind=AdjustmentKind.START), name="adjustment_one_start_value"
            ),
        ]

    def __str__(self) -> str:
        when = self.date.isoformat() if self.date else pgettext("rating adjustment", "Start")
        value = self.dwz if self.dwz is not None else f"Elo {self.fide_elo}"
        return f"{self.player}: {value} ({when})"


class RatingState(models.Model):
    """Singleton (pk=1): every rating write locks this row first, so recalculations run one at a time."""

    last_recalculated_at = models.DateTimeField(_("zuletzt neu berechnet"), null=True, blank=True)

    class Meta:
        verbose_name = _("Wertungsstand")
        verbose_name_plural = _("Wertungsstand")

    def __str__(self) -> str:
        return f"RatingState({self.last_recalculated_at})"
