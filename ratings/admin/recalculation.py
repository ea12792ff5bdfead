"""Admin: background recalculations (read-only; the progress page is their "view on site")."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from ratings.admin.base import ReadOnlyAdmin
from ratings.models import RecalculationJob
from ratings.services.background import jobs_resume


@admin.register(RecalculationJob)
class RecalculationJobAdmin(ReadOnlyAdmin):
    list_display = ["pk", "since", "status", "done", "total", "attempts", "created_at", "finished_at"]
    list_filter = ["status"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in RecalculationJob._meta.fields]
    actions = ["resume"]

    @admin.action(description=_("Unfertige Neuberechnungen erneut einreihen"), permissions=["view"])
    def resume(self, request, queryset):
        ids = jobs_resume()
        messages.info(request, _("%(count)s Neuberechnung(en) erneut eingereiht.") % {"count": len(ids)})
