"""Followers of a player or a club (e-mail, double opt-in, no account) and the rating notices they get.

An address is never shown anywhere: the pages only say that a mail was sent. A ``Subscription`` is one
address following one player or one club; it counts once its owner confirmed it by the signed link of the
first mail. A ``RatingNotice`` is one player's news: a tournament of his was evaluated, or a late, corrected
or deleted tournament re-evaluated his (``revised``: DWZ before → after, which tournament caused it). The
notices feed the digests (``following.services``) and the Atom feeds (``following.feeds``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ratings.enums import RatingChangeCause
from ratings.models import Club, Player, Tournament


class NoticeKind(models.TextChoices):
    EVALUATED = "evaluated", _("ausgewertet")
    REVISED = "revised", _("neu berechnet")


class RatingNotice(models.Model):
    player = models.ForeignKey(Player, verbose_name=_("Spieler"), on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("Art"), max_length=10, choices=NoticeKind.choices)
    # The tournament whose save or delete caused it; its name and code are copied (it may be deleted).
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("Anlass"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    tournament_name = models.CharField(_("Turnier"), max_length=200, blank=True)
    tournament_code = models.CharField(_("Turniercode"), max_length=40, blank=True)
    tournament_removed = models.BooleanField(_("Turnier gelöscht"), default=False)
    # What else caused a revision: an officer's adjustment, a merge, a DSB list import, a player's data.
    cause = models.CharField(
        _("Ursache"),
        max_length=12,
        choices=RatingChangeCause.choices,
        default=RatingChangeCause.TOURNAMENT,
    )
    dwz_old = models.PositiveIntegerField(_("DWZ vorher"), null=True)
    dwz_new = models.PositiveIntegerField(_("DWZ nachher"), null=True)
    created_at = models.DateTimeField(_("Zeitpunkt"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("DWZ-Nachricht")
        verbose_name_plural = _("DWZ-Nachrichten")
        ordering = ["pk"]
        indexes = [models.Index(fields=["player", "created_at"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.dwz_old} → {self.dwz_new}"

    def reason(self) -> str:
        """Why the DWZ changed, one phrase for the mail and the feed (in the active language)."""
        tournament = self.tournament_name
        if self.kind == NoticeKind.EVALUATED:
            return _("%(tournament)s ausgewertet") % {"tournament": tournament}
        if self.cause == RatingChangeCause.ADJUSTMENT:
            return str(_("Neu berechnet nach einer DWZ-Korrektur des Wertungsreferenten"))
        if self.cause == RatingChangeCause.MERGE:
            return str(_("Neu berechnet nach dem Zusammenführen doppelter Spielerdaten"))
        if self.cause == RatingChangeCause.LIST_IMPORT:
            return str(_("Neu berechnet nach dem Import der DSB-Liste"))
        if self.cause == RatingChangeCause.PLAYER:
            return str(_("Neu berechnet nach einer Änderung der Spielerdaten (etwa des Geburtsjahrs)"))
        if not tournament:
            return str(_("Neu berechnet"))
        if self.tournament_removed:
            return _("Neu berechnet, weil das Turnier %(tournament)s gelöscht wurde") % {
                "tournament": tournament
            }
        return _("Neu berechnet durch das nachgereichte oder korrigierte Turnier %(tournament)s") % {
            "tournament": tournament
        }


class SubscriptionQuerySet(models.QuerySet["Subscription"]):
    def confirmed(self) -> SubscriptionQuerySet:
        return self.filter(confirmed_at__isnull=False)


class Subscription(models.Model):
    email = models.EmailField(_("E-Mail"), max_length=254)
    player = models.ForeignKey(
        Player,
        verbose_name=_("Spieler"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    club = models.ForeignKey(
        Club, verbose_name=_("Verein"), on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    language = models.CharField(_("Sprache"), max_length=8, default="de")
    created_at = models.DateTimeField(_("angelegt"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("bestätigt"), null=True, blank=True)
    last_mailed_at = models.DateTimeField(_("zuletzt benachrichtigt"), null=True, blank=True)
    # The last notice its mails covered: a digest sends the notices after it.
    notified_up_to = models.PositiveBigIntegerField(_("gemeldet bis Nachricht"), default=0)

    objects = SubscriptionQuerySet.as_manager()

    class Meta:
        verbose_name = _("Abonnement")
        verbose_name_plural = _("Abonnements")
        constraints = [
            models.CheckConstraint(
                condition=Q(player__isnull=False, club__isnull=True)
                | Q(player__isnull=True, club__isnull=False),
                name="subscription_one_target",
            ),
            models.UniqueConstraint(
                fields=["email", "player"],
                condition=Q(player__isnull=False),
                name="subscription_unique_player",
            ),
            models.UniqueConstraint(
                fields=["email", "club"], condition=Q(club__isnull=False), name="subscription_unique_club"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} → {self.player_id or self.club_id}"

    @property
    def target(self) -> Player | Club:
        return self.player if self.player_id is not None else self.club  # type: ignore[return-value]
