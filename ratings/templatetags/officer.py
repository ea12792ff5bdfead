"""Template helpers of the officer pages, and the audit-trail hook for the public pages (issue 5).

Public templates show the trail to logged-in officers with::

    {% load officer %}{% if user.is_authenticated %}{% audit_trail tournament=tournament %}{% endif %}
    {% load officer %}{% if user.is_authenticated %}{% audit_trail player=player %}{% endif %}
"""

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import permissions
from ratings.services.audit import audit_trail as load_trail

register = template.Library()

FIELD_LABELS = {
    "name": gettext_lazy("Name"),
    "code": gettext_lazy("Turniercode"),
    "place": gettext_lazy("Ort"),
    "start_date": gettext_lazy("Beginn"),
    "end_date": gettext_lazy("Ende"),
    "rounds": gettext_lazy("Runden"),
    "organiser_club_id": gettext_lazy("Ausrichter (Verein)"),
    "organiser_organisation_id": gettext_lazy("Ausrichter (Verband)"),
    "rating_officer_id": gettext_lazy("Wertungsreferent"),
    "rated": gettext_lazy("DWZ-gewertet"),
    "notes": gettext_lazy("Notizen"),
    "mode": gettext_lazy("Turnierart"),
}


def _fmt(value) -> str:
    return "–" if value in (None, "") else str(value)


@register.filter
def audit_lines(event) -> list[str]:
    """Readable lines for an event's ``changes``."""
    changes = event.changes or {}
    lines: list[str] = []
    for field_name, pair in (changes.get("head") or {}).items():
        label = FIELD_LABELS.get(field_name, field_name)
        lines.append(f"{label}: {_fmt(pair[0])} → {_fmt(pair[1])}")
    groups = {
        "entries_added": _("Teilnehmer hinzu"),
        "entries_removed": _("Teilnehmer entfernt"),
        "games_added": _("Partien neu"),
        "games_removed": _("Partien entfernt"),
    }
    for key, label in groups.items():
        items = changes.get(key) or []
        if items:
            shown = "; ".join(items[:12]) + (" …" if len(items) > 12 else "")
            lines.append(f"{label} ({len(items)}): {shown}")
    for key, value in changes.items():
        if key in groups or key == "head":
            continue
        if isinstance(value, list) and len(value) == 2:
            lines.append(f"{key}: {_fmt(value[0])} → {_fmt(value[1])}")
    return lines


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
    return {"show": True, "trail": trail}


@register.filter(name="is_officer")
def is_officer_filter(user) -> bool:
    """Staff or Wertungsreferent (for the navbar's "Neues Turnier")."""
    return user is not None and permissions.is_officer(user)


@register.inclusion_tag("ratings/officer/_tournament_links.html", takes_context=True)
def officer_tournament_links(context, tournament):
    """Edit links for officers who may manage ``tournament`` (nothing for everybody else)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    show = user is not None and user.is_authenticated and permissions.can_manage_tournament(user, tournament)
    return {"show": show, "tournament": tournament}
