"""The audit trail: who changed what, when. Rows are never edited or deleted by the application.

Object references are plain integers (not foreign keys) so that an event outlives the object it describes;
the snapshot of a deleted tournament is enough to restore it
(``ratings.services.tournaments.tournament_restore``).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditAction(models.TextChoices):
    CREATE = "create", _("angelegt")
    UPDATE = "update", _("geändert")
    DELETE = "delete", _("gelöscht")
    RESTORE = "restore", _("wiederhergestellt")
    ANNOUNCE = "announce", _("angemeldet")
    SUBMIT = "submit", _("eingereicht")
    # The Abgleich with a DSB list dated after the submission (issue 28 §3): the state it gives.
    CONFIRM = "confirm", _("vom DSB bestätigt")
    DEVIATE = "deviate", _("weicht vom DSB ab")


class AuditObjectType(models.TextChoices):
    TOURNAMENT = "tournament", _("Turnier")
    GAME = "game", _("Partie")
    PLAYER = "player", _("Spieler")
    ADJUSTMENT = "adjustment", _("Wertungsänderung")
    COMPLAINT = "complaint", _("Reklamation")


class AuditEvent(models.Model):
    created_at = models.DateTimeField(_("Zeitpunkt"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Benutzer"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_events",
    )
    username = models.CharField(_("Benutzername"), max_length=150, blank=True)
    action = models.CharField(_("Aktion"), max_length=10, choices=AuditAction.choices)
    object_type = models.CharField(_("Objektart"), max_length=12, choices=AuditObjectType.choices)
    object_id = models.PositiveBigIntegerField(_("Objekt-ID"), null=True, blank=True)
    object_repr = models.CharField(_("Objekt"), max_length=250, blank=True)
    tournament_ref = models.PositiveBigIntegerField(_("Turnier-ID"), null=True, blank=True, db_index=True)
    player_ref = models.PositiveBigIntegerField(_("Spieler-ID"), null=True, blank=True, db_index=True)
    changes = models.JSONField(_("Änderungen"), default=dict, blank=True)
    snapshot = models.JSONField(_("Stand"), null=True, blank=True)
    restored_as = models.PositiveBigIntegerField(
        _("wiederhergestellt als Turnier"), null=True, blank=True, editable=False
    )

    class Meta:
        verbose_name = _("Protokolleintrag")
        verbose_name_plural = _("Protokoll")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        when = f"{self.created_at:%Y-%m-%d %H:%M}" if self.created_at else ""
        return f"{when} {self.username}: {self.get_action_display()} {self.object_repr}"
