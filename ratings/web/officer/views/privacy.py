"""A player's objection to publication, set on his card by an officer of one of his clubs or an admin
(issue 30 §4); the service checks the scope and writes the audit row."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ratings import permissions
from ratings.selectors import players
from ratings.services.privacy import player_publication_set


@require_POST
@permissions.officer_required
def player_publication(request: HttpRequest, key: str) -> HttpResponse:
    player = players.player(key=key)
    if player is None:
        raise Http404(_("Diesen Spieler gibt es nicht."))
    objection = request.POST.get("objection") == "1"
    note = request.POST.get("note", "")[:500]
    try:
        changed = player_publication_set(player=player, objection=objection, user=request.user, note=note)
    except PermissionDenied:
        messages.error(request, _("Dieser Spieler liegt außerhalb Ihres Bereichs."))
        return redirect(player.get_absolute_url())
    if changed is not None:
        messages.success(
            request,
            _("Widerspruch vermerkt: öffentlich erscheint „nicht veröffentlicht“.")
            if objection
            else _("Widerspruch aufgehoben: der Spieler wird wieder veröffentlicht."),
        )
    return redirect(player.get_absolute_url())
