"""Admin building blocks shared by the admin modules (which ``ratings.admin`` imports to register them)."""

from __future__ import annotations

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows only the services write (evaluations, games, jobs, the audit trail): viewed, never edited here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
