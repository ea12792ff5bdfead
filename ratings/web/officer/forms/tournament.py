"""Forms of the officer pages: the tournament head and a new player. They only validate; services write."""

from __future__ import annotations

from typing import Any, cast

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Column, Field, Layout, Row, Submit
from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.utils.translation import gettext_lazy as _

from ratings import permissions
from ratings.dwz.codes import normalise_code
from ratings.enums import Sex
from ratings.models.federation import Club
from ratings.models.officer import TournamentMode
from ratings.models.player import Player
from ratings.models.tournament import Tournament, tournament_code_validator

# ---------------------------------------------------------------------------------------------------------
# Tournament head


class TournamentHeadForm(forms.ModelForm):
    """Name, code, place, dates, rounds, organiser (limited to the officer's scope) and the entry mode."""

    organiser = forms.ChoiceField(label=_("Ausrichter"))
    mode = forms.ChoiceField(
        label=_("Turnierart"), choices=TournamentMode.choices, initial=TournamentMode.ROUND_ROBIN
    )
    # The version the form was loaded at (optimistic locking; the view reads the posted value).
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Tournament
        fields = ["name", "code", "place", "start_date", "end_date", "rounds", "time_control", "rated"]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, clubs, organisations, mode: str | None = None, user=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user  # for the WO 6.2 year of a Wertungsreferent's end date
        self.fields["code"].help_text = _(
            "Optional, Format YYWW-ZZZ-KKK, z. B. C524-C05-VM1, oder die UUID des Turniers im DSB-Portal."
        )
        self.fields["code"].validators = []  # checked after normalising the case, in clean_code
        self.fields["rounds"].validators.append(MinValueValidator(1))
        self.fields["rounds"].widget.attrs["min"] = 1
        choices: list[tuple[str, str]] = [("", "---------")]
        choices += [(f"org:{o.pk}", f"{o.code} {o.name}") for o in organisations]
        choices += [(f"club:{c.pk}", f"{c.zps} {c.name}") for c in clubs]
        cast(forms.ChoiceField, self.fields["organiser"]).choices = choices
        instance = self.instance
        if instance.pk:
            self.initial["version"] = instance.version
            if instance.organiser_club_id:
                self.initial["organiser"] = f"club:{instance.organiser_club_id}"
            elif instance.organiser_organisation_id:
                self.initial["organiser"] = f"org:{instance.organiser_organisation_id}"
        elif len(choices) == 2:
            self.initial["organiser"] = choices[1][0]
        if mode:
            self.initial["mode"] = mode
        self.helper = FormHelper(self)
        self.helper.form_id = "tournament-head"  # the plausibility confirmation submits it too
        self.helper.layout = Layout(
            Row(Column("name", css_class="col-md-8"), Column("code", css_class="col-md-4")),
            Row(
                Column("place", css_class="col-md-4"),
                Column("start_date", css_class="col-md-4"),
                Column("end_date", css_class="col-md-4"),
            ),
            Row(
                Column("organiser", css_class="col-md-6"),
                Column("mode", css_class="col-md-4"),
                Column("rounds", css_class="col-md-2"),
            ),
            Row(Column("time_control", css_class="col-md-8")),
            Field("rated"),
            Field("version"),
            Submit("submit", _("Speichern")),
        )

    def clean_code(self) -> str | None:
        code = normalise_code(self.cleaned_data.get("code") or "")
        if not code:
            return None
        tournament_code_validator(code)
        return code

    def clean_end_date(self):
        end_date = self.cleaned_data.get("end_date")
        if self.user is not None:
            permissions.check_end_date(self.user, end_date)
        return end_date

    def _post_clean(self) -> None:
        # The organiser choice decides the two FKs before the model's own clean runs.
        value = self.cleaned_data.get("organiser") or ""
        kind, _sep, pk = value.partition(":")
        self.instance.organiser_club_id = int(pk) if kind == "club" else None
        self.instance.organiser_organisation_id = int(pk) if kind == "org" else None
        super()._post_clean()  # type: ignore[misc]  # django-stubs leaves out BaseModelForm._post_clean


# ---------------------------------------------------------------------------------------------------------
# New player (added inline on the results page)


class NewPlayerForm(forms.Form):
    surname = forms.CharField(label=_("Nachname"), max_length=100)
    first_name = forms.CharField(label=_("Vorname"), max_length=100, required=False)
    birth_year = forms.IntegerField(label=_("Geburtsjahr"), min_value=1900, max_value=2100, required=False)
    sex = forms.ChoiceField(label=_("Geschlecht"), choices=[("", "---------"), *Sex.choices], required=False)
    club = forms.ModelChoiceField(label=_("Verein"), queryset=Club.objects.none())
    member_number = forms.CharField(
        label=_("Mitgliedsnummer"),
        max_length=10,
        required=False,
        validators=[RegexValidator(r"^[0-9A-Za-z]{1,10}$", _("Nur Ziffern und Buchstaben."))],
    )
    fide_id = forms.IntegerField(label=_("FIDE-ID"), min_value=1, max_value=2_000_000_000, required=False)
    fide_elo = forms.IntegerField(label=_("Elo"), min_value=0, max_value=3000, required=False)
    dwz = forms.IntegerField(label=_("Start-DWZ"), min_value=0, max_value=3000, required=False)
    index = forms.IntegerField(label=_("Index"), min_value=0, max_value=999, required=False)
    confirm_duplicate = forms.BooleanField(label=_("Trotzdem anlegen"), required=False)

    def __init__(self, *args, clubs, **kwargs) -> None:
        kwargs.setdefault("prefix", "np")
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["club"]).queryset = clubs
        self.duplicates: list[Player] = []

    def clean(self) -> dict[str, Any] | None:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns
        if data.get("index") is not None and data.get("dwz") is None:
            self.add_error("index", _("Ein Index gibt es nur zusammen mit einer DWZ."))
        club, number = data.get("club"), data.get("member_number")
        if club and number and Player.objects.filter(key=f"{club.zps}-{number}").exists():
            self.add_error("member_number", _("Diese Mitgliedsnummer ist im Verein schon vergeben."))
        surname = data.get("surname")
        if surname and not data.get("confirm_duplicate"):
            qs = Player.objects.filter(surname__iexact=surname.strip())
            if data.get("first_name"):
                qs = qs.filter(first_name__iexact=data["first_name"].strip())
            if data.get("birth_year"):
                qs = qs.filter(birth_year=data["birth_year"])
            self.duplicates = list(qs[:5])
            if self.duplicates:
                raise ValidationError(
                    _(
                        "Es gibt schon Spieler mit diesem Namen. Bitte prüfen und ggf. „Trotzdem anlegen“ ankreuzen."  # noqa: E501
                    ),
                    code="duplicate",
                )
        return data
