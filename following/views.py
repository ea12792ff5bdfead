"""Following a player or club by e-mail (no account): the form, the confirmation and the one-click
unsubscribe. The pages never say whether an address follows anything."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from ratings.models import Club, Player
from ratings.selectors import clubs, players
from ratings.web.throttle import throttle

from . import services
from .forms import FollowForm
from .tokens import cancelled_id, confirmed_id


def follow_player(request: HttpRequest, key: str) -> HttpResponse:
    player = players.player(key=key)
    if player is None or player.publication_objection:  # nothing public about him, no following either
        raise Http404(_("Diesen Spieler gibt es nicht."))
    return _follow(request, player=player)


def follow_club(request: HttpRequest, zps: str) -> HttpResponse:
    club = clubs.club(zps=zps)
    if club is None:
        raise Http404(_("Diesen Verein gibt es nicht."))
    return _follow(request, club=club)


@require_http_methods(["GET", "POST"])
def _follow(request: HttpRequest, *, player: Player | None = None, club: Club | None = None) -> HttpResponse:
    target = player if player is not None else club
    form = FollowForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = throttle(
            request,
            scope="follow",
            limit=settings.FOLLOW_REQUEST_LIMIT,
            window=settings.FOLLOW_REQUEST_WINDOW,
        )
        if wait is not None:
            form.add_error(
                None,
                _("Zu viele Anfragen. Bitte versuchen Sie es in %(minutes)d Minuten noch einmal.")
                % {"minutes": max(1, wait // 60)},
            )
        else:
            if not form.cleaned_data["website"]:
                services.subscription_request(
                    email=form.cleaned_data["email"],
                    player=player,
                    club=club,
                    language=(get_language() or "de")[:2],
                )
            return render(request, "following/requested.html", {"target": target})
    status = 429 if form.non_field_errors() else 200  # an invalid address is the form's message
    return render(request, "following/follow.html", {"form": form, "target": target}, status=status)


@require_http_methods(["GET", "POST"])
def confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the first mail: a button (a mail scanner fetching the link confirms nothing)."""
    subscription_id = confirmed_id(token)
    if subscription_id is None:
        return render(request, "following/invalid.html", status=400)
    if request.method == "POST":
        subscription = services.subscription_confirm(subscription_id=subscription_id)
        if subscription is None:
            return render(request, "following/invalid.html", status=400)
        return render(request, "following/confirmed.html", {"target": subscription.target})
    return render(request, "following/confirm.html", {"token": token})


# RFC 8058: the mail client posts "List-Unsubscribe=One-Click" without a form; the token is the key.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def cancel(request: HttpRequest, token: str) -> HttpResponse:
    subscription_id = cancelled_id(token)
    if subscription_id is None:
        return render(request, "following/invalid.html", status=400)
    if request.method == "POST":
        services.subscription_cancel(subscription_id=subscription_id)
        return render(request, "following/cancelled.html")
    return render(request, "following/cancel.html", {"token": token})
