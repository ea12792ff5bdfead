"""``announce_rating_changes``: tell listeners (``ratings.signals.ratings_changed``) once a recalculation
committed which players' DWZ it changed and which tournament caused it. Nothing per player happens inside
the lock: one ``on_commit`` callback per recalculation, whose receivers queue a background task."""

from __future__ import annotations

from django.db import transaction

from ratings.enums import RatingChangeCause
from ratings.recalculation import RecalculationReport
from ratings.signals import ratings_changed


def announce_rating_changes(
    *,
    report: RecalculationReport,
    tournament_id: int | None,
    tournament_name: str = "",
    tournament_code: str | None = None,
    removed: bool = False,
    chain: bool = False,
    cause: RatingChangeCause = RatingChangeCause.TOURNAMENT,
) -> None:
    """After the current transaction commits, send ``ratings_changed`` with the report's rating changes
    (a rolled-back save announces nothing). A saved tournament is announced even if no DWZ changed (its
    players' evaluation is news); a recalculation that changed nothing else is not. ``chain``: the
    background replay of the chain after a saved tournament (already announced): every change a revision.
    ``cause``: what caused it when no tournament did (an adjustment, a merge, a list import)."""
    changes = {pk: (old, new) for pk, (old, new) in report.rating_changes.items() if old != new}
    if not changes and (tournament_id is None or removed or chain):
        return
    transaction.on_commit(
        lambda: ratings_changed.send(
            sender=announce_rating_changes,
            changes=changes,
            tournament_id=tournament_id,
            tournament_name=tournament_name,
            tournament_code=tournament_code,
            removed=removed,
            chain=chain,
            cause=str(cause.value),
        )
    )
