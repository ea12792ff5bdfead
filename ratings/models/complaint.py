"""Complaints (Reklamation, issue 30 §3): a visitor reports an error on a player's card or a tournament's
page; the report is routed to the officers responsible (``ratings.services.complaints``) and closed there
with a note, which is mailed to the reporter."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .player import Player
from .tournament import Tournament


class ComplaintStatus(models.TextChoices):
    OPEN = "open", _("offen")
    IN_PROGRESS = "progress", _("in Bearbeitung")
    DONE = "done", _("erledigt")


class Complaint(models.Model):
    created_at = models.DateTimeField(_("eingegangen"), auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(_("geändert"), auto_now=True)
    name = models.CharField(_("Name"), max_length=100)
    email = models.EmailField(_("E-Mail"), max_length=254)
    text = models.TextField(_("Beschreibung"), max_length=4000)
    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("Turnier"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # What the page showed when it was sent (the player's or tournament's name, its code): kept when the
    # record is deleted or renamed later.
    context = models.CharField(_("Bezug"), max_length=250, blank=True)
    # Who it was routed to when it came in (the tournament's rating officer, else the officers of the nearest
    # area up the tree, else the admins); admins see every complaint.
    recipients = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("zuständig"), related_name="complaints", blank=True
    )
    routed_to = models.CharField(_("weitergeleitet an"), max_length=250, blank=True)
    status = models.CharField(
        _("Status"), max_length=10, choices=ComplaintStatus.choices, default=ComplaintStatus.OPEN
    )
    note = models.TextField(_("Notiz"), blank=True, max_length=4000)
    done_at = models.DateTimeField(_("erledigt am"), null=True, blank=True)

    class Meta:
        verbose_name = _("Reklamation")
        verbose_name_plural = _("Reklamationen")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.context or self.name}"
