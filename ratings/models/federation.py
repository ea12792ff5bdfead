"""The federation tree: DSB → Landesverband → Bezirk/Kreis (Organisation) and the clubs below it."""

from typing import Self

from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .search_keys import SortKeyField, SortKeyModel

# spec/formats.md §5 (decision): federation/district codes and club ZPS/VKZ codes.
ORGANISATION_CODE_RE = r"^[0-9A-HKLM][0-9A-Z]{2}$"
CLUB_ZPS_RE = r"^[1-9A-HLM][0-9A-Z]{4}$"

organisation_code_validator = RegexValidator(
    ORGANISATION_CODE_RE, _("Verbandskennziffer: drei Zeichen wie 000, C00 oder C05.")
)
club_zps_validator = RegexValidator(CLUB_ZPS_RE, _("ZPS/VKZ: fünf Zeichen wie C0101."))


# Federations nest DSB → Landesverband → Bezirk → Kreis; a little deeper is allowed, never more.
MAX_DEPTH = 6


def in_subtree_q(organisation: "Organisation", prefix: str = "") -> Q:
    """Q for rows whose ``<prefix>organisation`` is ``organisation`` or one below it."""
    q = Q()
    path = f"{prefix}organisation"
    for _depth in range(MAX_DEPTH):
        q |= Q(**{path: organisation})
        path += "__parent"
    return q


class OrganisationQuerySet(models.QuerySet["Organisation"]):
    def subtree(self, organisation: "Organisation") -> Self:
        """``organisation`` and the organisations below it."""
        q = Q(pk=organisation.pk)
        path = "parent"
        for _depth in range(MAX_DEPTH - 1):
            q |= Q(**{path: organisation})
            path += "__parent"
        return self.filter(q)


class ClubQuerySet(models.QuerySet["Club"]):
    def in_organisation(self, organisation: "Organisation") -> Self:
        """Clubs of ``organisation`` and of every organisation below it."""
        return self.filter(in_subtree_q(organisation))


class Organisation(models.Model):
    code = models.CharField(
        _("Kennziffer"), max_length=3, unique=True, validators=[organisation_code_validator]
    )
    name = models.CharField(_("Name"), max_length=200)
    parent = models.ForeignKey(
        "self",
        verbose_name=_("übergeordneter Verband"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="children",
    )

    objects = OrganisationQuerySet.as_manager()

    class Meta:
        verbose_name = _("Verband")
        verbose_name_plural = _("Verbände")
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("ratings:organisation-detail", args=[self.code])

    @property
    def level(self) -> int:
        """0 = DSB, 1 = Landesverband, 2 = Bezirk/Kreis (deeper nesting counts on)."""
        depth, node = 0, self
        while node.parent_id is not None:
            depth += 1
            parent = node.parent
            assert parent is not None  # parent_id is set
            node = parent
        return depth


class Club(SortKeyModel):
    zps = models.CharField(_("ZPS"), max_length=5, unique=True, validators=[club_zps_validator])
    name = models.CharField(_("Name"), max_length=200)
    # The order of names (DIN 5007 variant 1), kept by Python (SortKeyField).
    name_sort = SortKeyField(_("Sortierschlüssel"), max_length=610, sources=("name",))
    organisation = models.ForeignKey(
        Organisation, verbose_name=_("Verband"), on_delete=models.PROTECT, related_name="clubs"
    )

    objects = ClubQuerySet.as_manager()

    class Meta:
        verbose_name = _("Verein")
        verbose_name_plural = _("Vereine")
        ordering = ["zps"]
        indexes = [models.Index(fields=["name_sort"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.zps})"

    def get_absolute_url(self) -> str:
        return reverse("ratings:club-detail", args=[self.zps])
