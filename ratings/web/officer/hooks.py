"""What the public pages of a tournament or a player show a logged-in officer: the edit links and the audit
trail (``templates/ratings/officer/_audit_trail_for.html``). Read here so the templates only show it."""

from __future__ import annotations

from django.http import HttpRequest

from ratings import permissions
from ratings.selectors.audit import audit_trail, restorable_saves
from ratings.selectors.official_stored import latest_verdicts
from ratings.selectors.tournament_states import tournament_states
from ratings.web.audit_display import with_lines
from ratings.web.officer.presenters import with_restore_links


def officer_panel(request: HttpRequest, *, tournament=None, player=None) -> dict | None:
    """None for visitors who are not logged in; for officers and staff the trail of ``tournament`` or
    ``player`` and, on a tournament, whether they may manage it and correct it now (WO 6.2 year) and its
    Abgleich with the newest DSB list that judged it (``verdict``, None if none has)."""
    user = request.user
    if not user.is_authenticated:
        return None
    if not permissions.is_officer(user):
        return {"show": False, "links": {"show": False}}
    trail = audit_trail(tournament_id=getattr(tournament, "pk", None), player_id=getattr(player, "pk", None))
    lines = with_lines(trail)
    panel = {"show": True, "trail": lines, "links": {"show": False}}
    if player is not None:  # the objection to publication (issue 30 §4): officers of his clubs, staff
        panel["privacy"] = {"player": player, "manages": permissions.can_manage_player(user, player)}
    if tournament is not None:
        manages = permissions.can_manage_tournament(user, tournament)
        correctable = manages and permissions.may_correct(user, tournament)
        panel["links"] = {
            "show": manages,
            "correctable": correctable,
            "window_message": permissions.outside_window_message(),
            "tournament": tournament,
            "state": tournament_states(tournaments=[tournament]).get(tournament.pk) if manages else None,
        }
        panel["verdict"] = latest_verdicts(tournament_ids=[tournament.pk]).get(tournament.pk)
        if correctable:  # "Fassung davor wiederherstellen" beside each save it may undo
            restorable = restorable_saves(tournament_id=tournament.pk)
            with_restore_links(lines, tournament_id=tournament.pk, restorable=restorable)
    return panel
