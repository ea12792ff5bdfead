"""Stichtagslisten on the officer's side: freeze the list of an area of his as of a day, and his lists."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from ratings import permissions
from ratings.models import Club, Organisation
from ratings.selectors import frozen_lists
from ratings.services.frozen_lists import frozen_list_create
from ratings.web.public.forms import StichtagField

ALL = "alle"


class FrozenListForm(forms.Form):
    """Name, Stichtag and area (``verband:CODE``, ``verein:ZPS`` or, for staff, ``alle``)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    stichtag = StichtagField(required=True, help_text="")
    area = forms.ChoiceField(label=gettext_lazy("Bereich"))

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(ALL, _("alle Verbände"))] if permissions.user_scope(user).is_staff else []
        choices += [
            (f"verband:{o.code}", f"{o.name} ({o.code})")
            for o in permissions.manageable_organisations(user).order_by("code")
        ]
        choices += [
            (f"verein:{c.zps}", f"{c.name} ({c.zps})")
            for c in permissions.manageable_clubs(user).order_by("zps")
        ]
        self.fields["area"].choices = choices
        for field in self.fields.values():
            field.widget.attrs["class"] = (
                "form-select" if isinstance(field.widget, forms.Select) else "form-control"
            )

    def clean_stichtag(self):
        day = self.cleaned_data["stichtag"]
        if day is None:
            raise ValidationError(_("Bitte einen Stichtag angeben."))
        return day

    def area_objects(self) -> tuple[Organisation | None, Club | None]:
        kind, _sep, code = self.cleaned_data["area"].partition(":")
        if kind == "verband":
            return Organisation.objects.get(code=code), None
        if kind == "verein":
            return None, Club.objects.get(zps=code)
        return None, None


def _visible(user):
    """The frozen lists of the officer's areas (all for staff)."""
    scope = permissions.user_scope(user)
    lists = frozen_lists.frozen_lists()
    if scope.is_staff:
        return lists
    return lists.filter(Q(organisation_id__in=scope.organisation_ids) | Q(club_id__in=scope.club_ids))


@permissions.officer_required
@require_http_methods(["GET", "POST"])
def frozen_list_page(request: HttpRequest) -> HttpResponse:
    """ "Stichtagslisten": the form to freeze one, and the lists of the officer's areas."""
    form = FrozenListForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        organisation, club = form.area_objects()
        try:
            frozen = frozen_list_create(
                user=request.user,
                name=form.cleaned_data["name"],
                stichtag=form.cleaned_data["stichtag"],
                organisation=organisation,
                club=club,
            )
        except (ValidationError, PermissionDenied) as error:
            form.add_error(None, error.messages[0] if isinstance(error, ValidationError) else str(error))
        else:
            messages.success(request, _("Stichtagsliste „%(name)s“ eingefroren.") % {"name": frozen.name})
            return redirect("ratings:frozen-list-detail", frozen.pk)
    context = {"form": form, "lists": list(_visible(request.user)[:200])}
    return render(request, "ratings/officer/frozen_lists.html", context)
