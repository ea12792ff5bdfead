"""Tournaments, their participants and games."""

from typing import Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Case, Exists, F, OuterRef, Q, When
from django.db.models.functions import Length, Substr
from django.db.models.lookups import Exact
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ratings.dwz.codes import CODE_MAX_LENGTH, DSB_CODE_LENGTH, TOURNAMENT_CODE_RE
from ratings.enums import BYE_RESULTS, ResultCode

from .federation import Club, Organisation
from .player import Player
from .search_keys import search_key_field

TOURNAMENT_CODE_MESSAGE = _(
    "Turniercode im Format YYWW-ZZZ-KKK (z. B. C524-C05-VM1) oder die UUID des DSB-Portals "
    "(z. B. 019f75b9-af1b-77c0-8e1a-3c5d2b7f9a10)."
)
tournament_code_validator = RegexValidator(TOURNAMENT_CODE_RE, TOURNAMENT_CODE_MESSAGE)


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def in_evaluation_order(self) -> Self:
        """Spec §9, §16: end date, then the KKK of a DSB code (DSB-coded before the others: a portal UUID or
        no code), then creation order."""
        return self.order_by("end_date", F("code_suffix").asc(nulls_last=True), "pk")

    def rated(self) -> Self:
        return self.filter(rated=True)

    def evaluated(self) -> Self:
        """Tournaments with stored evaluations."""
        from .evaluation import Evaluation

        return self.filter(Exists(Evaluation.objects.filter(tournament=OuterRef("pk"))))


class Tournament(models.Model):
    code = models.CharField(
        _("Turniercode"),
        max_length=CODE_MAX_LENGTH,
        unique=True,
        null=True,
        blank=True,
        validators=[tournament_code_validator],
    )
    # KKK of a DSB code: the tie-break among tournaments with the same end date (WO 4.3.3); NULL for a
    # portal UUID (spec §16) and without a code. Valid codes of this length are DSB codes.
    code_suffix = models.GeneratedField(
        expression=Case(
            When(Exact(Length("code"), DSB_CODE_LENGTH), then=Substr("code", 10, 3)), default=None
        ),
        output_field=models.CharField(max_length=3, null=True),
        db_persist=True,
        verbose_name=_("Code-Suffix"),
    )
    name = models.CharField(_("Name"), max_length=200)
    name_key = search_key_field("name", 200)  # the name folded for search, kept by the database
    place = models.CharField(_("Ort"), max_length=100, blank=True)
    start_date = models.DateField(_("Beginn"))
    end_date = models.DateField(_("Ende"), db_index=True)
    rounds = models.PositiveSmallIntegerField(_("Runden"), null=True, blank=True)
    organiser_club = models.ForeignKey(
        Club,
        verbose_name=_("Ausrichter (Verein)"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
    )
    organiser_organisation = models.ForeignKey(
        Organisation,
        verbose_name=_("Ausrichter (Verband)"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
    )
    rating_officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Wertungsreferent"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rated_tournaments",
    )
    time_control = models.CharField(
        _("Bedenkzeit"),
        max_length=100,
        blank=True,
        help_text=_("Wie ausgeschrieben, z. B. „90 Min./40 Züge + 30 Min., 30 Sek./Zug“ (TRF-Satz 122)."),
    )
    notes = models.TextField(_("Notizen"), blank=True)
    rated = models.BooleanField(
        _("DWZ-gewertet"),
        default=True,
        help_text=_("Nicht gewertete Turniere werden gespeichert, aber nicht ausgewertet."),
    )
    tiebreaks = models.CharField(
        _("Feinwertungen"),
        max_length=200,
        blank=True,
        help_text=_(
            "FIDE-Codes der Feinwertungen, durch Kommas getrennt (aus dem TRF-Datensatz 202), z. B. "
            "„BH:GP/C1,SB“. Leer: Buchholz und Sonneborn-Berger."
        ),
    )
    # SHA-256 of the imported file (TRF upload, import_trf, import_tournament): the same file imported again
    # is a likely duplicate (issue 26 §2). Empty for tournaments typed in.
    source_digest = models.CharField(
        _("Prüfsumme der Datei"), max_length=64, blank=True, db_index=True, editable=False
    )
    # The tournamentUUID of its DSB XML report, stored at the first export (a portal UUID as code is used
    # instead): a corrected file replaces the earlier report.
    xml_uuid = models.UUIDField(_("UUID des DSB-Berichts"), null=True, blank=True, editable=False)
    # Announced before its start (WO 7.6): the head only, results entered later.
    announced = models.BooleanField(_("angemeldet"), default=False)
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    updated_at = models.DateTimeField(_("geändert"), auto_now=True)
    # Optimistic locking: every save through the tournament services increments it; a form posts the version
    # it was loaded at, and a save of an outdated one is refused (another officer changed the tournament).
    version = models.PositiveIntegerField(_("Version"), default=1, editable=False)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")
        ordering = ["-end_date", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(start_date__lte=F("end_date")), name="tournament_start_not_after_end"
            ),
            models.CheckConstraint(
                condition=Q(organiser_club__isnull=True) | Q(organiser_organisation__isnull=True),
                name="tournament_one_organiser",
            ),
        ]
        indexes = [
            # Every recalculation asks for unrated tournaments still holding rows (``replay_reach``): a
            # scan of all 58,000 tournaments at 2 M evaluations without it, of the few unrated with it.
            models.Index(fields=["id"], condition=Q(rated=False), name="tournament_unrated"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})" if self.code else self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:tournament-detail", args=[self.pk])

    @property
    def tiebreak_codes(self) -> list[str]:
        return [c.strip() for c in self.tiebreaks.split(",") if c.strip()]

    def clean(self) -> None:
        super().clean()
        if self.start_date and self.end_date and self.start_date > self.end_date:
            raise ValidationError({"end_date": _("Das Ende liegt vor dem Beginn.")})
        if self.organiser_club_id and self.organiser_organisation_id:
            raise ValidationError(_("Ausrichter ist entweder ein Verein oder ein Verband, nicht beides."))
        if self.code == "":
            self.code = None

    @property
    def organiser(self) -> Club | Organisation | None:
        return self.organiser_club or self.organiser_organisation


class TournamentEntry(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("Turnier"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.PROTECT, related_name="entries"
    )
    start_rank = models.PositiveSmallIntegerField(_("Startrang"), null=True, blank=True)
    # WO 3.4.3: a player who is not a member of a DSB club takes part in the calculation, but gets no DWZ
    # and keeps no Restpartien from this tournament.
    member = models.BooleanField(
        _("DSB-Mitglied"),
        default=True,
        help_text=_("Nichtmitglieder werden mitgerechnet, erhalten aber keine DWZ und keine Restpartien."),
    )
    # The final rank the pairing program wrote into the imported file (TRF 001, columns 86–89).
    file_rank = models.PositiveSmallIntegerField(_("Rang laut Datei"), null=True, blank=True)

    class Meta:
        verbose_name = _("Teilnehmer")
        verbose_name_plural = _("Teilnehmer")
        ordering = ["tournament", F("start_rank").asc(nulls_last=True), "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player"),
            models.UniqueConstraint(
                fields=["tournament", "start_rank"],
                condition=Q(start_rank__isnull=False),
                name="entry_unique_start_rank",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start_rank or '-'}. {self.player}"


class Game(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("Turnier"), on_delete=models.CASCADE, related_name="games"
    )
    round = models.PositiveSmallIntegerField(_("Runde"))
    board = models.PositiveSmallIntegerField(_("Brett"), null=True, blank=True)
    white = models.ForeignKey(
        Player, verbose_name=_("Weiß"), on_delete=models.PROTECT, related_name="games_as_white"
    )
    black = models.ForeignKey(
        Player,
        verbose_name=_("Schwarz"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games_as_black",
        help_text=_("Leer bei spielfrei/Freilos."),
    )
    result = models.CharField(_("Ergebnis"), max_length=7, choices=ResultCode.choices)

    class Meta:
        verbose_name = _("Partie")
        verbose_name_plural = _("Partien")
        ordering = ["tournament", "round", F("board").asc(nulls_last=True), "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_white_not_black"),
            models.CheckConstraint(
                condition=(Q(black__isnull=True) & Q(result__in=sorted(BYE_RESULTS)))
                | (Q(black__isnull=False) & ~Q(result__in=sorted(BYE_RESULTS))),
                name="game_bye_iff_no_black",
            ),
            models.CheckConstraint(condition=Q(round__gte=1), name="game_round_positive"),
            models.UniqueConstraint(
                fields=["tournament", "round", "white"], name="game_white_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "black"], name="game_black_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        black = self.black if self.black_id else "–"
        return f"R{self.round}: {self.white} – {black} {self.result}"
