"""Players and their club memberships. A player's current DWZ/index are derived (written by the service)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.enums import FideTitle, PlayerStatus, Sex

from .federation import Club


class PlayerQuerySet(models.QuerySet):
    def rated(self):
        return self.filter(dwz__isnull=False)


class Player(models.Model):
    key = models.CharField(
        _("Schlüssel"),
        max_length=40,
        unique=True,
        help_text=_("Stabiler Schlüssel: DSB-Personen-ID oder ZPS-Mitgliedsnummer (z. B. C0101-1014)."),
    )
    surname = models.CharField(_("Nachname"), max_length=100)
    first_name = models.CharField(_("Vorname"), max_length=100, blank=True)
    sex = models.CharField(_("Geschlecht"), max_length=1, choices=Sex.choices, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("Geburtsjahr"), null=True, blank=True)
    dsb_id = models.PositiveIntegerField(_("DSB-Personen-ID"), null=True, blank=True, unique=True)
    fide_id = models.PositiveIntegerField(_("FIDE-ID"), null=True, blank=True)
    fide_elo = models.PositiveSmallIntegerField(_("Elo"), null=True, blank=True)
    fide_title = models.CharField(_("Titel"), max_length=3, choices=FideTitle.choices, blank=True)
    fide_federation = models.CharField(_("FIDE-Föderation"), max_length=3, blank=True)
    status = models.CharField(
        _("Status"), max_length=1, choices=PlayerStatus.choices, default=PlayerStatus.ACTIVE
    )
    # Derived: kept equal to a chronological replay by ratings.services only.
    dwz = models.PositiveSmallIntegerField(_("DWZ"), null=True, blank=True, editable=False)
    index = models.PositiveSmallIntegerField(_("Index"), null=True, blank=True, editable=False)
    last_evaluated = models.DateField(_("letzte Auswertung"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    updated_at = models.DateTimeField(_("geändert"), auto_now=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("Spieler")
        verbose_name_plural = _("Spieler")
        ordering = ["surname", "first_name", "pk"]
        indexes = [models.Index(fields=["surname", "first_name"]), models.Index(fields=["-dwz"])]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return f"{self.surname}, {self.first_name}" if self.first_name else self.surname


class Membership(models.Model):
    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("Verein"), on_delete=models.PROTECT, related_name="memberships"
    )
    member_number = models.CharField(_("Mitgliedsnummer"), max_length=10)

    class Meta:
        verbose_name = _("Mitgliedschaft")
        verbose_name_plural = _("Mitgliedschaften")
        ordering = ["club__zps", "member_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "member_number"], name="membership_unique_number_per_club"
            ),
            models.UniqueConstraint(fields=["club", "player"], name="membership_unique_player_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.club.zps}-{self.member_number}"
