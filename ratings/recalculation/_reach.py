"""What saving or deleting a tournament will re-evaluate, answered without saving: the incremental replay's
reach (``changes.replay_reach``) on the stored rows, with the unsaved entries and games as the changed
tournament's event. No lock, no row written: the previews on the results and rounds pages and the delete
confirmation ask this on every view, while other officers save.

The answer is the report's: the tournaments the request re-evaluates (``RecalculationReport.tournaments``
but the tournament itself) and whether the rest of the chain goes to a background job, because the save
runs the same ``Changes`` (``tournament_save_results`` / ``tournament_delete``) up to the same ``until``
when ``background_estimate`` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Min

from ratings.dwz.replay import OrderKey, day_start, tournament_order
from ratings.models import Evaluation, Game, Tournament, TournamentEntry

from ._base import without_cyclic_gc
from ._changes import Changes, replay_reach
from ._estimate import background_estimate
from ._load import unsaved_tournament_event


@dataclass(frozen=True, slots=True)
class Reach:
    tournaments: list[int]  # the other tournaments the request re-evaluates, in evaluation order
    background: bool  # the save leaves the rest of the chain to a job (then ``tournaments`` is not all)


def stored_since(tournament_id: int | None) -> OrderKey | None:
    """The position before the tournament's stored evaluations (where they lie in the order, whatever its
    head says now), None if it has none."""
    if tournament_id is None:
        return None
    first = Evaluation.objects.filter(tournament_id=tournament_id).aggregate(d=Min("end_date"))["d"]
    return None if first is None else day_start(first)


def place_of(tournament: Tournament) -> OrderKey:
    """The tournament's place in the replay (as ``load_tournament_events`` builds it): a save that goes to
    the background evaluates up to here at once."""
    return tournament_order(tournament.end_date, tournament.code or None, tournament.pk)


def span_of(*, tournament: Tournament, stored: OrderKey | None) -> tuple[OrderKey, OrderKey]:
    """Where saving or deleting ``tournament`` (its head as saved) re-evaluates from, and its own place (a
    save that leaves its chain to the background evaluates up to there at once). From the earlier of its
    stored rows' place (``stored``: ``stored_since``, read before the save writes) and its end date. The
    saves, the delete and their previews all ask this."""
    since = day_start(tournament.end_date)
    return (since if stored is None else min(stored, since)), place_of(tournament)


@without_cyclic_gc
def reach_of_save(
    *, tournament: Tournament, entries: Sequence[TournamentEntry], games: Sequence[Game]
) -> Reach:
    """What ``tournament_save_results`` of ``tournament`` (a stored one; its head as it will be saved) with
    these entries and games (valid ones: ``games_validate``) re-evaluates in the request."""
    since, place = span_of(tournament=tournament, stored=stored_since(tournament.pk))
    changes = Changes(since=since, tournaments=[tournament.pk])
    count = len(entries) if tournament.rated else 0  # the entries the save's estimate will count
    background = background_estimate(changes, instead=(tournament.pk, count)) is not None
    until = place if background else None
    # Unrated once saved: no event, only its stored rows count (the save clears them).
    event = (
        unsaved_tournament_event(tournament=tournament, entries=entries, games=games)
        if tournament.rated
        else None
    )
    frontier = replay_reach(changes, until=until, unsaved={tournament.pk: event})
    return _reach(tournament, frontier.evaluated, frontier.left_after(until) if until is not None else None)


@without_cyclic_gc
def reach_of_delete(*, tournament: Tournament) -> Reach:
    """What ``tournament_delete`` of the stored ``tournament`` re-evaluates in the request."""
    since, place = span_of(tournament=tournament, stored=stored_since(tournament.pk))
    changes = Changes(since=since, removed_tournaments=[tournament.pk])
    background = background_estimate(changes) is not None
    until = place if background else None
    frontier = replay_reach(changes, until=until)
    return _reach(tournament, frontier.evaluated, frontier.left_after(until) if until is not None else None)


def _reach(tournament: Tournament, evaluated: dict[Any, Any], unfinished: set[int] | None) -> Reach:
    # As the views read the report: the players left dirty at ``until`` are what the job still has to do.
    return Reach([pk for pk in evaluated if pk != tournament.pk], bool(unfinished))
