"""Public detail pages: a player's Karteikarte and a tournament's evaluation (with its games).

Plain views without login. Reads go through ``ratings.selectors``; nothing here computes a rating.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from ratings.permissions import is_officer
from ratings.selectors import players, tournaments
from ratings.web.notices import recalculation_job
from ratings.web.officer.hooks import officer_panel
from ratings.web.public.forms import stichtag_from
from ratings.web.public.presenters import evaluation_rows, standings_context

# Above this many players a tournament's page leaves the games (progress table, scoresheets: three quarters
# of a 300-player Swiss's 1 MB) to a request of their own (``tournament_games``).
LAZY_GAMES_FROM = 60


def _with_query(url: str, request: HttpRequest) -> str:
    query = request.META.get("QUERY_STRING", "")
    return f"{url}?{query}" if query else url


def card_panels(request: HttpRequest, *, player) -> list[dict]:
    """The panels other apps add to the card: ``RATINGS_PLAYER_CARD_PANELS`` names functions
    ``(request, *, player) -> dict | None`` (a dict with its ``template``), resolved here at runtime so that
    ``ratings`` imports none of them (e.g. the leagues' board record)."""
    found = (import_string(name)(request, player=player) for name in settings.RATINGS_PLAYER_CARD_PANELS)
    return [panel for panel in found if panel]


def player_detail(request: HttpRequest, key: str) -> HttpResponse:
    """Karteikarte: head, history (evaluations and adjustments; a long one by pages, the latest first),
    chart of the whole history."""
    player = players.player(key=key)
    if player is None:
        kept = players.merged_into(key=key)
        if kept is not None:  # merged into another record: his card lives there now
            return HttpResponsePermanentRedirect(
                _with_query(reverse("ratings:player-detail", args=[kept]), request)
            )
        raise Http404(_("Diesen Spieler gibt es nicht."))
    if player.publication_objection and not is_officer(request.user):
        # He objected to publication: neither name nor history, only that the card exists (issue 30 §4).
        return render(request, "ratings/public/player_hidden.html", {"player": player})
    try:
        page = int(request.GET.get("page", 1))
    except ValueError:
        page = 1
    stichtag, stichtag_form = stichtag_from(request.GET)
    stichtag_form.fields["stichtag"].widget.attrs["class"] = "form-control form-control-sm"
    card = players.card_page(player=player, page=page, until=stichtag)
    if card.value is not None:
        # The card as it stood on the Stichtag (display only, never saved): head values and category.
        player.dwz, player.index = card.value.dwz, card.value.index
        player.last_evaluated = card.value.last_evaluated
    context = {
        "stichtag_form": stichtag_form,
        "player": player,
        "memberships": [m for m in player.memberships.all() if m.current],
        "past_memberships": [m for m in player.memberships.all() if not m.current],
        "history": card.rows,
        "card": card,
        "chart_data": card.chart,
        "recalculation_job": recalculation_job(player=player),
        "officer_panel": officer_panel(request, player=player),
        "card_panels": card_panels(request, player=player),
    }
    return render(request, "ratings/public/player_detail.html", context)


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Turnierauswertung: head, evaluation table, crosstable or progress table, scoresheets."""
    tournament = tournaments.tournament(pk=pk)
    if tournament is None:
        raise Http404(_("Dieses Turnier gibt es nicht."))
    view = tournaments.tournament_view(tournament=tournament, games_up_to=LAZY_GAMES_FROM)
    edition = next((r.evaluation.get_edition_display() for r in view.rows if r.evaluation), None)
    context = {
        "tournament": tournament,
        "view": view,
        "edition": edition,
        "recalculation_job": recalculation_job(tournament=tournament),
        "officer_panel": officer_panel(request, tournament=tournament),
    }
    context.update(standings_context(tournament, view))
    # The evaluation by start number (the default) or by placing (?sort=rang).
    sort = "rang" if request.GET.get("sort") == "rang" and view.rounds else "nr"
    rows = evaluation_rows(view, context["standings"], by_placing=sort == "rang")
    context.update({"evaluation_rows": rows, "sort": sort, "lazy_games": len(view.rows) > LAZY_GAMES_FROM})
    return render(request, "ratings/public/tournament_detail.html", context)


def tournament_games(request: HttpRequest, pk: int) -> HttpResponse:
    """Kreuztabelle or Fortschrittstabelle and the scoresheets: a large tournament's page loads them from
    here as the reader scrolls to them (HTMX); without JavaScript it is a page of its own."""
    tournament = tournaments.tournament(pk=pk)
    if tournament is None:
        raise Http404(_("Dieses Turnier gibt es nicht."))
    context = {"tournament": tournament, "view": tournaments.tournament_view(tournament=tournament)}
    if getattr(request, "htmx", False):
        return render(request, "ratings/public/_tournament_games.html", context)
    return render(request, "ratings/public/tournament_games.html", context)
