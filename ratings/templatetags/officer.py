"""Template helpers of the officer pages. They only format: what a page shows (the audit trail with its
readable lines, the edit links, the WO 6.2 window) the view reads and passes in its context
(``ratings.web.officer.hooks``, ``ratings.web.officer.presenters``)."""

from django import template

from ratings.web.audit_display import actor

register = template.Library()


@register.filter
def audit_actor(event) -> str:
    """Who made the change: the username, or "System" for events without a user (imports, seed_demo)."""
    return actor(event)
