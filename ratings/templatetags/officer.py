"""Template helpers of the officer pages, and the audit-trail hook for the public pages.

Public templates show the trail to logged-in officers with::

    {% load officer %}{% if user.is_authenticated %}{% audit_trail tournament=tournament %}{% endif %}
    {% load officer %}{% if user.is_authenticated %}{% audit_trail player=player %}{% endif %}
"""

from django import template

from ratings import permissions
from ratings.selectors.audit import audit_trail as load_trail
from ratings.web.audit_display import actor, change_lines, with_lines

register = template.Library()


@register.filter
def audit_lines(event) -> list[str]:
    """Readable lines for an event's ``changes``."""
    lines = getattr(event, "lines", None)
    return lines if lines is not None else change_lines(event)


@register.filter
def audit_actor(event) -> str:
    """Who made the change: the username, or "System" for events without a user (imports, seed_demo)."""
    return actor(event)


@register.inclusion_tag("ratings/officer/_audit_trail.html", takes_context=True)
def audit_trail(context, tournament=None, player=None):
    """The trail of a tournament or a player, for officers and staff only (empty for everybody else)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not permissions.is_officer(user):
        return {"show": False}
    trail = (
        load_trail(tournament_id=getattr(tournament, "pk", None), player_id=getattr(player, "pk", None))
        if (tournament is not None or player is not None)
        else []
    )
    return {"show": True, "trail": with_lines(trail)}


@register.filter(name="is_officer")
def is_officer_filter(user) -> bool:
    """Staff or Wertungsreferent (for the navbar's "Neues Turnier")."""
    return user is not None and permissions.is_officer(user)


@register.filter
def days_overdue(end_date) -> int:
    """Days since the six weeks after ``end_date`` ran out (WO 6.2)."""
    return permissions.days_past_evaluation_deadline(end_date)


@register.filter(name="may_correct")
def may_correct_filter(user, tournament) -> bool:
    """``user`` may write ``tournament`` now: scope and, for a Wertungsreferent, the WO 6.2 year."""
    return user is not None and user.is_authenticated and permissions.may_correct(user, tournament)


@register.inclusion_tag("ratings/officer/_tournament_links.html", takes_context=True)
def officer_tournament_links(context, tournament):
    """Edit links for officers who may manage ``tournament`` (nothing for everybody else); past the WO 6.2
    year a Wertungsreferent sees why they are gone instead."""
    request = context.get("request")
    user = getattr(request, "user", None)
    show = user is not None and user.is_authenticated and permissions.can_manage_tournament(user, tournament)
    return {
        "show": show,
        "correctable": show and permissions.may_correct(user, tournament),
        "window_message": permissions.outside_window_message(),
        "tournament": tournament,
    }
