"""A club's (or playing community's) team in a division, its captain and venue."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from leagues.core import types as core


class Team(models.Model):
    division = models.ForeignKey(
        "leagues.Division", verbose_name=_("Staffel"), on_delete=models.CASCADE, related_name="teams"
    )
    club = models.ForeignKey(
        "ratings.Club",
        verbose_name=_("Verein"),
        on_delete=models.PROTECT,
        related_name="league_teams",
        help_text=_("Bei einer Spielgemeinschaft der federführende Verein."),
    )
    partner_clubs = models.ManyToManyField(
        "ratings.Club",
        verbose_name=_("Partnervereine (Spielgemeinschaft)"),
        blank=True,
        related_name="league_partner_teams",
    )
    number = models.PositiveSmallIntegerField(_("Mannschaftsnummer"), default=1)
    draw_number = models.PositiveSmallIntegerField(_("Losnummer"), null=True, blank=True)
    name = models.CharField(_("Name"), max_length=100, help_text=_("z. B. SK Musterstadt 2"))
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Mannschaftsführer (Benutzer)"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="captained_teams",
    )
    captain_name = models.CharField(_("Mannschaftsführer"), max_length=200, blank=True)
    captain_email = models.EmailField(_("E-Mail des Mannschaftsführers"), blank=True)
    captain_phone = models.CharField(_("Telefon des Mannschaftsführers"), max_length=40, blank=True)
    venue = models.TextField(_("Spiellokal"), blank=True)
    withdrawn_on = models.DateField(_("zurückgezogen am"), null=True, blank=True)
    match_point_deduction = models.PositiveSmallIntegerField(_("Abzug Mannschaftspunkte"), default=0)
    # Half points: 3 is 1½ board points (the core counts board points in halves).
    board_point_deduction_halves = models.PositiveSmallIntegerField(
        _("Abzug Brettpunkte (halbe Punkte)"), default=0
    )
    deduction_reason = models.CharField(_("Grund des Abzugs"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("Mannschaft")
        verbose_name_plural = _("Mannschaften")
        ordering = ["division", "draw_number", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["division", "club", "number"], name="team_unique_number"),
            models.UniqueConstraint(fields=["division", "name"], name="team_unique_name"),
            models.UniqueConstraint(
                fields=["division", "draw_number"],
                condition=Q(draw_number__isnull=False),
                name="team_unique_draw_number",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_number_positive"),
            models.CheckConstraint(
                condition=Q(draw_number__isnull=True) | Q(draw_number__gte=1),
                name="team_draw_number_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def as_core(self) -> core.Team:
        """The team for the core: ids are primary keys as text, ``club`` the ZPS of its ranking list."""
        return core.Team(
            id=str(self.pk),
            name=self.name,
            club=self.club.zps,
            number=self.number,
            withdrawn_on=self.withdrawn_on,
            match_point_deduction=self.match_point_deduction,
            board_point_deduction=self.board_point_deduction_halves,
        )

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_on is not None

    def clean(self) -> None:
        """A club's team number is unique in the whole season, not only in the division (the database can
        only say the latter: the season is the division's)."""
        super().clean()
        if self.division_id is None or self.club_id is None:
            return
        clash = (
            Team.objects.filter(
                division__season_id=self.division.season_id, club_id=self.club_id, number=self.number
            )
            .exclude(pk=self.pk)
            .exists()
        )
        if clash:
            raise ValidationError(
                {"number": _("Der Verein hat in dieser Saison schon eine Mannschaft mit dieser Nummer.")}
            )
