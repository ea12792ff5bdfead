"""Notices several pages share, read here so that the templates only show them."""

from __future__ import annotations

from ratings.selectors.recalculation import running_recalculation


def recalculation_job(*, player=None, tournament=None):
    """The background recalculation that may still change the values of ``player`` or ``tournament`` (with
    neither: any running job), for ``ratings/_recalculation_notice.html`` ("Neuberechnung läuft")."""
    if player is not None:
        return running_recalculation(player_id=player.pk)
    if tournament is not None:
        return running_recalculation(end_date=tournament.end_date)
    return running_recalculation()
