"""Rating officers (Wertungsreferenten): who may edit which part of the federation tree.

An officer's scope is an organisation (a Landesverband, Bezirk or Kreis, with everything below it) or a single
club. Staff users may edit everything; visitors only read. The checks live in ``ratings/permissions.py``.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .federation import Club, Organisation
from .tournament import Tournament


class OfficerScope(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Benutzer"),
        on_delete=models.CASCADE,
        related_name="officer_scopes",
    )
    organisation = models.ForeignKey(
        Organisation,
        verbose_name=_("Verband"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="officer_scopes",
        help_text=_("Gilt für den Verband und alles darunter."),
    )
    club = models.ForeignKey(
        Club,
        verbose_name=_("Verein"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="officer_scopes",
    )

    class Meta:
        verbose_name = _("Zuständigkeit (Wertungsreferent)")
        verbose_name_plural = _("Zuständigkeiten (Wertungsreferenten)")
        ordering = ["user", "organisation__code", "club__zps"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(organisation__isnull=False) & Q(club__isnull=True))
                | (Q(organisation__isnull=True) & Q(club__isnull=False)),
                name="officerscope_org_xor_club",
            ),
            models.UniqueConstraint(
                fields=["user", "organisation"],
                condition=Q(organisation__isnull=False),
                name="officerscope_unique_org",
            ),
            models.UniqueConstraint(
                fields=["user", "club"], condition=Q(club__isnull=False), name="officerscope_unique_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.organisation or self.club}"


class TournamentMode(models.TextChoices):
    ROUND_ROBIN = "rr", _("Rundenturnier (jeder gegen jeden)")
    SWISS = "swiss", _("Schweizer System / Runden")


class TournamentEntryMode(models.Model):
    """How the officer enters the results of a tournament: as a crosstable grid or round by round."""

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("Turnier"), on_delete=models.CASCADE, related_name="entry_mode"
    )
    mode = models.CharField(
        _("Turnierart"), max_length=5, choices=TournamentMode.choices, default=TournamentMode.ROUND_ROBIN
    )

    class Meta:
        verbose_name = _("Turnierart")
        verbose_name_plural = _("Turnierarten")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.get_mode_display()}"
