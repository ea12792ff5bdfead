"""django-filter filter sets of the public lists. Invalid values are reported on the form and ignored."""

from __future__ import annotations

import django_filters
from django import forms
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from ratings.age_classes import class_ceiling, class_floor
from ratings.enums import Sex
from ratings.models import Club, Organisation
from ratings.selectors import lists, search
from ratings.selectors.clubs import organisation_and_below
from ratings.web.escaping import escape
from ratings.web.public.forms import StichtagField


class BootstrapFilterSet(django_filters.FilterSet):
    """Bootstrap classes on every widget, so templates can render ``{{ field }}`` with a ``<label>``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.form.fields.values():
            widget = field.widget
            if isinstance(widget, forms.CheckboxInput):
                css = "form-check-input"
            elif isinstance(widget, forms.Select):
                css = "form-select form-select-sm"
            else:
                css = "form-control form-control-sm"
            widget.attrs["class"] = css


class SelectWidget(forms.Select):
    """A select written in Python, the same HTML as Django's templates: those render every option through two
    templates, and the federation select of a whole federation has 160 options on every list page. (The
    name keeps ``field.widget_type == "select"`` for the templates: Django strips a trailing "Widget".)"""

    @staticmethod
    def _attrs(attrs: dict) -> str:
        """As django/forms/widgets/attrs.html: in order, ``False`` left out, ``True`` as a bare name."""
        return "".join(
            f" {escape(k)}" if v is True else f' {escape(k)}="{escape(v)}"'
            for k, v in attrs.items()
            if v is not False
        )

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        parts = [f'<select name="{escape(widget["name"])}"{self._attrs(widget["attrs"])}>']
        for group, options, _index in widget["optgroups"]:
            if group:
                parts.append(f'\n  <optgroup label="{escape(group)}">')
            parts.extend(
                f'\n  <option value="{escape(o["value"])}"{self._attrs(o["attrs"])}>'
                f"{escape(o['label'])}</option>"
                for o in options
            )
            if group:
                parts.append("\n  </optgroup>")
        parts.append("\n</select>")
        return mark_safe("".join(parts))  # noqa: S308 (every name, value and label escaped)


class IntegerFilter(django_filters.NumberFilter):
    field_class = forms.IntegerField


class StichtagFilter(django_filters.Filter):
    """The Stichtag on the list's form: validated and shown here, applied by the view to the rows it lists
    (``lists.list_rows(stichtag=…)``), since it changes the values, not which players are listed."""

    field_class = StichtagField

    def filter(self, qs, value):
        return qs


class CheckboxFilter(django_filters.BooleanFilter):
    """A checkbox: ticked filters; unticked (or garbage) leaves the list alone (see the filter methods)."""

    field_class = forms.BooleanField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", forms.CheckboxInput)
        super().__init__(*args, **kwargs)


# The DSB's named lists (age by birth year: the age reached in the current year).
NAMED_LISTS = [
    ("w", _("weiblich")),
    ("u20", _("U20")),
    ("u20w", _("U20w")),
    ("ue50", _("Ü50")),
    ("ue50w", _("Ü50w")),
    ("ue65", _("Ü65")),
    ("ue65w", _("Ü65w")),
    ("ue75", _("Ü75")),
    ("ue75w", _("Ü75w")),
]
TOP_CHOICES = [(str(n), str(n)) for n in (10, 25, 50, 100, 250, 500, 1000)]


def named_list(qs, code: str, *, year: int):
    """The players of one named list; age by birth year (U20: 19 or younger in ``year``)."""
    if code.endswith("w"):
        qs = qs.filter(sex=Sex.FEMALE)
        code = code[:-1]
    if code == "u20":
        qs = qs.filter(birth_year__gt=year - 20)
    elif code.startswith("ue"):
        qs = qs.filter(birth_year__lte=year - int(code[2:]))
    return qs


def _organisation_choices():
    return Organisation.objects.select_related("parent").order_by("code")


class RatingListFilter(BootstrapFilterSet):
    q = django_filters.CharFilter(label=_("Name"), method="filter_name", max_length=100)
    verband = django_filters.ModelChoiceFilter(
        label=_("Verband"),
        queryset=Organisation.objects.order_by("code"),
        to_field_name="code",
        method="filter_organisation",
        empty_label=_("alle Verbände"),
        widget=SelectWidget,
    )
    verein = django_filters.CharFilter(
        label=_("Verein (Name oder ZPS)"), method="filter_club", max_length=100
    )
    geschlecht = django_filters.ChoiceFilter(
        label=_("Geschlecht"),
        field_name="sex",
        choices=Sex.choices,
        empty_label=_("alle"),
        widget=SelectWidget,
    )
    alter_von = IntegerFilter(label=_("Alter von"), method="filter_age_from", min_value=0, max_value=130)
    alter_bis = IntegerFilter(label=_("Alter bis"), method="filter_age_to", min_value=0, max_value=130)
    aktiv = CheckboxFilter(label=_("nur aktive"), method="filter_active")
    mit_dwz = CheckboxFilter(label=_("nur mit DWZ"), method="filter_rated")
    deutsch = CheckboxFilter(label=_("nur deutsche Spieler"), method="filter_german")
    liste = django_filters.ChoiceFilter(
        label=_("Liste"),
        choices=NAMED_LISTS,
        method="filter_named_list",
        empty_label=_("alle"),
        widget=SelectWidget,
    )
    stichtag = StichtagFilter(label=_("Stichtag"))
    # Last: the top N of whatever the other filters left (ties at the border included).
    top = django_filters.ChoiceFilter(
        label=_("Top"), choices=TOP_CHOICES, method="filter_top", empty_label=_("alle"), widget=SelectWidget
    )

    def __init__(self, *args, fixed_club: Club | None = None, fixed_organisation=None, **kwargs):
        super().__init__(*args, **kwargs)
        if fixed_club is not None:
            for name in ("verein", "verband"):
                del self.filters[name]
                del self.form.fields[name]
        elif fixed_organisation is not None:
            below = organisation_and_below(organisation=fixed_organisation)
            self.filters["verband"].queryset = below
            field = self.form.fields["verband"]
            field.queryset = below
            field.empty_label = _("ganz %(name)s") % {"name": fixed_organisation.name}

    class Meta:
        fields: list[str] = []

    def filter_name(self, qs, name, value):
        # A name must not find a player who objected to publication (issue 30 §4).
        return search.filter_players(qs, query=value).filter(publication_objection=False)

    def filter_organisation(self, qs, name, value):
        return qs.in_organisation(value) if value else qs

    def filter_club(self, qs, name, value):
        if not value.strip():
            return qs
        return qs.in_clubs(search.filter_clubs(Club.objects.all(), query=value))

    # Under 18 the bounds widen to whole age classes (issue 30 §4: no birth year of a minor, by a filter
    # either).
    def filter_age_from(self, qs, name, value):
        return qs.filter(birth_year__lte=timezone.localdate().year - class_floor(value))

    def filter_age_to(self, qs, name, value):
        return qs.filter(birth_year__gte=timezone.localdate().year - class_ceiling(value))

    def filter_active(self, qs, name, value):
        return qs.active() if value else qs

    def filter_rated(self, qs, name, value):
        return lists.rated(qs) if value else qs

    def filter_german(self, qs, name, value):
        # The DSB list's eligibility is not kept; a player without a FIDE federation counts as German.
        return qs.filter(fide_federation__in=["GER", ""]) if value else qs

    def filter_named_list(self, qs, name, value):
        # At a Stichtag the age classes are those of its year.
        day = self.form.cleaned_data.get("stichtag") or timezone.localdate()
        return named_list(qs, value, year=day.year) if value else qs

    def filter_top(self, qs, name, value):
        return lists.top(qs, n=int(value)) if value else qs


class ClubListFilter(BootstrapFilterSet):
    q = django_filters.CharFilter(label=_("Name oder ZPS"), method="filter_q", max_length=100)
    verband = django_filters.ModelChoiceFilter(
        label=_("Verband"),
        queryset=Organisation.objects.order_by("code"),
        to_field_name="code",
        method="filter_organisation",
        empty_label=_("alle Verbände"),
        widget=SelectWidget,
    )

    class Meta:
        fields: list[str] = []

    def filter_q(self, qs, name, value):
        return search.filter_clubs(qs, query=value)

    def filter_organisation(self, qs, name, value):
        return qs.in_organisation(value) if value else qs


class TournamentListFilter(BootstrapFilterSet):
    q = django_filters.CharFilter(label=_("Name oder Turniercode"), method="filter_q", max_length=100)
    jahr = IntegerFilter(label=_("Jahr"), field_name="end_date__year", min_value=1900, max_value=2200)

    class Meta:
        fields: list[str] = []

    def filter_q(self, qs, name, value):
        return search.filter_tournaments(qs, query=value)
