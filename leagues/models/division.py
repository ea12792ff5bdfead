"""A division (Staffel) of a season, its director and rating officer, and its DWZ tournament(s)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from leagues.core.table import Tiebreak, tiebreaks_from_codes
from leagues.core.types import MatchPoints

DEFAULT_TIEBREAKS = "mp,bp,direct"


class DivisionSystem(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Rundensystem (jeder gegen jeden)")
    SWISS = "swiss", _("Schweizer System")
    KNOCKOUT = "knockout", _("K.-o.-System")


class Division(models.Model):
    season = models.ForeignKey(
        "leagues.Season", verbose_name=_("Saison"), on_delete=models.CASCADE, related_name="divisions"
    )
    name = models.CharField(_("Name"), max_length=100, help_text=_("z. B. Bezirksliga Nord"))
    level = models.PositiveSmallIntegerField(
        _("Spielklasse"), null=True, blank=True, help_text=_("1 ist die höchste Spielklasse der Saison.")
    )
    boards = models.PositiveSmallIntegerField(_("Bretter je Mannschaft"), default=8)
    rounds = models.PositiveSmallIntegerField(_("Runden"), help_text=_("Alle Runden, beide Durchgänge."))
    cycles = models.PositiveSmallIntegerField(
        _("Durchgänge"), default=1, help_text=_("1: einfaches, 2: doppeltes Rundenturnier.")
    )
    system = models.CharField(
        _("System"), max_length=12, choices=DivisionSystem.choices, default=DivisionSystem.ROUND_ROBIN
    )
    points_win = models.PositiveSmallIntegerField(_("Mannschaftspunkte für einen Sieg"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("Mannschaftspunkte für ein Unentschieden"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("Mannschaftspunkte für eine Niederlage"), default=0)
    tiebreaks = models.CharField(
        _("Wertungsreihenfolge"),
        max_length=100,
        default=DEFAULT_TIEBREAKS,
        help_text=_(
            "Kürzel durch Kommas getrennt: mp (Mannschaftspunkte), bp (Brettpunkte), direct (direkter "
            "Vergleich), berlin (Berliner Wertung), wins (Siege)."
        ),
    )
    home_white_on_odd = models.BooleanField(_("Heimmannschaft hat Weiß an ungeraden Brettern"), default=True)
    time_control = models.CharField(_("Bedenkzeit"), max_length=100, blank=True)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Staffelleiter"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="directed_divisions",
    )
    rating_officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Wertungsreferent"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rated_divisions",
    )

    class Meta:
        verbose_name = _("Staffel")
        verbose_name_plural = _("Staffeln")
        ordering = ["season", "level", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="division_unique_name"),
            models.CheckConstraint(condition=Q(boards__gte=1), name="division_boards_positive"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="division_rounds_positive"),
            models.CheckConstraint(condition=Q(cycles__in=[1, 2]), name="division_cycles_1_or_2"),
            models.CheckConstraint(
                condition=Q(points_win__gte=models.F("points_draw"))
                & Q(points_draw__gte=models.F("points_loss")),
                name="division_points_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season.name}"

    @property
    def match_points(self) -> MatchPoints:
        return MatchPoints(win=self.points_win, draw=self.points_draw, loss=self.points_loss)

    @property
    def tiebreak_order(self) -> tuple[Tiebreak, ...]:
        """The tie-breaks as the core's enum; unknown codes are left out."""
        return tiebreaks_from_codes(self.tiebreaks)


class DivisionPart(models.Model):
    """A part of the division evaluated as its own DWZ tournament (WO 2.2.2). A division has one part (from
    the start, ``from_date`` empty) unless the officer split it at a break of more than 8 weeks: part n holds
    the games played on or after its ``from_date`` and before the next part's."""

    division = models.ForeignKey(
        Division, verbose_name=_("Staffel"), on_delete=models.CASCADE, related_name="parts"
    )
    number = models.PositiveSmallIntegerField(_("Teil"), default=1)
    from_date = models.DateField(
        _("ab Datum"), null=True, blank=True, help_text=_("Leer: vom Beginn der Staffel an.")
    )
    from_round = models.PositiveSmallIntegerField(
        _("ab Runde"), null=True, blank=True, help_text=_("Nur zur Anzeige; es entscheidet das Datum.")
    )
    tournament = models.OneToOneField(
        "ratings.Tournament",
        verbose_name=_("DWZ-Turnier"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_part",
        help_text=_("Leer, bis das Turnier angelegt ist."),
    )

    class Meta:
        verbose_name = _("Teil einer Staffel")
        verbose_name_plural = _("Teile einer Staffel")
        ordering = ["division", "number"]
        constraints = [
            models.UniqueConstraint(fields=["division", "number"], name="divisionpart_unique_number"),
            models.UniqueConstraint(fields=["division", "from_date"], name="divisionpart_unique_from_date"),
            models.UniqueConstraint(
                fields=["division"], condition=Q(from_date__isnull=True), name="divisionpart_one_start"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="divisionpart_number_positive"),
            models.CheckConstraint(
                condition=Q(number=1, from_date__isnull=True)
                | (Q(number__gt=1) & Q(from_date__isnull=False)),
                name="divisionpart_first_from_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.division}, Teil {self.number}"
