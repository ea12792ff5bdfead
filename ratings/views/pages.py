"""General pages: the start page and placeholders for sections still under construction."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from ratings.views.public import home_context

SECTIONS = {
    "ranglisten": _("Ranglisten"),
    "spieler": _("Spieler"),
    "turniere": _("Turniere"),
    "vereine": _("Vereine"),
    "rechner": _("DWZ-Rechner"),
    "spielstaerke": _("Spielstärke"),
}


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/home.html", home_context(request))


def coming_soon(request: HttpRequest, section: str) -> HttpResponse:
    if section not in SECTIONS:
        raise Http404
    return render(request, "ratings/coming_soon.html", {"section": SECTIONS[section]})
