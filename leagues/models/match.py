"""Team matches and their boards: the sporting result for the table, the rated result for the DWZ."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from leagues.core import types as core


class MatchStatus(models.TextChoices):
    SCHEDULED = core.MatchStatus.SCHEDULED.value, _("angesetzt")
    PLAYED = core.MatchStatus.PLAYED.value, _("gespielt")
    HOME_FORFEIT = core.MatchStatus.HOME_FORFEIT.value, _("kampflos verloren (Heim)")
    AWAY_FORFEIT = core.MatchStatus.AWAY_FORFEIT.value, _("kampflos verloren (Gast)")
    DOUBLE_FORFEIT = core.MatchStatus.DOUBLE_FORFEIT.value, _("beiderseits kampflos verloren")
    BYE = core.MatchStatus.BYE.value, _("spielfrei")


class LeagueResult(models.TextChoices):
    """A board's result from the home player's side (the import contract's codes)."""

    HOME_WINS = core.Result.HOME_WINS.value, "1-0"
    AWAY_WINS = core.Result.AWAY_WINS.value, "0-1"
    DRAW = core.Result.DRAW.value, "½-½"
    HOME_WINS_FORFEIT = core.Result.HOME_WINS_FORFEIT.value, _("+- (kampflos für Heim)")
    AWAY_WINS_FORFEIT = core.Result.AWAY_WINS_FORFEIT.value, _("-+ (kampflos für Gast)")
    DOUBLE_FORFEIT = core.Result.DOUBLE_FORFEIT.value, _("-- (beide kampflos verloren)")


class Match(models.Model):
    division = models.ForeignKey(
        "leagues.Division", verbose_name=_("Staffel"), on_delete=models.CASCADE, related_name="matches"
    )
    round = models.PositiveSmallIntegerField(_("Runde"))
    cycle = models.PositiveSmallIntegerField(_("Durchgang"), default=1)
    home = models.ForeignKey(
        "leagues.Team", verbose_name=_("Heim"), on_delete=models.PROTECT, related_name="home_matches"
    )
    away = models.ForeignKey(
        "leagues.Team",
        verbose_name=_("Gast"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="away_matches",
        help_text=_("Leer, wenn die Heimmannschaft spielfrei ist."),
    )
    scheduled_date = models.DateField(_("angesetzt am"))
    played_on = models.DateField(_("gespielt am"), null=True, blank=True, help_text=_("Bei Verlegung."))
    status = models.CharField(
        _("Status"), max_length=16, choices=MatchStatus.choices, default=MatchStatus.SCHEDULED
    )
    # Derived from the boards by the core (leagues.core.table.match_score), written by the services.
    home_board_points_halves = models.PositiveSmallIntegerField(
        _("Brettpunkte Heim (halbe)"), null=True, blank=True, editable=False
    )
    away_board_points_halves = models.PositiveSmallIntegerField(
        _("Brettpunkte Gast (halbe)"), null=True, blank=True, editable=False
    )
    home_match_points = models.PositiveSmallIntegerField(
        _("Mannschaftspunkte Heim"), null=True, blank=True, editable=False
    )
    away_match_points = models.PositiveSmallIntegerField(
        _("Mannschaftspunkte Gast"), null=True, blank=True, editable=False
    )
    reported_at = models.DateTimeField(_("gemeldet am"), null=True, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("gemeldet von"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    approved_at = models.DateTimeField(_("bestätigt am"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("bestätigt von"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    comment = models.TextField(_("Bemerkung"), blank=True)

    class Meta:
        verbose_name = _("Mannschaftskampf")
        verbose_name_plural = _("Mannschaftskämpfe")
        ordering = ["division", "round", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(home=F("away")), name="match_home_not_away"),
            models.CheckConstraint(condition=Q(round__gte=1), name="match_round_positive"),
            models.CheckConstraint(condition=Q(cycle__in=[1, 2]), name="match_cycle_1_or_2"),
            models.CheckConstraint(
                condition=(Q(status=MatchStatus.BYE) & Q(away__isnull=True))
                | (~Q(status=MatchStatus.BYE) & Q(away__isnull=False)),
                name="match_bye_iff_no_away",
            ),
            models.UniqueConstraint(fields=["division", "round", "home"], name="match_home_once_per_round"),
            models.UniqueConstraint(fields=["division", "round", "away"], name="match_away_once_per_round"),
        ]
        indexes = [
            models.Index(fields=["division", "round"], name="match_division_round"),
            models.Index(fields=["division", "played_on"], name="match_division_played_on"),
        ]

    def __str__(self) -> str:
        away = self.away.name if self.away is not None else _("spielfrei")
        return f"R{self.round}: {self.home.name} – {away}"

    @property
    def date(self):
        """The day the match was actually played: the postponed date, else the scheduled one."""
        return self.played_on or self.scheduled_date

    def as_core(self, boards: Sequence[Board] | None = None) -> core.Match:
        """The match for the core (prefetch ``boards`` when converting many; ``boards``: the match's boards
        as the caller just stored them, read no more)."""
        return core.Match(
            round=self.round,
            home=str(self.home_id),
            away=None if self.away_id is None else str(self.away_id),
            date=self.scheduled_date,
            status=self.status,
            boards=tuple(board.as_core() for board in (self.boards.all() if boards is None else boards)),
            played_on=self.played_on,
            cycle=self.cycle,
            id=str(self.pk),
        )

    def clean(self) -> None:
        """Both teams are of the match's division, and a team plays once per round, home or away (the database
        sees each column alone)."""
        super().clean()
        if self.division_id is None or self.home_id is None:
            return
        if any(t.division_id != self.division_id for t in (self.home, self.away) if t is not None):
            raise ValidationError(
                _("Beide Mannschaften müssen in der Staffel des Mannschaftskampfs spielen.")
            )
        teams = [t for t in (self.home_id, self.away_id) if t is not None]
        clash = (
            Match.objects.filter(division_id=self.division_id, round=self.round)
            .filter(Q(home_id__in=teams) | Q(away_id__in=teams))
            .exclude(pk=self.pk)
            .exists()
        )
        if clash:
            raise ValidationError(_("Eine der Mannschaften spielt in dieser Runde schon."))


class Board(models.Model):
    match = models.ForeignKey(
        Match, verbose_name=_("Mannschaftskampf"), on_delete=models.CASCADE, related_name="boards"
    )
    number = models.PositiveSmallIntegerField(_("Brett"))
    home_player = models.ForeignKey(
        "ratings.Player",
        verbose_name=_("Spieler Heim"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="league_home_boards",
        help_text=_("Leer: Brett nicht besetzt."),
    )
    away_player = models.ForeignKey(
        "ratings.Player",
        verbose_name=_("Spieler Gast"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="league_away_boards",
        help_text=_("Leer: Brett nicht besetzt."),
    )
    home_white = models.BooleanField(
        _("Heim hat Weiß"), null=True, blank=True, help_text=_("Leer: wie in der Staffel eingestellt.")
    )
    result = models.CharField(
        _("Ergebnis"), max_length=7, choices=LeagueResult.choices, blank=True, help_text=_("Für die Tabelle.")
    )
    rated_result = models.CharField(
        _("gewertetes Ergebnis"),
        max_length=7,
        choices=LeagueResult.choices,
        blank=True,
        help_text=_("Für die DWZ; leer: wie das Ergebnis."),
    )
    played_on = models.DateField(
        _("gespielt am"), null=True, blank=True, help_text=_("Leer: Tag des Kampfes.")
    )
    game = models.OneToOneField(
        "ratings.Game",
        verbose_name=_("Partie im DWZ-Turnier"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_board",
        editable=False,
    )

    class Meta:
        verbose_name = _("Brett")
        verbose_name_plural = _("Bretter")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="board_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
            models.CheckConstraint(condition=~Q(home_player=F("away_player")), name="board_players_differ"),
            models.CheckConstraint(
                condition=Q(result="") | Q(result__in=core.RESULT_CODES_SORTED), name="board_result_known"
            ),
            models.CheckConstraint(
                condition=Q(rated_result="") | Q(rated_result__in=core.RESULT_CODES_SORTED),
                name="board_rated_result_known",
            ),
        ]
        # A player's boards: the foreign keys' own indexes (home_player, away_player) serve them.

    def __str__(self) -> str:
        home = self.home_player or "–"
        away = self.away_player or "–"
        return f"{self.match}, Brett {self.number}: {home} – {away} {self.result}"

    def clean(self) -> None:
        """The board exists in the division (board 9 of an 8-board division does not)."""
        super().clean()
        if self.match_id is not None and self.number and self.number > self.match.division.boards:
            raise ValidationError(
                {
                    "number": _("Die Staffel spielt an %(boards)d Brettern.")
                    % {"boards": self.match.division.boards}
                }
            )

    def as_core(self) -> core.Board:
        """The board for the core: players by primary key as text, an empty result as None."""
        return self.core_of(
            self.number, self.home_player_id, self.away_player_id, self.result, self.rated_result,
            self.played_on, self.home_white,
        )  # fmt: skip

    @staticmethod
    def core_of(
        number: int,
        home_player_id: int | None,
        away_player_id: int | None,
        result: str,
        rated_result: str,
        played_on: datetime.date | None,
        home_white: bool | None,
    ) -> core.Board:
        """``as_core`` of a board read as plain values (a card's record reads hundreds)."""
        return core.Board(
            number=number,
            home=None if home_player_id is None else str(home_player_id),
            away=None if away_player_id is None else str(away_player_id),
            result=result or None,
            rated_result=rated_result or None,
            played_on=played_on,
            home_white=home_white,
        )
