"""A tournament's way: angemeldet → in Erfassung → ausgewertet → eingereicht (or "geändert seit
Einreichung") → bestätigt / abweichend. Computed, never stored: from the announcement, the draft, the stored
results and evaluations, the latest submission and, for the last step, the official comparison's verdict.

:func:`tournament_states` reads any number of tournaments in a fixed number of queries (flags 1, latest
submissions 1, and for the submitted ones the export's rows 4); the verdict comes from
:func:`official_verdicts` (1 query), the one place where the comparison with the DSB's values is read.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.models import (
    Evaluation,
    Game,
    Tournament,
    TournamentDraft,
    TournamentEntry,
    TournamentSubmission,
    VerdictState,
)

from .dsb_xml_export import build_report, load_rows, report_snapshot, snapshot_digest
from .officer import still_running
from .official_stored import latest_verdicts

ANNOUNCED = "announced"
ENTRY = "entry"
EVALUATED = "evaluated"
SUBMITTED = "submitted"
CHANGED = "changed"
CONFIRMED = "confirmed"
DEVIATING = "deviating"

LABELS = {
    ANNOUNCED: gettext_lazy("angemeldet"),
    ENTRY: gettext_lazy("in Erfassung"),
    EVALUATED: gettext_lazy("ausgewertet"),
    SUBMITTED: gettext_lazy("eingereicht"),
    CHANGED: gettext_lazy("geändert seit Einreichung"),
    CONFIRMED: gettext_lazy("bestätigt"),
    DEVIATING: gettext_lazy("abweichend"),
}
# Bootstrap badge classes by state (the templates only format).
BADGES = {
    ANNOUNCED: "text-bg-info",
    ENTRY: "text-bg-warning",
    EVALUATED: "text-bg-secondary",
    SUBMITTED: "text-bg-primary",
    CHANGED: "text-bg-danger",
    CONFIRMED: "text-bg-success",
    DEVIATING: "text-bg-danger",
}


@dataclass(frozen=True)
class TournamentState:
    code: str
    submission: TournamentSubmission | None = None
    changes: list[str] = field(default_factory=list)  # what changed since the submission (CHANGED only)

    @property
    def label(self) -> str:
        return str(LABELS[self.code])

    @property
    def badge(self) -> str:
        return BADGES[self.code]


def official_verdicts(*, submitted_on: Mapping[int, datetime.date]) -> dict[int, str]:
    """The official comparison's verdict per submitted tournament, ``CONFIRMED`` or ``DEVIATING``: that of
    the newest DSB list which judged it (``selectors.official_stored``), counted only when the list is dated
    on or after the day the tournament was submitted (a list before it cannot confirm what was sent). An
    unclear or pending verdict leaves the tournament "eingereicht". One query."""
    codes: dict[str, str] = {VerdictState.CONFIRMED: CONFIRMED, VerdictState.DIFFERS: DEVIATING}
    verdicts = latest_verdicts(tournament_ids=submitted_on)
    return {
        pk: codes[v.state]
        for pk, v in verdicts.items()
        if v.state in codes and v.list_import.as_of is not None and v.list_import.as_of >= submitted_on[pk]
    }


def _flags(ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    rows = Tournament.objects.filter(pk__in=ids).annotate(
        has_draft=Exists(TournamentDraft.objects.filter(tournament=OuterRef("pk"))),
        has_entries=Exists(TournamentEntry.objects.filter(tournament=OuterRef("pk"))),
        has_games=Exists(Game.objects.filter(tournament=OuterRef("pk"))),
        evaluated=Exists(Evaluation.objects.filter(tournament=OuterRef("pk"))),
    )
    return {
        r["pk"]: dict(r)
        for r in rows.values("pk", "announced", "rated", "has_draft", "has_entries", "has_games", "evaluated")
    }


def latest_submissions(*, tournament_ids: Sequence[int]) -> dict[int, TournamentSubmission]:
    """The latest submission of each of ``tournament_ids`` that has one. One query."""
    latest = TournamentSubmission.objects.filter(tournament=OuterRef("tournament")).order_by(
        "-submitted_at", "-pk"
    )
    rows = TournamentSubmission.objects.filter(
        tournament_id__in=tournament_ids, pk=Subquery(latest.values("pk")[:1])
    ).select_related("user")
    return {s.tournament_id: s for s in rows}


def _before_submission(flags: Mapping[str, Any]) -> str:
    if flags["has_draft"]:
        return ENTRY
    if not flags["has_entries"] and not flags["has_games"]:
        return ANNOUNCED if flags["announced"] else ENTRY
    if flags["rated"] and not flags["evaluated"]:
        return ENTRY  # results stored, the evaluation still to come (a background recalculation)
    return EVALUATED


def tournament_states(
    *, tournaments: Sequence[Tournament], verdicts: Mapping[int, str] | None = None
) -> dict[int, TournamentState]:
    """The state of each of ``tournaments`` by pk. ``verdicts``: the official comparison's per tournament
    (default: :func:`official_verdicts`)."""
    ids = [t.pk for t in tournaments]
    if not ids:
        return {}
    flags = _flags(ids)
    submissions = latest_submissions(tournament_ids=ids)
    if verdicts is None:
        verdicts = official_verdicts(
            submitted_on={pk: timezone.localdate(sub.submitted_at) for pk, sub in submissions.items()}
        )
    submitted = [t for t in tournaments if t.pk in submissions and t.pk in flags]
    rows = load_rows(tournaments=submitted)
    states: dict[int, TournamentState] = {}
    for t in tournaments:
        if t.pk not in flags:
            continue
        submission = submissions.get(t.pk)
        if submission is None or flags[t.pk]["has_draft"]:
            states[t.pk] = TournamentState(_before_submission(flags[t.pk]), submission)
            continue
        r = rows[t.pk]
        snapshot = report_snapshot(build_report(r))
        if snapshot_digest(snapshot) != submission.digest:
            changes = snapshot_changes(submission.snapshot, snapshot, boards=r.boards())
            states[t.pk] = TournamentState(CHANGED, submission, changes or [_("Inhalt des Berichts")])
            continue
        verdict = verdicts.get(t.pk)
        code = verdict if verdict in (CONFIRMED, DEVIATING) else SUBMITTED
        states[t.pk] = TournamentState(code, submission)
    return states


# --- what changed since the submission ------------------------------------------------------------------

_HEAD_LABELS = {
    "uuid": gettext_lazy("Turnier-UUID"),
    "label": gettext_lazy("Turniername"),
    "type": gettext_lazy("Turnierart"),
    "time_control": gettext_lazy("Bedenkzeit"),
    "rounds": gettext_lazy("Runden"),
    "start_date": gettext_lazy("Beginn"),
    "end_date": gettext_lazy("Enddatum"),
    "location": gettext_lazy("Ort"),
    "notes": gettext_lazy("Notizen"),
}


def _player_name(p: Mapping[str, Any]) -> str:
    name = f"{p['surname']}, {p['forename']}" if p.get("forename") else str(p.get("surname", ""))
    return f"{name} ({p.get('number')})"


def _game_key(g: Mapping[str, Any]) -> tuple[int, int | None, int | None]:
    return (g["round"], g["white"], g["black"])


def _game_label(key: tuple[int, int | None, int | None], boards: Mapping) -> str:
    rnd, white, black = key
    board = boards.get(key)
    if board is not None:
        return _("Runde %(round)s Brett %(board)s") % {"round": rnd, "board": board}
    if black is None:
        return _("Runde %(round)s, spielfrei Nr. %(white)s") % {"round": rnd, "white": white}
    return _("Runde %(round)s, Nr. %(white)s – Nr. %(black)s") % {
        "round": rnd,
        "white": white,
        "black": black,
    }


def _player_changes(before: list, after: list) -> list[str]:
    old = {p["number"]: p for p in before}
    new = {p["number"]: p for p in after}
    out = []
    for number in sorted(new.keys() - old.keys()):
        out.append(_("Spieler hinzugefügt: %(name)s") % {"name": _player_name(new[number])})
    for number in sorted(old.keys() - new.keys()):
        out.append(_("Spieler entfernt: %(name)s") % {"name": _player_name(old[number])})
    for number in sorted(old.keys() & new.keys()):
        if old[number] != new[number]:
            out.append(_("Spielerdaten geändert: %(name)s") % {"name": _player_name(new[number])})
    return out


def _game_changes(before: list, after: list, boards: Mapping) -> list[str]:
    old = {_game_key(g): g for g in before}
    new = {_game_key(g): g for g in after}
    out = []
    for key in sorted(new.keys() & old.keys(), key=str):
        if new[key] != old[key]:
            out.append(_("Ergebnis %(game)s") % {"game": _game_label(key, boards)})
    for key in sorted(new.keys() - old.keys(), key=str):
        out.append(_("Partie hinzugefügt: %(game)s") % {"game": _game_label(key, boards)})
    for key in sorted(old.keys() - new.keys(), key=str):
        out.append(_("Partie entfernt: %(game)s") % {"game": _game_label(key, {})})
    return out


def snapshot_changes(
    before: Mapping[str, Any], after: Mapping[str, Any], *, boards: Mapping | None = None
) -> list[str]:
    """What differs between a submission's snapshot and the current one, in the officer's words
    ("Enddatum", "Spieler hinzugefügt: …", "Ergebnis Runde 3 Brett 2")."""
    out = []
    old_head, new_head = before.get("head", {}), after.get("head", {})
    for key, label in _HEAD_LABELS.items():
        if old_head.get(key) != new_head.get(key):
            out.append(str(label))
    out += _player_changes(before.get("players", []), after.get("players", []))
    out += _game_changes(before.get("games", []), after.get("games", []), boards or {})
    return out


# --- the dashboard's lists (WO 6.2, WO 7.6) -------------------------------------------------------------


def unsubmitted_tournaments(
    *, manageable: QuerySet[Tournament], today: datetime.date, since: datetime.date, limit: int = 100
) -> QuerySet[Tournament]:
    """Those of ``manageable`` that have ended (before ``today``, not before ``since``) and were never
    submitted, earliest end first: the WO 6.2 countdown. One query."""
    return (
        manageable.filter(end_date__lt=today, end_date__gte=since)
        .exclude(Exists(TournamentSubmission.objects.filter(tournament=OuterRef("pk"))))
        .exclude(still_running())
        .order_by("end_date", "pk")[:limit]
    )


def announced_not_entered(
    *, manageable: QuerySet[Tournament], today: datetime.date, limit: int = 100
) -> QuerySet[Tournament]:
    """Announced tournaments of ``manageable`` whose start has passed (before ``today``) with nothing entered:
    no participant, no game, no draft. One query."""
    return (
        manageable.filter(announced=True, start_date__lt=today)
        .exclude(Exists(TournamentEntry.objects.filter(tournament=OuterRef("pk"))))
        .exclude(Exists(Game.objects.filter(tournament=OuterRef("pk"))))
        .exclude(Exists(TournamentDraft.objects.filter(tournament=OuterRef("pk"))))
        .order_by("start_date", "pk")[:limit]
    )
