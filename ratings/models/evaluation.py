"""Derived rows written only by the recalculation service: evaluations and Restpartien."""

from typing import Self

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from ratings.dwz import sets_rating
from ratings.enums import Edition, EvaluationStatus

from .player import Player
from .tournament import Tournament


class EvaluationQuerySet(models.QuerySet["Evaluation"]):
    def in_evaluation_order(self) -> Self:
        """Spec §9, from the stored copies: end date, code suffix (coded before uncoded), tournament."""
        return self.order_by("end_date", F("code_suffix").asc(nulls_last=True), "tournament_id")

    def setting_rating(self) -> Self:
        """The evaluations that set the player's DWZ: ``ratings.dwz.sets_rating`` as a database filter."""
        return self.filter(Q(status=EvaluationStatus.FIRST) | Q(status=EvaluationStatus.RATED, n__gt=0))


class Evaluation(models.Model):
    """One player's result in one evaluated tournament (every entry of a rated tournament gets one)."""

    # No index of their own: the unique (tournament, player) and the (player, end_date) index start with
    # them, and every index costs a full recalculation's 2 M inserts (issue 16).
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("Turnier"),
        on_delete=models.CASCADE,
        related_name="evaluations",
        db_index=False,
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("Spieler"),
        on_delete=models.CASCADE,
        related_name="evaluations",
        db_index=False,
    )
    # Copies of the tournament's position at evaluation time (spec §9 order), so a later edit of the
    # tournament header cannot hide where its stored results sat in the replay.
    end_date = models.DateField(_("Ende"))
    code_suffix = models.CharField(_("Code-Suffix"), max_length=3, null=True, blank=True)
    edition = models.CharField(_("Regelwerk"), max_length=10, choices=Edition.choices)
    status = models.CharField(_("Status"), max_length=10, choices=EvaluationStatus.choices)
    dwz_old = models.PositiveIntegerField(_("DWZ alt"), null=True)
    index_old = models.PositiveSmallIntegerField(_("Index alt"), null=True)
    n = models.PositiveSmallIntegerField(_("Partien"))
    points = models.DecimalField(_("Punkte"), max_digits=6, decimal_places=1)
    expected = models.DecimalField(_("Erwartung"), max_digits=7, decimal_places=3, null=True)
    coefficient = models.DecimalField(_("E/K"), max_digits=5, decimal_places=1, null=True)
    level = models.PositiveIntegerField(_("Niveau"), null=True)
    performance = models.PositiveIntegerField(_("Leistung"), null=True)
    dwz_new = models.PositiveIntegerField(_("DWZ neu"), null=True)
    index_new = models.PositiveSmallIntegerField(_("Index neu"), null=True)
    fide_takeover = models.BooleanField(_("Elo-Übernahme"), default=False)
    # Spec §3: R0, Rh of an Ausnahmespieler (§7.4) or the first rating; NULL for a not-rated player (and for
    # rows written before this field existed, until the next ``recalculate``).
    entry_rating = models.PositiveIntegerField(
        _("Eingangswertung"),
        null=True,
        help_text=_("Wertung, mit der der Spieler in die Erwartungswerte seiner Gegner eingeht"),
    )

    objects = EvaluationQuerySet.as_manager()

    class Meta:
        verbose_name = _("Auswertung")
        verbose_name_plural = _("Auswertungen")
        ordering = ["end_date", "tournament_id", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="evaluation_unique_player"),
        ]
        indexes = [models.Index(fields=["player", "end_date"])]

    def __str__(self) -> str:
        return f"{self.player_id}@{self.tournament_id}: {self.dwz_old} → {self.dwz_new}"

    @property
    def changes_rating(self) -> bool:
        """True if this evaluation set the player's DWZ (a first rating or a rated player with games)."""
        return sets_rating(self.status, self.n)


class Restpartie(models.Model):
    """A game handed back to an unrated DSB member (spec §6.10, WO 3.4.3), kept with its tournament.

    Rows are history: they stay after the player gets a rating (then the engine no longer uses them) and
    are rebuilt whenever their tournament is re-evaluated.
    """

    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.CASCADE, related_name="restpartien"
    )
    tournament = models.ForeignKey(  # indexed by the unique (tournament, player, seq)
        Tournament,
        verbose_name=_("Turnier"),
        on_delete=models.CASCADE,
        related_name="restpartien",
        db_index=False,
    )
    seq = models.PositiveSmallIntegerField(_("Reihenfolge"))
    opponent_rating = models.PositiveIntegerField(_("Gegner-DWZ"))
    score = models.DecimalField(_("Ergebnis"), max_digits=2, decimal_places=1)
    end_date = models.DateField(_("gespielt bis"))

    class Meta:
        verbose_name = _("Restpartie")
        verbose_name_plural = _("Restpartien")
        ordering = ["player", "end_date", "tournament_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player", "seq"], name="restpartie_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.opponent_rating} ({self.score}) {self.end_date}"


class EvaluationDigest(models.Model):
    """A certificate for a tournament's stored rows (``ratings.dwz.digest``): the digest of the code, the
    input and the rows that a full recalculation evaluated or confirmed. A recalculation that computes the
    same digest reuses the rows instead of evaluating again; any other value only costs an evaluation, so
    nothing else has to keep it up to date."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="+", verbose_name=_("Turnier")
    )
    digest = models.CharField(_("Prüfsumme"), max_length=32)

    class Meta:
        verbose_name = _("Prüfsumme der Auswertung")
        verbose_name_plural = _("Prüfsummen der Auswertungen")

    def __str__(self) -> str:
        return self.digest
