"""Each player's DWZ-Index over time, as runs of days: what the lists at a Stichtag read.

Derived from the stored evaluations and adjustments alone (``ratings.recalculation.spans``), rewritten for
the players whose stored rows change, and compared with a rebuild by ``ratings_verify`` and the tests.
"""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from .player import Player

# A span's value: ``dwz * SCALE + index + 1`` (no index: + 0); the recalculation writes it.
SCALE = 100_000


class RatingSpan(models.Model):
    """The player's DWZ and index from ``valid_from`` up to the day before ``valid_until``, and his last
    evaluation that set them. At every day each player has exactly one span (one without a DWZ before his
    first value), so a list at a day joins one row per player and a count needs no join at all."""

    # No foreign key in the database: a late chain rewrites tens of thousands of spans, and checking each
    # row's player cost as much as writing it; the spans are derived, compared with a rebuild by
    # ``ratings_verify`` (a span without a player too), and deleted with their player by the ORM.
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_spans",
        db_index=False,
        db_constraint=False,
        editable=False,
    )
    valid_from = models.DateField(editable=False)
    valid_until = models.DateField(editable=False)
    # ``dwz * 100000 + index + 1`` (no index: + 0), whose order is the list's (DWZ, then the higher index);
    # 0: no DWZ. Never NULL, so the list's order is the index's order without a NULLS clause.
    value = models.BigIntegerField(editable=False)
    last_evaluated = models.DateField(null=True, editable=False)

    class Meta:
        verbose_name = _("Wertungsabschnitt")
        verbose_name_plural = _("Wertungsabschnitte")
        indexes = [
            # The list at a day, best first: read in value order until a page is full (PostgreSQL reads the
            # days from the index alone).
            models.Index(
                fields=["value"], include=["valid_from", "valid_until", "player"], name="ratings_span_value"
            ),
            # The list at a day by its last evaluations, latest first: read backwards from the day (a span
            # alive at a day has its last evaluation on or before it).
            models.Index(
                fields=["last_evaluated"],
                include=["valid_from", "valid_until", "player"],
                name="ratings_span_last",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(valid_from__lt=F("valid_until")), name="rating_span_not_empty"
            ),
            # Also the index of one player's spans (a list of few players at a day, the rebuild).
            models.UniqueConstraint(fields=["player", "valid_from"], name="rating_span_one_start"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.valid_from}–{self.valid_until} {self.value}"
