"""Stichtagslisten for everybody: the frozen lists, one list (paged) with what a later recalculation revised
since, and its downloads in the live list's formats (CSV, RFC 4180 CSV, XLSX)."""

from __future__ import annotations

import datetime

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from ratings.age_classes import public_birth_year
from ratings.exports import RFC4180, SafeTableExport, list_response
from ratings.selectors import frozen_lists

EXPORT_FORMATS = ("csv", RFC4180, "xlsx")
PER_PAGE = 100


def frozen_list_index(request: HttpRequest) -> HttpResponse:
    lists = list(frozen_lists.frozen_lists()[:500])
    return render(request, "ratings/public/frozen_list_index.html", {"lists": lists})


COLUMNS = (
    ("rank", _lazy("Rang")),
    ("name", _lazy("Name")),
    ("club_name", _lazy("Verein")),
    ("club_zps", _lazy("ZPS")),
    ("birth_year", _lazy("Jahrgang")),
    ("dwz", _lazy("DWZ")),
    ("index", _lazy("Index")),
    ("fide_elo", _lazy("Elo")),
    ("fide_title", _lazy("Titel")),
    ("fide_id", _lazy("FIDE-ID")),
    ("fide_federation", _lazy("FIDE-Land")),
    ("last_evaluated", _lazy("Letzte Auswertung")),
)


def _cell(row, name: str):
    if row.publication_objection and name in PRIVATE:  # issue 30 §4
        return row.public_name if name == "name" else ""
    value = getattr(row, name)
    if name == "birth_year":
        return public_birth_year(value, year=datetime.date.today().year)
    if name == "last_evaluated":
        return value.isoformat() if value else ""
    return "" if value is None else value


# The columns a player who objected to publication shows without (his name instead "nicht veröffentlicht").
PRIVATE = {"name", "birth_year", "sex", "fide_elo", "fide_title", "fide_id", "fide_federation"}


def _export(frozen, export_format: str) -> HttpResponseBase:
    header = [str(label) for _name, label in COLUMNS]
    rows = (
        [_cell(r, name) for name, _label in COLUMNS]
        for r in frozen_lists.frozen_rows(frozen=frozen).iterator(chunk_size=2000)
    )
    filename = f"stichtagsliste-{frozen.pk}-{frozen.stichtag.isoformat()}.{export_format}"
    return list_response(export_format, header, rows, filename=filename)


def frozen_list_detail(request: HttpRequest, pk: int) -> HttpResponseBase:
    frozen = frozen_lists.frozen_list(pk=pk)
    if frozen is None:
        raise Http404(_("Diese Stichtagsliste gibt es nicht."))
    export_format = request.GET.get("_export")
    if SafeTableExport.is_valid_format(export_format) and export_format in EXPORT_FORMATS:
        return _export(frozen, export_format)
    page = Paginator(frozen_lists.frozen_rows(frozen=frozen), PER_PAGE).get_page(request.GET.get("page"))
    revised = {r.row.pk: r for r in frozen_lists.revisions(frozen=frozen, rows=list(page.object_list))}
    context = {
        "frozen": frozen,
        "page": page,
        "rows": [(row, revised.get(row.pk)) for row in page.object_list],
        "revised_count": len(revised),
        "changes": frozen_lists.changes_since(frozen=frozen) if revised else [],
        "export_formats": EXPORT_FORMATS,
    }
    return render(request, "ratings/public/frozen_list_detail.html", context)
