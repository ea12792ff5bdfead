"""Forms of the public pages: the DWZ calculator and the search box. They only validate."""

from __future__ import annotations

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

RESULT_CHOICES = [("1", "1"), ("0.5", "½"), ("0", "0")]
RESULT_THOUSANDTHS = {"1": 1000, "0.5": 500, "0": 0}
MAX_OPPONENTS = 40


def _today() -> datetime.date:
    return timezone.localdate()


class CalculatorForm(forms.Form):
    """The player's own values and the tournament's end date (which decides the edition)."""

    dwz = forms.IntegerField(
        label=_("Ihre DWZ"),
        required=False,
        min_value=0,
        max_value=3000,
        help_text=_("Leer lassen für eine Erst-DWZ."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": "1600"}),
    )
    index = forms.IntegerField(
        label=_("Index"),
        required=False,
        min_value=0,
        max_value=999,
        help_text=_(
            "Die Zahl nach dem Bindestrich (1650-23: 23). Leer: gerechnet wird mit mehr als 10 Auswertungen."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": "20"}),
    )
    birth_year = forms.IntegerField(
        label=_("Geburtsjahr"),
        required=False,
        min_value=1900,
        max_value=2100,
        help_text=_("Ohne Geburtsjahr wird wie für Erwachsene gerechnet."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": "1990"}),
    )
    end_date = forms.DateField(
        label=_("Turnierende"),
        initial=_today,
        help_text=_("Bestimmt das Regelwerk: bis 07.06.2026 klassisch, ab 08.06.2026 WO 2026."),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("index") is not None and cleaned.get("dwz") is None:
            self.add_error("index", _("Ein Index gehört zu einer DWZ."))
        return cleaned


class OpponentForm(forms.Form):
    rating = forms.IntegerField(
        label=_("DWZ des Gegners"),
        required=False,
        min_value=0,
        max_value=3000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "form-control form-control-sm"}),
    )
    result = forms.ChoiceField(
        label=_("Ergebnis"),
        choices=RESULT_CHOICES,
        initial="1",
        required=False,  # rows added without JavaScript arrive without a result; empty rows are skipped
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )


OpponentFormSet = forms.formset_factory(
    OpponentForm, extra=5, max_num=MAX_OPPONENTS, validate_max=True, absolute_max=MAX_OPPONENTS + 10
)


def opponents_from(formset) -> list[tuple[int, int]]:
    """(rating, score in thousandths) of every filled-in row of a valid formset; empty rows are skipped."""
    rows = []
    for form in formset.forms:
        data = getattr(form, "cleaned_data", None) or {}
        if data.get("rating") is not None:
            rows.append((data["rating"], RESULT_THOUSANDTHS[data.get("result") or "1"]))
    return rows


class SearchForm(forms.Form):
    q = forms.CharField(
        label=_("Suche"),
        required=False,
        max_length=100,
        widget=forms.SearchInput(
            attrs={"placeholder": _("Name, Verein, ZPS oder Turniercode"), "autocomplete": "off"}
        ),
    )


STICHTAG_FORMATS = ["%d.%m.%Y", "%Y-%m-%d"]
STICHTAG_ERROR = _("Stichtag: bitte ein Datum wie 01.08.2026 (oder 2026-08-01).")


class StichtagField(forms.DateField):
    """The day whose DWZ a list, card or API answer shows (``?stichtag=``): German or ISO dates only."""

    default_error_messages = {"invalid": STICHTAG_ERROR}

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Stichtag"))
        kwargs.setdefault("required", False)
        kwargs.setdefault("input_formats", STICHTAG_FORMATS)
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={
                    "placeholder": _("TT.MM.JJJJ"),
                    "inputmode": "numeric",
                    "autocomplete": "off",
                    "size": 10,
                }
            ),
        )
        kwargs.setdefault("help_text", _("DWZ-Index nach der letzten Auswertung bis zu diesem Tag"))
        super().__init__(**kwargs)

    def to_python(self, value):
        if isinstance(value, str) and len(value.strip()) > 10:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class StichtagForm(forms.Form):
    stichtag = StichtagField()


def stichtag_from(query) -> tuple[datetime.date | None, StichtagForm]:
    """The Stichtag of a GET query (None: today or a bad value, which the bound form reports)."""
    form = StichtagForm(query)
    day = form.cleaned_data.get("stichtag") if form.is_valid() else None
    return day, form
