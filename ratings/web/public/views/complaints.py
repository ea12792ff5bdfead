"""“Fehler melden” (issue 30 §3): a short form for anyone, about a player's card or a tournament's page.

CSRF as every form, a honeypot field (a bot that fills it is told "thank you" and nothing is stored) and a
limit per client address (``COMPLAINT_LIMIT`` per ``COMPLAINT_WINDOW``). The service routes the report.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.models import Player, Tournament
from ratings.selectors import players, tournaments
from ratings.services.complaints import complaint_submit
from ratings.web.throttle import throttle


class ComplaintForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Ihr Name"), max_length=100)
    email = forms.EmailField(label=gettext_lazy("Ihre E-Mail-Adresse"), max_length=254)
    text = forms.CharField(
        label=gettext_lazy("Was ist falsch?"),
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy("Bitte so genau wie möglich: welche Partie, welches Ergebnis, welche Zahl."),
    )
    # The honeypot: hidden from people (CSS and aria-hidden), filled by bots.
    website = forms.CharField(label=gettext_lazy("Webseite"), required=False)


def _context_objects(request: HttpRequest) -> tuple[Player | None, Tournament | None]:
    """The page the report is about: ``?spieler=<key>`` or ``?turnier=<id>`` (in the query or the POST)."""
    data = request.POST if request.method == "POST" else request.GET
    player = tournament = None
    key = data.get("spieler", "")[:40]
    if key and key.isprintable():  # a NUL byte would reach PostgreSQL (the middleware checks GET only)
        player = players.player(key=key)
    pk = data.get("turnier", "")
    if pk.isascii() and pk.isdigit() and len(pk) < 12:
        tournament = tournaments.tournament(pk=int(pk))
    return player, tournament


def complaint(request: HttpRequest) -> HttpResponse:
    player, tournament = _context_objects(request)
    context = {"player": player, "tournament": tournament}
    if request.method != "POST":
        return render(request, "ratings/public/complaint.html", {**context, "form": ComplaintForm()})
    form = ComplaintForm(request.POST)
    wait = throttle(
        request, scope="complaint", limit=settings.COMPLAINT_LIMIT, window=settings.COMPLAINT_WINDOW
    )
    if wait is not None:
        form.is_valid()
        form.add_error(
            None,
            _("Zu viele Meldungen von Ihrer Adresse. Bitte in %(minutes)d Minuten noch einmal versuchen.")
            % {"minutes": -(-wait // 60)},
        )
        response = render(request, "ratings/public/complaint.html", {**context, "form": form}, status=429)
        response["Retry-After"] = str(wait)
        return response
    if not form.is_valid():
        return render(request, "ratings/public/complaint.html", {**context, "form": form}, status=400)
    if not form.cleaned_data["website"]:
        complaint_submit(
            name=form.cleaned_data["name"],
            email=form.cleaned_data["email"],
            text=form.cleaned_data["text"],
            player=player,
            tournament=tournament,
        )
    return render(request, "ratings/public/complaint.html", {**context, "sent": True})
