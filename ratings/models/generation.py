"""The generation of what public pages show: the page cache's keys and ETags carry it (issue 31)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class PageGeneration(models.Model):
    """Two counter rows, each bumped in the same transaction as a write that changes a public page.

    Row 1 (``RATINGS``) is bumped right after the rating lock is taken (``lock_ratings``): every
    recalculation, import, merge, adjustment, tournament and league write holds that lock, so the row's
    lock never makes anyone wait longer. Row 2 (``OTHER``) is bumped by any other save or delete of a model
    of ``ratings`` or ``leagues`` (officer and admin edits, league pages) that does not hold the rating lock;
    a short write is then not queued behind a long recalculation. The cache key carries both values.
    """

    RATINGS = 1
    OTHER = 2

    id = models.PositiveSmallIntegerField(primary_key=True)
    value = models.BigIntegerField(_("Generation"), default=0)
    changed_at = models.DateTimeField(_("geändert"), null=True, blank=True)

    class Meta:
        verbose_name = _("Seitenstand")
        verbose_name_plural = _("Seitenstände")

    def __str__(self) -> str:
        return f"PageGeneration({self.pk}: {self.value})"
