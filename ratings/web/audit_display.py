"""The audit trail as officers read it: an event's stored ``changes`` (ISO dates, primary keys, booleans,
choice values: machine-readable, ``tournament_restore`` parses them) rendered at display time with names,
local dates, ja/nein and choice labels. Used by the ``audit_trail`` tag and the officer views."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models import ForeignObjectRel
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.models.adjustment import RatingAdjustment
from ratings.models.audit import AuditObjectType
from ratings.models.officer import TournamentEntryMode
from ratings.models.player import Membership, Player
from ratings.models.tournament import Tournament

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
MODELS: dict[str, type[models.Model]] = {
    AuditObjectType.TOURNAMENT: Tournament,
    AuditObjectType.PLAYER: Player,
    AuditObjectType.ADJUSTMENT: RatingAdjustment,
}
GROUPS = {
    "games_changed": gettext_lazy("Ergebnisse geändert"),
    "entries_added": gettext_lazy("Teilnehmer hinzu"),
    "entries_removed": gettext_lazy("Teilnehmer entfernt"),
    "games_added": gettext_lazy("Partien neu"),
    "games_removed": gettext_lazy("Partien entfernt"),
}

Names = dict[tuple[type[models.Model], object], str]


def _field(object_type: str, key: str) -> models.Field | ForeignObjectRel | None:
    """The model field behind a key of an event's ``changes`` (``organiser_club_id`` → the foreign key)."""
    if object_type == AuditObjectType.TOURNAMENT and key == "mode":
        return TournamentEntryMode._meta.get_field("mode")
    model = MODELS.get(object_type)
    if model is None:
        return None
    for name in (key, key.removesuffix("_id")):
        try:
            return model._meta.get_field(name)
        except FieldDoesNotExist:
            continue
    return None


def _label(object_type: str, key: str) -> str:
    if object_type == AuditObjectType.TOURNAMENT and key in FIELD_LABELS:
        return str(FIELD_LABELS[key])
    if key == "memberships":
        return str(Membership._meta.verbose_name_plural)
    field = _field(object_type, key)
    if isinstance(field, ForeignObjectRel):  # a reverse relation (``memberships``) has no verbose name
        return key
    return str(field.verbose_name) if field is not None else key


def _pairs(event) -> Iterable[tuple[str, list]]:
    """The ``(key, [old, new])`` pairs of an event: a tournament's head fields, a player's fields."""
    changes = event.changes or {}
    yield from (changes.get("head") or {}).items()
    for key, value in changes.items():
        if key not in GROUPS and key != "head" and isinstance(value, list) and len(value) == 2:
            yield key, value


def _names(events: Iterable) -> Names:
    """Names of the objects referenced by primary key in the events (clubs, federations, users)."""
    wanted: dict[type[models.Model], set] = defaultdict(set)
    for event in events:
        for key, pair in _pairs(event):
            field = _field(event.object_type, key)
            related = field.related_model if field is not None and field.is_relation else None
            if related is not None:
                wanted[related].update(v for v in pair if isinstance(v, int))
    return {
        (model, pk): str(obj)
        for model, pks in wanted.items()
        for pk, obj in model._default_manager.in_bulk(pks).items()
    }


def _value(field: models.Field | ForeignObjectRel | None, value, names: Names) -> str:
    """A stored snapshot value as the officer reads it: names for keys, local dates, ja/nein, labels."""
    if value is None or value == "" or value == []:
        return "–"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return _("ja") if value else _("nein")
    if field is None:
        return str(value)
    if field.is_relation or isinstance(field, ForeignObjectRel):  # a reverse relation always is one
        related = field.related_model
        return names.get((related, value), f"#{value}") if related is not None else f"#{value}"
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(field, models.DateField) and isinstance(value, str):
        try:
            parsed = (
                datetime.datetime.fromisoformat(value)
                if isinstance(field, models.DateTimeField)
                else datetime.date.fromisoformat(value)
            )
        except ValueError:
            return value
        return date_format(
            parsed, "SHORT_DATETIME_FORMAT" if isinstance(parsed, datetime.datetime) else "SHORT_DATE_FORMAT"
        )
    return str(value)


def change_lines(event, names: Names | None = None) -> list[str]:
    """Readable lines for an event's ``changes``; the stored JSON stays machine-readable."""
    if names is None:
        names = _names([event])
    changes = event.changes or {}
    lines: list[str] = []
    for key, pair in _pairs(event):
        field = _field(event.object_type, key)
        old, new = _value(field, pair[0], names), _value(field, pair[1], names)
        if old != new:
            lines.append(f"{_label(event.object_type, key)}: {old} → {new}")
    for key, label in GROUPS.items():
        items = changes.get(key) or []
        if items:
            shown = "; ".join(items[:12]) + (" …" if len(items) > 12 else "")
            lines.append(f"{label} ({len(items)}): {shown}")
    return lines


def with_lines(events: list) -> list:
    """Set ``event.lines`` on each event, with one query per referenced model for all of them."""
    names = _names(events)
    for event in events:
        event.lines = change_lines(event, names)
    return events


def actor(event) -> str:
    """Who made the change: the username, or "System" for events without a user (imports, seed_demo)."""
    return event.username or _("System")
