"""Public pages: rating lists, clubs, organisations, tournament lists, statistics, search, categories.

The Karteikarte and a tournament's evaluation are in ``detail``.

Plain views without login. Reads go through ``ratings.selectors``; nothing here computes a rating.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin
from django_tables2.export import ExportMixin

from ratings.exports import RFC4180, SafeTableExport, list_response
from ratings.permissions import user_scope
from ratings.selectors import club_stats, clubs, lists, statistics, tournaments
from ratings.selectors import search as search_selectors
from ratings.web.public.filters import NAMED_LISTS, ClubListFilter, RatingListFilter, TournamentListFilter
from ratings.web.public.forms import SearchForm, stichtag_from
from ratings.web.public.presenters import statistics_charts
from ratings.web.public.tables import (
    ClubMembersTable,
    ClubTable,
    PlayerSearchTable,
    RatingListTable,
    TournamentTable,
)

MAX_PER_PAGE = 200


def _sanitised_get(request: HttpRequest) -> None:
    """Drop paging parameters django-tables2 would pass on unchecked (per_page=0 divides by zero)."""
    get = request.GET.copy()
    value = get.get("per_page")
    if value is not None:
        try:
            number = int(value)
        except ValueError:
            number = 0
        if 1 <= number <= MAX_PER_PAGE:
            get["per_page"] = str(number)
        else:
            del get["per_page"]
    request.GET = get  # type: ignore[assignment]  # django-stubs types request.GET as the immutable QueryDict


class PublicListMixin:
    """Filtered, sorted, paginated table; HTMX requests aimed at the table get only the table partial."""

    strict = False  # invalid filter values are shown on the form and ignored, never an empty page or an error
    table_partial = "ratings/public/_table_block.html"

    def dispatch(self, request, *args, **kwargs):
        _sanitised_get(request)
        return super().dispatch(request, *args, **kwargs)

    def get_template_names(self):
        names = super().get_template_names()
        if getattr(self.request, "htmx", False) and self.request.htmx.target == "table-container":
            return [self.table_partial]
        return names

    def render_to_response(self, context, **response_kwargs):
        response = super().render_to_response(context, **response_kwargs)
        if getattr(self.request, "htmx", False) and self.request.htmx.target == "table-container":
            response["HX-Push-Url"] = self.request.get_full_path()
        return response


class RatingListView(PublicListMixin, ExportMixin, SingleTableMixin, FilterView):
    """Ranglisten: every player, filterable; CSV/XLSX exports with the same filters."""

    table_class = RatingListTable
    filterset_class = RatingListFilter
    template_name = "ratings/public/rating_list.html"
    export_name = "dwz-rangliste"
    export_formats = ("csv", RFC4180, "xlsx")
    export_class = SafeTableExport
    title = ""

    def dispatch(self, request, *args, **kwargs):
        # The list's Stichtag (None: today's values; a bad date is an error on the filter form).
        self.stichtag, _form = stichtag_from(request.GET)
        return super().dispatch(request, *args, **kwargs)

    def get_queryset(self):
        return lists.list_rows(stichtag=self.stichtag)

    def get_table_kwargs(self):
        return {**super().get_table_kwargs(), "stichtag": self.stichtag}

    def get_export_filename(self, export_format):
        name = super().get_export_filename(export_format)
        return name.replace(".", f"-{self.stichtag.isoformat()}.", 1) if self.stichtag else name

    def get_table_pagination(self, table):
        if self.export_class.is_valid_format(self.request.GET.get(self.export_trigger_param)):
            return False  # an export is the whole list: no page to count or fetch
        return super().get_table_pagination(table)

    def create_export(self, export_format):
        header, rows = self.get_table(**self.get_table_kwargs()).export_rows()
        return list_response(export_format, header, rows, filename=self.get_export_filename(export_format))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["export_formats"] = self.export_formats
        context["page_title"] = self.title or _("Ranglisten")
        context["named_lists"] = NAMED_LISTS
        context["stichtag"] = self.stichtag
        return context


class PlayerListView(RatingListView):
    """Spieler: the same list as a player search (by name), sorted by name."""

    table_class = PlayerSearchTable
    template_name = "ratings/public/player_list.html"
    export_name = "dwz-spieler"

    def get_queryset(self):
        # Players who objected to publication last: his row's place must not tell his name (issue 30 §4).
        return lists.list_rows(stichtag=self.stichtag).order_by("publication_objection", "name_sort", "pk")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["page_title"] = _("Spieler")
        return context


class ClubListView(PublicListMixin, SingleTableMixin, FilterView):
    table_class = ClubTable
    filterset_class = ClubListFilter
    template_name = "ratings/public/club_list.html"

    def get_queryset(self):
        return clubs.club_list()


class TournamentListView(PublicListMixin, SingleTableMixin, FilterView):
    table_class = TournamentTable
    filterset_class = TournamentListFilter
    template_name = "ratings/public/tournament_list.html"

    def get_queryset(self):
        return tournaments.tournament_list()


class ClubDetailView(RatingListView):
    """Vereinsseite: club head, its members' rating list (with exports), its tournaments."""

    template_name = "ratings/public/club_detail.html"
    table_class = ClubMembersTable

    def dispatch(self, request, *args, **kwargs):
        self.club = clubs.club(zps=kwargs["zps"])
        if self.club is None:
            raise Http404(_("Diesen Verein gibt es nicht."))
        return super().dispatch(request, *args, **kwargs)

    def get_export_filename(self, export_format):
        day = f"-{self.stichtag.isoformat()}" if self.stichtag else ""
        return f"dwz-{self.club.zps}{day}.{export_format}"

    def get_filterset_kwargs(self, filterset_class):
        kwargs = super().get_filterset_kwargs(filterset_class)
        kwargs["fixed_club"] = self.club
        return kwargs

    def get_queryset(self):
        return lists.club_members(club=self.club, stichtag=self.stichtag)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["club"] = self.club
        context["page_title"] = self.club.name
        context["tournaments"] = list(clubs.club_tournaments(club=self.club, limit=20))
        context["past_members"] = list(clubs.club_past_members(club=self.club)[:100])
        context["stats"] = club_stats.club_stats(club=self.club, stichtag=self.stichtag)
        scope = user_scope(self.request.user)
        context["list_download"] = scope.is_staff or self.club.pk in scope.club_ids
        return context


class OrganisationDetailView(RatingListView):
    """Verbandsseite: the organisation, those below it, its clubs, and the rating list of everything below."""

    template_name = "ratings/public/organisation_detail.html"

    def dispatch(self, request, *args, **kwargs):
        self.organisation = clubs.organisation(code=kwargs["code"])
        if self.organisation is None:
            raise Http404(_("Diesen Verband gibt es nicht."))
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        # A federation outside this one is its own page; an unknown code is dropped (no error above a list).
        chosen = request.GET.get("verband", "")
        if chosen and chosen != self.organisation.code:
            below = clubs.organisation_and_below(organisation=self.organisation)
            if not below.filter(code=chosen).exists():
                other = clubs.organisation(code=chosen)
                query = request.GET.copy()
                del query["verband"]
                target = reverse("ratings:organisation-detail", args=[other.code]) if other else request.path
                return redirect(f"{target}?{query.urlencode()}" if query else target)
        return super().get(request, *args, **kwargs)

    def get_export_filename(self, export_format):
        day = f"-{self.stichtag.isoformat()}" if self.stichtag else ""
        return f"dwz-{self.organisation.code}{day}.{export_format}"

    def get_filterset_kwargs(self, filterset_class):
        kwargs = super().get_filterset_kwargs(filterset_class)
        kwargs["fixed_organisation"] = self.organisation
        return kwargs

    def get_queryset(self):
        return lists.organisation_members(organisation=self.organisation, stichtag=self.stichtag)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        org = self.organisation
        context["organisation"] = org
        context["page_title"] = org.name
        context["children"] = list(clubs.organisation_children(organisation=org))
        context["clubs"] = list(clubs.organisation_clubs(organisation=org))
        scope = user_scope(self.request.user)
        context["list_download"] = scope.is_staff or org.pk in scope.organisation_ids
        return context


def statistics_page(request: HttpRequest) -> HttpResponse:
    """Statistik: the DWZ distribution, evaluations, first ratings and tournaments per year, for all or for
    one federation (``?verband=CODE``, with everything below it); charts with their numbers beside them."""
    code = request.GET.get("verband", "")
    organisation = clubs.organisation(code=code) if code else None
    if code and organisation is None:
        return redirect("ratings:statistics")
    histogram = statistics.dwz_histogram(organisation=organisation)
    years = statistics.per_year(organisation=organisation)
    context = {
        "organisation": organisation,
        "organisations": clubs.organisations_for_choice(),
        "histogram": histogram,
        "years": years,
        "chart": statistics_charts(histogram, years),
        "rated": sum(b["count"] for b in histogram),
    }
    return render(request, "ratings/public/statistics.html", context)


def club_comparison(request: HttpRequest, code: str) -> HttpResponse:
    """Vereinsvergleich: the clubs of a federation and below, ranked by the average DWZ of their best 10."""
    organisation = clubs.organisation(code=code)
    if organisation is None:
        raise Http404(_("Diesen Verband gibt es nicht."))
    rows = club_stats.club_comparison(organisation=organisation)
    return render(
        request, "ratings/public/club_comparison.html", {"organisation": organisation, "rows": rows}
    )


def search(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET or None)
    query = form.cleaned_data.get("q", "") if form.is_valid() else ""
    results = search_selectors.everything(query=query) if query else None
    return render(request, "ratings/public/search.html", {"form": form, "results": results, "query": query})


def categories(request: HttpRequest) -> HttpResponse:
    rows, total = statistics.category_rows()
    histogram = statistics.dwz_histogram()
    context = {"rows": rows, "total": total, "histogram": histogram}
    return render(request, "ratings/public/categories.html", context)
