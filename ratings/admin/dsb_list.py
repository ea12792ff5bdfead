"""Admin pages for the DSB list: upload a list, follow the import, read and download its report.

The import runs as a background task (``ratings.tasks.list_import_task``): a federation's list of 100,000
rows takes longer than a request should. Imported by ``ratings/admin.py``.
"""

from __future__ import annotations

import datetime

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.formats.dsb_list import ListError, read_list_bytes
from ratings.formats.organisation_tree import GENERATION as TREE_GENERATION
from ratings.models import ListImport, ListImportStatus
from ratings.services.dsb_list import REPORT_OUTCOMES, UMSTUFUNG_DATE, list_limits, report_csv
from ratings.services.official_comparison import abgleich_line

MAX_UPLOAD = 50 * 1024 * 1024
SHOWN_ROWS = 500


class ListUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("DWZ-Liste"),
        help_text=gettext_lazy(
            "LV-x-csv.zip oder LV-x-dos.zip des DSB, oder eine spieler.csv / SPIELER.TXT; oder der "
            "Verbandsbaum allein (CSV mit den Spalten vkz, name, parent_vkz, wie der DeWIS-Export)."
        ),
    )
    as_of = forms.DateField(
        label=gettext_lazy("Stand"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy("Leer: das Datum im Namen oder der Dateien des Zips, sonst heute."),
    )
    dry_run = forms.BooleanField(
        label=gettext_lazy("Probelauf (nichts speichern, nur den Bericht zeigen)"), required=False
    )
    umstufung = forms.BooleanField(
        label=gettext_lazy("Umstufung 2026 (Werte vom 08.06.2026 als Wertungsänderung übernehmen)"),
        required=False,
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("Die Datei ist größer als 50 MB."))
        if not upload.name.lower().endswith((".zip", ".csv", ".txt")):
            raise forms.ValidationError(_("Erwartet wird eine .zip-, .csv- oder .txt-Datei."))
        data = upload.read()
        try:  # a list that cannot be used is answered here, before anything is queued
            self.dsb_list = read_list_bytes(data, upload.name, limits=list_limits())
        except ListError as exc:
            raise forms.ValidationError(
                _(exc.template) % exc.params if exc.params else _(exc.template)
            ) from exc
        self.data_bytes = data
        return upload

    def clean(self):
        data = super().clean()
        as_of = data.get("as_of")
        if data.get("umstufung") and as_of not in (None, UMSTUFUNG_DATE):
            self.add_error("as_of", _("Die Umstufung 2026 gilt für den Stand 08.06.2026."))
        tree = getattr(self, "dsb_list", None) is not None and self.dsb_list.generation == TREE_GENERATION
        if data.get("umstufung") and tree:
            self.add_error(
                "umstufung", _("Die Umstufung 2026 gilt für eine DWZ-Liste, nicht den Verbandsbaum.")
            )
        return data


@admin.register(ListImport)
class ListImportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "file_name", "as_of", "status", "counts", "exit_code", "user"]
    list_filter = ["status", "dry_run", "umstufung"]
    list_select_related = ["user"]
    search_fields = ["file_name"]
    date_hierarchy = "created_at"

    @admin.display(description=gettext_lazy("angelegt / geändert / unverändert / abgelehnt"))
    def counts(self, obj: ListImport) -> str:
        s = obj.summary or {}
        if "rows" not in s:
            return "–"
        return f"{s['created']} / {s['updated']} / {s['unchanged']} / {s['rejected']}"

    def has_change_permission(self, request, obj=None):
        return False  # an import is a record; its report is shown by the view below

    def get_urls(self):
        return [
            path(
                "<int:pk>/bericht.csv",
                self.admin_site.admin_view(self.report_download),
                name="ratings_listimport_report",
            ),
            *super().get_urls(),
        ]

    def add_view(self, request, form_url="", extra_context=None):
        if not self.has_add_permission(request):
            return HttpResponse(status=403)
        form = ListUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            list_import = ListImport.objects.create(
                file_name=form.cleaned_data["file"].name[:255],
                as_of=form.cleaned_data["as_of"]
                or (UMSTUFUNG_DATE if form.cleaned_data["umstufung"] else None),
                generation=form.dsb_list.generation,
                dry_run=form.cleaned_data["dry_run"],
                umstufung=form.cleaned_data["umstufung"],
                total=7,
                data=form.data_bytes,
                user=request.user,
            )
            transaction.on_commit(lambda: _enqueue(list_import.pk))
            tree = form.dsb_list.generation == TREE_GENERATION
            messages.info(
                request, _("Der Verbandsbaum wird importiert.") if tree else _("Die Liste wird importiert.")
            )
            return HttpResponseRedirect(reverse("admin:ratings_listimport_change", args=[list_import.pk]))
        tree = request.GET.get("art") == "verbandsbaum"
        context = {
            **self.admin_site.each_context(request),
            "title": _("Verbandsbaum importieren") if tree else _("DSB-Liste importieren"),
            "tree": tree,
            "form": form,
            "opts": self.model._meta,
            "has_view_permission": True,
        }
        return TemplateResponse(request, "admin/ratings/listimport/upload.html", context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        list_import = get_object_or_404(ListImport, pk=object_id)
        if not self.has_view_permission(request, list_import):
            return HttpResponse(status=403)
        shown = [row for row in list_import.report if row[0] not in ("created", "unchanged")]
        context = {
            **self.admin_site.each_context(request),
            "title": str(list_import),
            "object": list_import,
            "opts": self.model._meta,
            "running": list_import.status in (ListImportStatus.QUEUED, ListImportStatus.RUNNING),
            "percent": list_import.done * 100 // list_import.total if list_import.total else 0,
            "summary": list_import.summary or {},
            "tree": list_import.generation == TREE_GENERATION,
            "rows": [[_(REPORT_OUTCOMES.get(r[0], r[0])), *r[1:]] for r in shown[:SHOWN_ROWS]],
            "more_rows": max(0, len(shown) - SHOWN_ROWS),
            **_abgleich(list_import),
            "has_view_permission": True,
        }
        return TemplateResponse(request, "admin/ratings/listimport/detail.html", context)

    def report_download(self, request, pk: int):
        list_import = get_object_or_404(ListImport, pk=pk)
        if not self.has_view_permission(request, list_import):
            return HttpResponse(status=403)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        stamp = (list_import.as_of or datetime.date.today()).isoformat()
        response["Content-Disposition"] = f'attachment; filename="dsb-liste-{stamp}-bericht-{pk}.csv"'
        response.write("\ufeff" + report_csv(items=list_import.report))  # the BOM: spreadsheets read UTF-8
        return response


def _abgleich(list_import: ListImport) -> dict:
    """The Abgleich's line of the report and the link to its page (officer pages: staff see every row)."""
    counts = (list_import.summary or {}).get("abgleich")
    if not counts:
        return {}
    if "error" in counts:
        return {"abgleich": _("fehlgeschlagen: %(error)s") % counts}
    url = reverse("ratings:official-comparison", args=[list_import.pk])
    return {"abgleich": abgleich_line(counts=counts), "abgleich_url": url}


def _enqueue(pk: int) -> None:
    from ratings.tasks import list_import_task

    list_import_task.enqueue(pk)
