"""The Abgleich for officers (issue 28 §3): the list imports with a stored comparison, and per import the
players of the officer's area whose official DWZ-Index differs from dwzsite's, with the likely cause and the
tournaments named; filterable by cause and club, paginated, and as CSV.

An officer sees the differences of the current members of the clubs in his scope (his club, or every club
of his organisation's subtree: ``permissions.user_scope``); staff see all. The rows are those the list
import's background job stored (``services.official_comparison``): nothing is compared on a page view.
"""

from __future__ import annotations

import datetime

from django import forms
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext_lazy, pgettext_lazy
from django_tables2.export import TableExport

from ratings.exports import list_response
from ratings.models import Club, DifferenceCause, ListImport, OfficialDifference
from ratings.permissions import officer_required, user_scope
from ratings.selectors.official_comparison import week_end
from ratings.selectors.official_stored import compared_imports, difference_clubs, stored_differences

PER_PAGE = 50


class DifferenceFilter(forms.Form):
    ursache = forms.ChoiceField(
        label=pgettext_lazy("Abgleich", "Ursache"),
        required=False,
        choices=[("", gettext_lazy("alle Ursachen")), *DifferenceCause.choices],
    )
    verein = forms.ModelChoiceField(
        label=gettext_lazy("Verein"),
        required=False,
        queryset=Club.objects.none(),
        empty_label=gettext_lazy("alle Vereine"),
    )

    def __init__(self, data, *, clubs) -> None:
        super().__init__(data)
        field = self.fields["verein"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = clubs


def _club_ids(request: HttpRequest):
    scope = user_scope(request.user)
    return None if scope.is_staff else scope.club_ids


def _value(dwz: int | None, index: int) -> str:
    return f"{dwz}-{index}" if dwz is not None else "–"


def _week(week: str) -> str:
    return f"{week[4:]}/{week[:4]}" if week_end(week) else week


def _tournaments(row: OfficialDifference) -> list[dict]:
    return [
        {
            "name": t["name"],
            "code": t.get("code", ""),
            "date": datetime.date.fromisoformat(t["date"]),
            "url": reverse("ratings:tournament-detail", args=[t["id"]]),
        }
        for t in row.tournaments
    ]


def _row(row: OfficialDifference) -> dict:
    """What the page shows of one stored difference."""
    return {
        "player": row.player,
        "official": _value(row.official_dwz, row.official_index),
        "ours": _value(row.our_dwz, row.our_index),
        "week": _week(row.official_week),
        "cause": row.cause,
        "cause_label": row.get_cause_display(),
        "tournaments": _tournaments(row),
        "message": row.message,
    }


def _filtered(request: HttpRequest, list_import: ListImport):
    """The filter form (bound to GET) and the rows it selects; an invalid choice shows its error and
    filters nothing."""
    club_ids = _club_ids(request)
    clubs = difference_clubs(list_import=list_import, club_ids=club_ids)
    form = DifferenceFilter(request.GET or None, clubs=clubs)
    cause, club = "", None
    if form.is_bound and form.is_valid():
        cause, club = form.cleaned_data["ursache"], form.cleaned_data["verein"]
    return form, stored_differences(list_import=list_import, club_ids=club_ids, cause=cause, club=club)


@officer_required
def comparison_imports(request: HttpRequest) -> HttpResponse:
    """``referent/abgleich/``: the imports with their counts in the officer's area."""
    imports = list(compared_imports(club_ids=_club_ids(request)))
    return render(request, "ratings/officer/official_comparison_list.html", {"imports": imports})


@officer_required
def comparison_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """``referent/abgleich/<id>/``: one import's differences in the officer's area."""
    list_import = get_object_or_404(ListImport, pk=pk)
    form, rows = _filtered(request, list_import)
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("seite"))
    query = request.GET.copy()
    query.pop("seite", None)
    context = {
        "list_import": list_import,
        "summary": (list_import.summary or {}).get("abgleich") or {},
        "form": form,
        "page": page,
        "rows": [_row(r) for r in page.object_list],
        "query": query.urlencode(),
        "causes": DifferenceCause,
    }
    return render(request, "ratings/officer/official_comparison.html", context)


CSV_HEADER = (
    gettext_lazy("Spieler"),
    gettext_lazy("Schlüssel"),
    gettext_lazy("DSB DWZ"),
    gettext_lazy("DSB Index"),
    gettext_lazy("dwzsite DWZ"),
    gettext_lazy("dwzsite Index"),
    pgettext_lazy("Abgleich", "KW"),
    pgettext_lazy("Abgleich", "Ursache"),
    pgettext_lazy("Abgleich", "Turnier(e)"),
    gettext_lazy("Hinweis"),
)


def _csv_row(row: OfficialDifference) -> list:
    """One difference for German spreadsheets: DWZ and index in columns of their own (numbers; "1958-5" in
    one cell opens as a date), the week as ``2025-W48`` (``48/2025`` or ``5/2026`` would be a date too)."""
    names = ", ".join(
        f"{t['name']} ({datetime.date.fromisoformat(t['date']).strftime('%d.%m.%Y')})"
        for t in row.tournaments
    )
    official = (row.official_dwz, row.official_index) if row.official_dwz is not None else ("", "")
    ours = (row.our_dwz, row.our_index) if row.our_dwz is not None else ("", "")
    return [
        row.player.name,
        row.player.key,
        *official,
        *ours,
        _csv_week(row.official_week),
        row.get_cause_display(),
        names,
        row.message,
    ]


def _csv_week(week: str) -> str:
    return f"{week[:4]}-W{week[4:]}" if week_end(week) else week


@officer_required
def comparison_csv(request: HttpRequest, pk: int) -> HttpResponseBase:
    """``referent/abgleich/<id>/abgleich.csv``: the page's rows (same filters, every page) for German
    spreadsheets (``;``, UTF-8 with BOM, spreadsheet-safe cells)."""
    list_import = get_object_or_404(ListImport, pk=pk)
    _form, rows = _filtered(request, list_import)
    stamp = (list_import.as_of or datetime.date.today()).isoformat()
    return list_response(
        TableExport.CSV,
        [str(h) for h in CSV_HEADER],
        (_csv_row(r) for r in rows.iterator(chunk_size=2000)),
        filename=f"abgleich-{stamp}-{list_import.pk}.csv",
    )
