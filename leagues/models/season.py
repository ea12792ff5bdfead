"""A season of a federation's (or Bezirk's) team competitions, with its rule switches."""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from leagues.core.eligibility import Rules
from leagues.core.table import WithdrawalRule


class WithdrawnResults(models.TextChoices):
    ANNUL = WithdrawalRule.ANNUL.value, _("alle Kämpfe der Mannschaft werden gestrichen")
    KEEP = WithdrawalRule.KEEP.value, _("die gespielten Kämpfe bleiben in der Wertung")


class Season(models.Model):
    organisation = models.ForeignKey(
        "ratings.Organisation",
        verbose_name=_("Verband"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="league_seasons",
        help_text=_("Der Verband oder Bezirk, der die Mannschaftskämpfe ausrichtet."),
    )
    name = models.CharField(_("Name"), max_length=40, help_text=_("z. B. 2026/27"))
    start_date = models.DateField(_("Beginn"), null=True, blank=True)
    end_date = models.DateField(_("Ende"), null=True, blank=True)
    ranking_deadline = models.DateField(_("Meldeschluss der Ranglisten"), null=True, blank=True)
    reference_date = models.DateField(
        _("Stichtag der DWZ"), help_text=_("Die DWZ an diesem Tag steht in den Ranglisten (z. B. 1. August).")
    )
    # Eligibility checks (leagues.md §4): warnings, never refusals, each switchable per season.
    check_ranking_list = models.BooleanField(_("Rangliste prüfen"), default=True)
    check_board_order = models.BooleanField(_("Brettreihenfolge prüfen"), default=True)
    lower_team_limit = models.PositiveSmallIntegerField(
        _("Einsätze eines Stammspielers in unteren Mannschaften"),
        null=True,
        blank=True,
        default=0,
        help_text=_("So oft darf ein Stammspieler in einer unteren Mannschaft spielen; leer: nicht prüfen."),
    )
    substitutes_count = models.BooleanField(
        _("Ersatzeinsätze aus unteren Mannschaften zählen"),
        default=True,
        help_text=_("Wer oft genug in einer höheren Mannschaft gespielt hat, gilt dort als Stammspieler."),
    )
    substitute_fixed_after = models.PositiveSmallIntegerField(_("festgespielt nach Einsätzen"), default=4)
    rule_400 = models.BooleanField(_("400-Punkte-Regel"), default=False)
    rule_400_width = models.PositiveSmallIntegerField(_("Breite der Punkte-Regel"), default=400)
    withdrawn_results = models.CharField(
        _("Kämpfe zurückgezogener Mannschaften"),
        max_length=8,
        choices=WithdrawnResults.choices,
        default=WithdrawnResults.ANNUL,
    )

    class Meta:
        verbose_name = _("Saison")
        verbose_name_plural = _("Saisons")
        ordering = ["-reference_date", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["organisation", "name"], name="season_unique_name"),
            models.UniqueConstraint(
                fields=["name"], condition=Q(organisation__isnull=True), name="season_unique_name_no_org"
            ),
            models.CheckConstraint(
                condition=Q(start_date__isnull=True)
                | Q(end_date__isnull=True)
                | Q(start_date__lte=F("end_date")),
                name="season_start_not_after_end",
            ),
            models.CheckConstraint(condition=Q(rule_400_width__gte=1), name="season_rule_400_width_positive"),
            models.CheckConstraint(
                condition=Q(substitute_fixed_after__gte=1), name="season_fixed_after_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.organisation.code})" if self.organisation is not None else self.name

    @property
    def rules(self) -> Rules:
        """The season's eligibility switches for ``leagues.core.eligibility``."""
        return Rules(
            check_ranking_list=self.check_ranking_list,
            check_board_order=self.check_board_order,
            lower_team_limit=self.lower_team_limit,
            substitutes_count=self.substitutes_count,
            fixed_after=self.substitute_fixed_after,
            rule_400=self.rule_400,
            width=self.rule_400_width,
        )

    @property
    def withdrawal_rule(self) -> WithdrawalRule:
        return WithdrawalRule(self.withdrawn_results)
