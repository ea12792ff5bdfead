"""Frozen lists (Stichtagslisten): an area's rating list as of a day, stored once, never recalculated."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .federation import Club, Organisation
from .player import HIDDEN_NAME, Player
from .tournament import Tournament


class FrozenList(models.Model):
    """A list as it stood when it was frozen: the area's players with their DWZ-Index at ``stichtag``.

    The area is a club, an organisation (with everything below it) or, for staff, the whole federation
    (neither). Its rows are written once by ``services.frozen_lists.frozen_list_create``; a later
    recalculation leaves them alone (``selectors.frozen_lists.revisions`` shows what it revised since)."""

    name = models.CharField(_("Name"), max_length=100)
    stichtag = models.DateField(_("Stichtag"))
    organisation = models.ForeignKey(
        Organisation, verbose_name=_("Verband"), on_delete=models.PROTECT, null=True, blank=True
    )
    club = models.ForeignKey(Club, verbose_name=_("Verein"), on_delete=models.PROTECT, null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("eingefroren von"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("eingefroren am"), auto_now_add=True)

    class Meta:
        verbose_name = _("Stichtagsliste")
        verbose_name_plural = _("Stichtagslisten")
        ordering = ["-stichtag", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(organisation__isnull=True) | Q(club__isnull=True), name="frozen_list_one_area"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def area(self) -> str:
        if self.club is not None:
            return str(self.club.name)
        if self.organisation is not None:
            return str(self.organisation.name)
        return str(_("alle Verbände"))


class FrozenListRow(models.Model):
    """One player of a frozen list, with what the list showed of him (kept even if he is renamed later)."""

    frozen_list = models.ForeignKey(
        FrozenList, verbose_name=_("Stichtagsliste"), on_delete=models.CASCADE, related_name="rows"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.SET_NULL, null=True, related_name="+"
    )
    position = models.PositiveIntegerField(_("Position"))
    rank = models.PositiveIntegerField(_("Rang"), null=True)
    key = models.CharField(_("Schlüssel"), max_length=40)
    surname = models.CharField(_("Nachname"), max_length=100)
    first_name = models.CharField(_("Vorname"), max_length=100, blank=True)
    club_name = models.CharField(_("Verein"), max_length=200, blank=True)
    club_zps = models.CharField(_("ZPS"), max_length=5, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("Jahrgang"), null=True)
    sex = models.CharField(_("Geschlecht"), max_length=1, blank=True)
    dwz = models.PositiveIntegerField(_("DWZ"), null=True)
    index = models.PositiveSmallIntegerField(_("Index"), null=True)
    fide_elo = models.PositiveSmallIntegerField(_("Elo"), null=True)
    fide_title = models.CharField(_("Titel"), max_length=3, blank=True)
    fide_id = models.PositiveIntegerField(_("FIDE-ID"), null=True)
    fide_federation = models.CharField(_("FIDE-Land"), max_length=3, blank=True)
    last_evaluated = models.DateField(_("Letzte Auswertung"), null=True)
    # The tournament of his last rating evaluation up to the Stichtag when frozen (None: a start value,
    # an adjustment or no rating): a revision names the tournament that gives the value now.
    source = models.ForeignKey(
        Tournament, verbose_name=_("Turnier"), on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        verbose_name = _("Zeile einer Stichtagsliste")
        verbose_name_plural = _("Zeilen einer Stichtagsliste")
        ordering = ["frozen_list", "position"]
        constraints = [
            models.UniqueConstraint(fields=["frozen_list", "position"], name="frozen_row_unique_position"),
        ]

    def __str__(self) -> str:
        return f"{self.frozen_list_id}/{self.position}: {self.surname}"

    @property
    def name(self) -> str:
        return f"{self.surname}, {self.first_name}" if self.first_name else self.surname

    @property
    def publication_objection(self) -> bool:
        """His player objected to publication (``hidden``, annotated by ``selectors.frozen_lists``)."""
        return bool(getattr(self, "hidden", False))

    @property
    def public_name(self) -> str:
        return str(HIDDEN_NAME) if self.publication_objection else self.name
