"""A club's (or playing community's) ranking list (Rangliste/Meldeliste) for a season, and its entries."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from leagues.core import eligibility as core
from leagues.core.eligibility import EntryStatus


class RankingGroup(models.TextChoices):
    OPEN = "open", _("offen")
    WOMEN = "women", _("Frauen")
    YOUTH = "youth", _("Jugend")


class RankingEntryStatus(models.TextChoices):
    REGULAR = EntryStatus.REGULAR.value, _("Stammspieler")
    SUBSTITUTE = EntryStatus.SUBSTITUTE.value, _("Ersatzspieler")
    BLOCKED = EntryStatus.BLOCKED.value, _("gesperrt")


class RankingList(models.Model):
    season = models.ForeignKey(
        "leagues.Season", verbose_name=_("Saison"), on_delete=models.CASCADE, related_name="ranking_lists"
    )
    club = models.ForeignKey(
        "ratings.Club",
        verbose_name=_("Verein"),
        on_delete=models.PROTECT,
        related_name="league_ranking_lists",
        help_text=_("Bei einer Spielgemeinschaft der federführende Verein."),
    )
    partner_clubs = models.ManyToManyField(
        "ratings.Club",
        verbose_name=_("Partnervereine (Spielgemeinschaft)"),
        blank=True,
        related_name="league_partner_ranking_lists",
    )
    group = models.CharField(
        _("Gruppe"), max_length=8, choices=RankingGroup.choices, default=RankingGroup.OPEN
    )
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Vereinsspielleiter"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_ranking_lists",
        help_text=_("Pflegt die Rangliste des Vereins."),
    )
    submitted_at = models.DateTimeField(_("gemeldet am"), null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("gemeldet von"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    approved_at = models.DateTimeField(_("genehmigt am"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("genehmigt von"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("Rangliste")
        verbose_name_plural = _("Ranglisten")
        ordering = ["season", "club__zps", "group"]
        constraints = [
            models.UniqueConstraint(fields=["season", "club", "group"], name="rankinglist_unique_group"),
        ]

    def __str__(self) -> str:
        return f"{self.club.name} {self.season.name} ({self.get_group_display()})"

    def as_core(self) -> core.RankingList:
        """The list for the core, keyed by the club's ZPS like ``Team.as_core``; players by primary key."""
        return core.RankingList(
            club=self.club.zps,
            entries=tuple(
                core.RankingEntry(
                    player=str(e.player_id),
                    rank=e.rank,
                    team_number=e.team_number,
                    status=EntryStatus(e.status),
                    dwz=e.dwz,
                    exception=bool(e.exception_note),
                )
                for e in self.entries.all()
            ),
        )


class RankingEntry(models.Model):
    ranking_list = models.ForeignKey(
        RankingList, verbose_name=_("Rangliste"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        "ratings.Player",
        verbose_name=_("Spieler"),
        on_delete=models.PROTECT,
        related_name="league_ranking_entries",
    )
    membership = models.ForeignKey(
        "ratings.Membership",
        verbose_name=_("Mitgliedschaft"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_ranking_entries",
    )
    rank = models.PositiveSmallIntegerField(_("Rang"))
    team_number = models.PositiveSmallIntegerField(
        _("Stammspieler der Mannschaft"), null=True, blank=True, help_text=_("Leer: Ersatzspieler.")
    )
    status = models.CharField(
        _("Status"), max_length=10, choices=RankingEntryStatus.choices, default=RankingEntryStatus.REGULAR
    )
    # A snapshot taken when the list is made (the service computes it from the product's own history).
    dwz = models.PositiveIntegerField(_("DWZ am Stichtag"), null=True, blank=True)
    dwz_index = models.PositiveSmallIntegerField(_("Index am Stichtag"), null=True, blank=True)
    exception_note = models.CharField(
        _("genehmigte Ausnahme"),
        max_length=200,
        blank=True,
        help_text=_("z. B. von der 400-Punkte-Regel; leer: keine Ausnahme."),
    )

    class Meta:
        verbose_name = _("Ranglisteneintrag")
        verbose_name_plural = _("Ranglisteneinträge")
        ordering = ["ranking_list", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["ranking_list", "player"], name="rankingentry_unique_player"),
            models.UniqueConstraint(fields=["ranking_list", "rank"], name="rankingentry_unique_rank"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="rankingentry_rank_positive"),
            models.CheckConstraint(
                condition=Q(team_number__isnull=True) | Q(team_number__gte=1),
                name="rankingentry_team_number_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player}"
