"""Players and their club memberships. A player's current DWZ/index are derived (written by the service)."""

import re
from typing import Self

from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Exists, F, OuterRef, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ratings.enums import FideTitle, PlayerStatus, Sex

from .federation import Club, Organisation, in_subtree_q
from .search_keys import SortKeyField, SortKeyModel, search_key_field

# spec/formats.md §3.4 and dwz-rules.md §16: the nu person id ("NU4005017") or the older numeric PKZ.
DSB_ID_RE = r"^(?:NU)?[0-9]{1,10}$"
dsb_id_validator = RegexValidator(
    DSB_ID_RE, _("DSB-Personen-ID: eine nu-ID wie NU4005017 oder eine Ziffernfolge (PKZ).")
)


# One pattern for every player key (DSB id "NU4005017", PKZ, "C0501-0013", "FIDE-4611993", "TRF-3"): letters,
# digits and hyphens, so a key is a URL path segment as it stands (ratings.web.converters matches exactly
# this).
PLAYER_KEY_PATTERN = r"[0-9A-Za-z][0-9A-Za-z-]{0,39}"
PLAYER_KEY_RE = rf"^{PLAYER_KEY_PATTERN}\Z"
player_key_validator = RegexValidator(
    PLAYER_KEY_RE,
    _("Schlüssel: bis zu 40 Buchstaben, Ziffern und Bindestriche, z. B. C0501-0013 oder NU4005017."),
    code="invalid_key",
)


def is_player_key(value: object) -> bool:
    return isinstance(value, str) and re.fullmatch(PLAYER_KEY_PATTERN, value, flags=re.ASCII) is not None


# What public pages show instead of the name of a player who objected to publication.
HIDDEN_NAME = _("nicht veröffentlicht")


class PlayerQuerySet(models.QuerySet["Player"]):
    def rated(self) -> Self:
        return self.filter(dwz__isnull=False)

    def active(self) -> Self:
        return self.filter(status=PlayerStatus.ACTIVE)

    def _with_membership(self, memberships) -> Self:
        return self.filter(Exists(memberships.filter(player=OuterRef("pk"))))

    def in_club(self, club: Club) -> Self:
        """Current members of ``club``."""
        return self._with_membership(Membership.objects.current().filter(club=club))

    def in_clubs(self, clubs) -> Self:
        """Current members of any of ``clubs`` (a queryset of clubs)."""
        return self._with_membership(Membership.objects.current().filter(club__in=clubs))

    def in_organisation(self, organisation: Organisation) -> Self:
        """Current members of a club of ``organisation`` or of one below it."""
        return self._with_membership(Membership.objects.current().in_organisation(organisation))


class Player(SortKeyModel):
    key = models.CharField(
        _("Schlüssel"),
        max_length=40,
        unique=True,
        validators=[player_key_validator],
        help_text=_("Stabiler Schlüssel: DSB-Personen-ID oder ZPS-Mitgliedsnummer (z. B. C0101-1014)."),
    )
    surname = models.CharField(_("Nachname"), max_length=100)
    first_name = models.CharField(_("Vorname"), max_length=100, blank=True)
    # The names folded for search ("Müller", "Mueller", "MULLER" → "muller"), kept by the database.
    surname_key = search_key_field("surname", 100)
    first_name_key = search_key_field("first_name", 100)
    # The order of names (DIN 5007 variant 1: "Schäfer" before "Schulze"), kept by Python (SortKeyField).
    name_sort = SortKeyField(_("Sortierschlüssel"), max_length=610, sources=("surname", "first_name"))
    sex = models.CharField(_("Geschlecht"), max_length=1, choices=Sex.choices, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("Geburtsjahr"), null=True, blank=True)
    dsb_id = models.CharField(
        _("DSB-Personen-ID"),
        max_length=12,
        null=True,
        blank=True,
        unique=True,
        validators=[dsb_id_validator],
        help_text=_("nu-ID (NU…) oder PKZ aus der DWZ-Liste des DSB."),
    )
    fide_id = models.PositiveIntegerField(_("FIDE-ID"), null=True, blank=True)
    fide_elo = models.PositiveSmallIntegerField(_("Elo"), null=True, blank=True)
    fide_title = models.CharField(_("Titel"), max_length=3, choices=FideTitle.choices, blank=True)
    fide_federation = models.CharField(_("FIDE-Föderation"), max_length=3, blank=True)
    # Derived from the memberships where he has any (A over P, ratings.services.players); players
    # without a club keep what an officer set.
    status = models.CharField(
        _("Status"), max_length=1, choices=PlayerStatus.choices, default=PlayerStatus.ACTIVE
    )
    # Derived: kept equal to a chronological replay by ratings.services only. A full integer: the 2026 rules
    # have no upper bound (1,000 wins of a 1400 over a 2000 give 32,856), so every computed rating column is.
    dwz = models.PositiveIntegerField(_("DWZ"), null=True, blank=True, editable=False)
    index = models.PositiveSmallIntegerField(_("Index"), null=True, blank=True, editable=False)
    last_evaluated = models.DateField(_("letzte Auswertung"), null=True, blank=True, editable=False)
    # The player objected to publication (DSGVO Art. 21; set by an officer or admin on his request through
    # ratings.services.privacy): public pages, exports and the API show "nicht veröffentlicht" instead of
    # his name and history; he stays in every calculation and officers see him in full.
    publication_objection = models.BooleanField(
        _("Veröffentlichung widersprochen"),
        default=False,
        db_default=False,  # the bulk writer (DSB list import, generators) names only the columns it fills
        editable=False,
        help_text=_("Öffentlich erscheint „nicht veröffentlicht“ statt Name und Verlauf."),
    )
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    updated_at = models.DateTimeField(_("geändert"), auto_now=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("Spieler")
        verbose_name_plural = _("Spieler")
        ordering = ["name_sort", "pk"]
        indexes = [
            models.Index(fields=["surname", "first_name"]),
            models.Index(fields=["name_sort"]),
            models.Index(fields=["-dwz"]),
            models.Index(fields=["fide_id"]),  # matching imported files (TRF, DSB list) by FIDE id
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:player-detail", args=[self.key])

    @property
    def name(self) -> str:
        return f"{self.surname}, {self.first_name}" if self.first_name else self.surname

    @property
    def public_name(self) -> str:
        """The name a public page, export or API answer shows: "nicht veröffentlicht" after an objection."""
        return str(HIDDEN_NAME) if self.publication_objection else self.name


class MembershipQuerySet(models.QuerySet["Membership"]):
    def current(self) -> Self:
        """Memberships not ended (``valid_until`` empty)."""
        return self.filter(valid_until__isnull=True)

    def in_organisation(self, organisation: Organisation):
        """Memberships in a club of ``organisation`` or of one below it."""
        return self.filter(in_subtree_q(organisation, prefix="club__"))

    def primary_first(self):
        """Current before ended, then A over P over none (formats.md §3.2), then the oldest."""
        return self.order_by(
            F("valid_until").desc(nulls_first=True),
            F("status").asc(nulls_last=True),
            F("valid_from").asc(nulls_first=True),
            "pk",
        )


def current_membership_q(prefix: str = "") -> Q:
    """Q for rows whose membership (``<prefix>valid_until``) has not ended."""
    return Q(**{f"{prefix}valid_until__isnull": True})


class Membership(models.Model):
    """A player's membership in a club, with its history: the DSB list's date it was first seen
    (``valid_from``) and the date of the first list without it (``valid_until``; empty while current)."""

    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("Verein"), on_delete=models.PROTECT, related_name="memberships"
    )
    # Empty when the list gives nu's placeholder 0000 / 0 (formats.md §3.4): a membership without key.
    member_number = models.CharField(_("Mitgliedsnummer"), max_length=10, blank=True)
    status = models.CharField(
        _("Status"), max_length=1, choices=PlayerStatus.choices, default=PlayerStatus.ACTIVE, blank=True
    )
    valid_from = models.DateField(_("gültig ab"), null=True, blank=True)
    valid_until = models.DateField(
        _("beendet am"), null=True, blank=True, help_text=_("Leer, solange die Mitgliedschaft besteht.")
    )

    objects = MembershipQuerySet.as_manager()

    class Meta:
        verbose_name = _("Mitgliedschaft")
        verbose_name_plural = _("Mitgliedschaften")
        ordering = ["club__zps", "member_number", "pk"]
        constraints = [
            # Among current memberships only: a member number is reused after a member left, and a player
            # may re-join a club he left.
            models.UniqueConstraint(
                fields=["club", "member_number"],
                condition=Q(valid_until__isnull=True) & ~Q(member_number=""),
                name="membership_unique_number_per_club",
            ),
            models.UniqueConstraint(
                fields=["club", "player"],
                condition=Q(valid_until__isnull=True),
                name="membership_unique_player_per_club",
            ),
            models.CheckConstraint(
                condition=Q(valid_from__isnull=True)
                | Q(valid_until__isnull=True)
                | Q(valid_until__gte=F("valid_from")),
                name="membership_ends_after_start",
            ),
        ]
        indexes = [models.Index(fields=["player", "valid_until"])]

    def __str__(self) -> str:
        return f"{self.club.zps}-{self.member_number}" if self.member_number else self.club.zps

    @property
    def current(self) -> bool:
        return self.valid_until is None


class MergedKey(models.Model):
    """The key of a player merged into another (``services.merge``): his card's and the API's old address
    answer with a permanent redirect to the kept player. A merge of the kept player later moves every key
    that pointed at him on, so a chain of merges resolves in one step."""

    key = models.CharField(_("Schlüssel"), max_length=40, unique=True)
    player = models.ForeignKey(
        Player, verbose_name=_("zusammengeführt in"), on_delete=models.CASCADE, related_name="merged_keys"
    )
    merged_at = models.DateTimeField(_("zusammengeführt am"), auto_now=True)

    class Meta:
        verbose_name = _("zusammengeführter Schlüssel")
        verbose_name_plural = _("zusammengeführte Schlüssel")
        ordering = ["key"]

    def __str__(self) -> str:
        return f"{self.key} → {self.player_id}"
