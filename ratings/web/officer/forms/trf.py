"""Forms of the TRF upload page: the file and the tournament head the officer confirms."""

from __future__ import annotations

from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ratings import permissions
from ratings.dwz.codes import normalise_code
from ratings.formats.trf import MAX_FILE_SIZE
from ratings.models import Club, Organisation
from ratings.models.tournament import Tournament

DATE_ORDERS = [
    ("", _("automatisch")),
    ("dmy", _("TT/MM/JJJJ (europäisch)")),
    ("mdy", _("MM/TT/JJJJ (amerikanisch)")),
]


class TrfUploadForm(forms.Form):
    file = forms.FileField(
        label=_("TRF-Datei"),
        help_text=_(
            "TRF aus Swiss-Manager, Swiss-Chess, Vega oder chess-results (.trf, .txt) oder ein "
            "DSB-XML-Turnierbericht (.xml, z. B. aus dem CLM), höchstens 2 MB."
        ),
    )
    date_order = forms.ChoiceField(
        label=_("Datumsformat"),
        choices=DATE_ORDERS,
        required=False,
        help_text=_("Nur nötig, wenn die Datei Daten wie 08/04/2018 schreibt, die beides sein können."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        name = (upload.name or "").lower()
        if not name.endswith((".trf", ".txt", ".xml")):  # which reader: by the content (import_read)
            raise ValidationError(_("Bitte eine .trf-, .txt- oder .xml-Datei hochladen."))
        if upload.size > MAX_FILE_SIZE:
            raise ValidationError(_("Die Datei ist größer als 2 MB."))
        return upload


class TrfHeadForm(forms.ModelForm):
    """Head fields prefilled from the file; the organiser limits the tournament to the officer's scope."""

    organiser = forms.ChoiceField(label=_("Ausrichter"), required=False)
    new_player_club = forms.ModelChoiceField(
        label=_("Verein für neue Spieler"),
        queryset=Club.objects.none(),
        required=False,
        help_text=_("Neue Spieler ohne ZPS-Mitgliedsnummer in der Datei werden Mitglied dieses Vereins."),
    )

    class Meta:
        model = Tournament
        fields = ["name", "code", "place", "start_date", "end_date", "time_control", "rated"]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, clubs, organisations, is_staff: bool, user=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user  # for the WO 6.2 year of a Wertungsreferent's end date
        self.clubs = {str(c.pk): c for c in clubs}
        self.organisations = {str(o.pk): o for o in organisations}
        choices: list[tuple[str, object]] = [] if not is_staff else [("", _("– kein Ausrichter –"))]
        choices += [(f"o{pk}", f"{o.code} {o.name}") for pk, o in self.organisations.items()]
        choices += [(f"c{pk}", f"{c.zps} {c.name}") for pk, c in self.clubs.items()]
        cast(forms.ChoiceField, self.fields["organiser"]).choices = choices
        self.fields["organiser"].required = not is_staff
        cast(forms.ModelChoiceField, self.fields["new_player_club"]).queryset = Club.objects.filter(
            pk__in=[c.pk for c in clubs]
        ).order_by("name_sort", "zps")  # labelled "Name (ZPS)": by name, DIN 5007
        self.fields["code"].required = False

    def clean_code(self) -> str | None:
        # The model's validator runs later, on the stored form (a UUID in lower case).
        return normalise_code(self.cleaned_data.get("code") or "") or None

    def clean_end_date(self):
        end_date = self.cleaned_data.get("end_date")
        if self.user is not None:
            permissions.check_end_date(self.user, end_date)
        return end_date

    def clean_organiser(self) -> Club | Organisation | None:
        value = self.cleaned_data.get("organiser") or ""
        if value.startswith("c") and value[1:] in self.clubs:
            return self.clubs[value[1:]]
        if value.startswith("o") and value[1:] in self.organisations:
            return self.organisations[value[1:]]
        return None

    def validate_unique(self) -> None:
        # An existing code means "replace that tournament"; the view checks the officer may.
        pass
