"""Admin for the officer models: scopes, entry modes, the audit log with "restore" for deleted
tournaments. Imported by ``ratings/admin.py``."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ratings.admin.base import ReadOnlyAdmin
from ratings.admin.reports import report_text
from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
from ratings.models.officer import OfficerScope, TournamentEntryMode
from ratings.services.tournaments import tournament_restore
from ratings.web.audit_display import actor as audit_actor


@admin.register(OfficerScope)
class OfficerScopeAdmin(admin.ModelAdmin):
    list_display = ["user", "organisation", "club"]
    list_select_related = ["user", "organisation", "club"]
    search_fields = ["user__username", "organisation__code", "organisation__name", "club__zps", "club__name"]
    autocomplete_fields = ["organisation", "club"]


@admin.register(TournamentEntryMode)
class TournamentEntryModeAdmin(admin.ModelAdmin):
    list_display = ["tournament", "mode"]
    list_select_related = ["tournament"]
    list_filter = ["mode"]
    search_fields = ["tournament__name", "tournament__code"]
    autocomplete_fields = ["tournament"]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action", "object_type", "object_repr", "restored_as"]
    list_filter = ["action", "object_type"]
    search_fields = ["username", "object_repr"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in AuditEvent._meta.fields]
    actions = ["restore_tournament"]

    @admin.display(description=_("Benutzer"), ordering="username")
    def actor(self, obj):
        return audit_actor(obj)

    def has_view_permission(self, request, obj=None):
        return request.user.is_staff

    @admin.action(description=_("Gelöschtes Turnier wiederherstellen"), permissions=["restore"])
    def restore_tournament(self, request, queryset):
        events = queryset.filter(action=AuditAction.DELETE, object_type=AuditObjectType.TOURNAMENT)
        if not events:
            messages.warning(request, _("Bitte Löschungen von Turnieren auswählen."))
        for event in events:
            try:
                tournament, report = tournament_restore(event=event, user=request.user)
            except ValidationError as exc:
                messages.error(request, f"{event.object_repr}: {'; '.join(exc.messages)}")
            else:
                messages.success(
                    request,
                    _("„%(name)s“ wiederhergestellt; %(report)s")
                    % {"name": tournament, "report": report_text(report)},
                )

    def has_restore_permission(self, request) -> bool:
        return request.user.is_staff
