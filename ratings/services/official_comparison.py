"""The Abgleich of a list import, stored (issue 28 §3): its differences and the verdicts of the tournaments
its players reach.

``official_comparison_store`` runs the selector ``ratings.selectors.official_comparison`` (read only, about
4 s for 20,000 players on SQLite, twice: the differences and the verdicts) and replaces what an earlier run
stored for the same import, in one short transaction. It runs after the list import has committed (the list
import's background job and the command call it): the comparison only reads, so it needs neither the rating
lock nor the import's transaction, and officers' saves are not held up for its seconds. The rating lock is
not taken: a save meanwhile may make a stored row stale, as any later save does; the next list corrects it.
"""

from __future__ import annotations

import datetime
from collections import Counter
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.generation import bump_generation
from ratings.models import (
    Evaluation,
    ListImport,
    OfficialDifference,
    OfficialRating,
    OfficialVerdict,
    VerdictState,
)
from ratings.models.audit import AuditAction, AuditObjectType
from ratings.selectors.officer import tournament_names
from ratings.selectors.official_comparison import (
    Cause,
    Difference,
    compare_official,
    tournament_agreement,
)
from ratings.selectors.official_stored import latest_verdicts
from ratings.selectors.tournament_states import latest_submissions

from . import audit

BATCH = 1000


def _tournaments_json(difference: Difference) -> list[dict[str, Any]]:
    return [
        {"id": t.id, "name": t.name, "code": t.code or "", "date": t.end_date.isoformat()}
        for t in difference.tournaments
    ]


def _verdict_json(difference: Difference) -> dict[str, Any]:
    p = difference.player
    return {
        "player": p.id,
        "key": p.key,
        "name": p.name,
        "cause": str(difference.cause),
        "message": difference.message,
    }


def _reached(as_of: datetime.date | None) -> list[int]:
    """The tournaments the players of the list of ``as_of`` reach: those in which one of them has a
    rating-setting evaluation up to the list's date (one query)."""
    if as_of is None:
        return []
    listed = OfficialRating.objects.filter(as_of=as_of).values("player_id")
    return list(
        Evaluation.objects.setting_rating()
        .filter(player_id__in=listed, end_date__lte=as_of)
        .values_list("tournament_id", flat=True)
        .distinct()
    )


_STATE_ACTIONS = {VerdictState.CONFIRMED: AuditAction.CONFIRM, VerdictState.DIFFERS: AuditAction.DEVIATE}


def _record_state_changes(
    *, list_import: ListImport, rows: list[OfficialVerdict], before: dict[int, OfficialVerdict]
) -> None:
    """An audit row for each submitted tournament this list moves to "bestätigt" or "abweichend": a list
    dated on or after its submission whose verdict differs from the one before (the states of
    ``selectors.tournament_states``). Tournaments never submitted keep no such row: they have no state to
    confirm."""
    submitted = latest_submissions(tournament_ids=[row.tournament_id for row in rows])
    names = tournament_names(pks=list(submitted))
    as_of = list_import.as_of
    for row in rows:
        submission = submitted.get(row.tournament_id)
        action = _STATE_ACTIONS.get(VerdictState(row.state))
        if action is None or submission is None or as_of is None:
            continue
        if as_of < timezone.localdate(submission.submitted_at):
            continue
        previous = before.get(row.tournament_id)
        if previous is not None and previous.state == row.state:
            continue
        audit.record(
            user=None,
            action=action,
            object_type=AuditObjectType.TOURNAMENT,
            object_id=row.tournament_id,
            object_repr=names.get(row.tournament_id, str(row.tournament_id)),
            tournament_ref=row.tournament_id,
            changes={
                "list": list_import.file_name,
                "as_of": as_of.isoformat(),
                "differences": len(row.differences),
            },
        )


def official_comparison_store(*, list_import: ListImport) -> dict[str, Any]:
    """Compare ``list_import``'s list with dwzsite's values and store its differences and the verdicts of
    the tournaments its players reach (replacing an earlier run's for this import). Returns the counts,
    which the caller keeps as ``ListImport.summary["abgleich"]``."""
    comparison = compare_official(list_import=list_import)
    verdicts = tournament_agreement(tournaments=_reached(comparison.as_of), as_of=comparison.as_of)
    now = timezone.now()
    differences = [
        OfficialDifference(
            list_import=list_import,
            player_id=d.player.id,
            cause=str(d.cause),
            evidence=str(d.evidence),
            official_dwz=d.official_dwz,
            official_index=d.official_index,
            official_week=d.official_week,
            window_end=d.window_end,
            our_dwz=d.our_dwz,
            our_index=d.our_index,
            tournaments=_tournaments_json(d),
            message=d.message,
        )
        for d in comparison.differences
    ]
    rows = [
        OfficialVerdict(
            tournament_id=tid,
            list_import=list_import,
            state=str(v.state),
            checked_at=now,
            differences=[_verdict_json(d) for d in v.differences],
        )
        for tid, v in verdicts.items()
    ]
    with transaction.atomic():
        before = latest_verdicts(tournament_ids=verdicts)
        OfficialDifference.objects.filter(list_import=list_import).delete()
        OfficialVerdict.objects.filter(list_import=list_import).delete()
        OfficialDifference.objects.bulk_create(differences, batch_size=BATCH)
        OfficialVerdict.objects.bulk_create(rows, batch_size=BATCH)
        _record_state_changes(list_import=list_import, rows=rows, before=before)
        bump_generation()  # bulk writes: no model signal (``ratings.generation``)
    states = Counter(str(v.state) for v in verdicts.values())
    return {
        "compared": comparison.compared,
        "differences": len(comparison.differences),
        **{str(cause): comparison.count(cause) for cause in Cause},
        "tournaments": {state: states[state] for state in ("confirmed", "differs", "unclear", "pending")},
    }


def abgleich_line(*, counts: dict[str, Any] | None) -> str:
    """The report's line: "Abgleich: N Abweichungen (X hier mehr, Y beim DSB mehr, Z Kette)"; "" without
    a comparison."""
    if not counts or "differences" not in counts:
        return ""
    n = counts["differences"]
    head = ngettext("Abgleich: %(n)d Abweichung", "Abgleich: %(n)d Abweichungen", n) % {"n": n}
    detail = _("%(ours)d hier mehr, %(dsb)d beim DSB mehr, %(chain)d Kette") % {
        "ours": counts.get(Cause.OURS_EXTRA, 0),
        "dsb": counts.get(Cause.DSB_EXTRA, 0),
        "chain": counts.get(Cause.CHAIN_PARTS, 0),
    }
    return f"{head} ({detail})"
