"""Complaints in the admin (issue 30 §3): every one, read-only; they are worked through on the officer's
page (``referent/reklamationen/``), where each step is audited and the reporter mailed."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ratings.admin.base import ReadOnlyAdmin
from ratings.models import Complaint


@admin.register(Complaint)
class ComplaintAdmin(ReadOnlyAdmin):
    list_display = ["pk", "created_at", "context", "name", "status", "routed_to", "inbox_link"]
    list_filter = ["status"]
    search_fields = ["context", "name", "email", "text"]
    date_hierarchy = "created_at"

    @admin.display(description=_("bearbeiten"))
    def inbox_link(self, obj: Complaint) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("ratings:officer-complaint", args=[obj.pk]), _("öffnen")
        )
