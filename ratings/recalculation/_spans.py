"""Each player's rating spans (``RatingSpan``): his DWZ-Index and last evaluation as runs of days, derived
from the stored rows alone.

A day's value is the one after the player's last evaluation that set his DWZ or adjustment with a DWZ on or
before it, in the order of spec §9 (a day's adjustments before its tournaments; the undated start value
before everything); his last evaluation at a day is the end of the last evaluation on or before it that set
his DWZ (``Player.last_evaluated`` is today's). The spans are a function of the stored evaluations and
adjustments, so whatever rewrites a player's rows rewrites his spans (``rebuild``): the recalculation for
the players whose rows it changed, and a new player gets his one span without a DWZ.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterable, Iterator
from itertools import groupby
from typing import Any

from django.db.models.signals import post_save

from ratings import bulk
from ratings.models import Evaluation, Player, RatingAdjustment, RatingSpan

from ._base import chunks
from ._players import of_players

SCALE = 100_000
FIRST_DAY = datetime.date(1, 1, 1)  # the undated start value's day: before every dated event
OPEN = datetime.date(9999, 12, 31)  # the end of a span still running
SPAN_FIELDS = ("player_id", "valid_from", "valid_until", "value", "last_evaluated")
# Players per loading round of the whole rebuild: their rows fit in memory, one query each on PostgreSQL.
ROUND = 20_000

Span = tuple[datetime.date, datetime.date, int, datetime.date | None]  # from, until, value, last evaluated


def encode(dwz: int | None, index: int | None) -> int:
    """``dwz * 100000 + index + 1`` (no index: + 0); 0: no DWZ."""
    if dwz is None:
        return 0
    return dwz * SCALE + (index + 1 if index is not None else 0)


Event = tuple[datetime.date, int, Any, int | None, bool]


def spans_of(events: Iterable[Event], start: Span | None = None) -> list[Span]:
    """The spans after ``events``: ``(day, kind, order within the kind, value or None, evaluation)``, kind
    0 an adjustment, 1 an evaluation; any order. A value of None changes nothing but the last evaluation
    (an evaluation that set the rating without a DWZ). The spans cover every day from ``FIRST_DAY`` on, or
    from ``start``'s first day on, the span the events continue (each of them after its first day)."""
    first = start or (FIRST_DAY, OPEN, 0, None)
    spans: list[list[Any]] = [[first[0], OPEN, first[2], first[3]]]
    value, last = first[2], first[3]
    for day, day_events in groupby(sorted(events, key=lambda e: e[:3]), key=lambda e: e[0]):
        for _day, _kind, _order, new, evaluation in day_events:
            if new is not None:
                value = new
            if evaluation:
                last = day
        current = spans[-1]
        if (current[2], current[3]) == (value, last):
            continue
        if current[0] == day:  # the start value: the first span has it from the first day on
            current[2], current[3] = value, last
            continue
        current[1] = day
        spans.append([day, OPEN, value, last])
    return [(start, until, value, last) for start, until, value, last in spans]


class _Rows:
    """Which stored rows a rebuild reads: of ``players`` (None: of the players ``low`` to ``high``, by
    primary key: an index range, where a list of 20,000 keys made PostgreSQL probe each), on or after
    ``since`` (None: all)."""

    def __init__(
        self,
        players: Collection[int] | None,
        since: datetime.date | None,
        low: int = 0,
        high: int = 0,
    ) -> None:
        self.players, self.since, self.low, self.high = players, since, low, high

    def of(self, query: Any, day: str) -> Iterator[tuple[Any, ...]]:
        if self.since is not None:
            query = query.filter(**{f"{day}__gte": self.since})
        if self.players is None:
            return bulk.select_rows(query.filter(player_id__gte=self.low, player_id__lte=self.high))
        return (row for part in of_players(query, self.players) for row in bulk.select_rows(part))


def _events(rows: _Rows, players: Iterable[int], removed: Collection[int]) -> dict[int, list[Event]]:
    events: dict[int, list[Event]] = {pk: [] for pk in players}
    adjustments = (
        RatingAdjustment.objects.filter(dwz__isnull=False)
        .exclude(pk__in=list(removed))
        .order_by()
        .values_list("player_id", "date", "pk", "dwz", "index")
    )
    for player_id, day, pk, dwz, index in rows.of(adjustments, "date"):
        events[player_id].append((day or FIRST_DAY, 0, pk, encode(dwz, index), False))
    evaluations = (
        Evaluation.objects.setting_rating()
        .order_by()
        .values_list("player_id", "end_date", "code_suffix", "tournament_id", "dwz_new", "index_new")
    )
    for player_id, day, suffix, tid, dwz, index in rows.of(evaluations, "end_date"):
        value = encode(dwz, index) if dwz is not None else None
        events[player_id].append((day, 1, (suffix is None, suffix or "", tid), value, True))
    return events


def compute(players: Collection[int], *, removed_adjustments: Collection[int] = ()) -> dict[int, list[Span]]:
    """The spans of ``players`` from their stored rows (``removed_adjustments`` left out: they still exist
    while a recalculation runs)."""
    events = _events(_Rows(players, None), players, removed_adjustments)
    return {pk: spans_of(player_events) for pk, player_events in events.items()}


def _everyone() -> Iterator[tuple[list[int], _Rows]]:
    """Every player, in rounds of ``ROUND`` by primary key, with the rows of each round."""
    ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    for part in chunks(ids, ROUND):
        yield part, _Rows(None, None, part[0], part[-1])


def rebuild(
    *,
    players: Collection[int] | None,
    since: datetime.date | None = None,
    removed_adjustments: Collection[int] = (),
) -> int:
    """Rewrite the spans of ``players`` (None: of everyone) from their stored rows; returns the spans
    written.

    ``since``: the players' rows before that day are as they were (a recalculation replayed from it): their
    spans up to the day before stay, the one running then is continued from the rows on or after it (a late
    chain's players have a few rows each since)."""
    if players is None:
        bulk.delete_rows(RatingSpan.objects.all())
        written = 0
        for part, rows in _everyone():
            events = _events(rows, part, ())
            written += _write({pk: spans_of(player_events) for pk, player_events in events.items()})
        return written
    written = 0
    for chunk in chunks(sorted(players), ROUND):
        starts = _running(chunk, since) if since is not None and since > FIRST_DAY else {}
        whole = [pk for pk in chunk if pk not in starts]
        if whole:
            for stored in of_players(RatingSpan.objects.all(), whole):
                bulk.delete_rows(stored)
            events = _events(_Rows(whole, None), whole, removed_adjustments)
            written += _write({pk: spans_of(player_events) for pk, player_events in events.items()})
        if starts and since is not None:
            # His span at the day before ``since`` (every player has one at every day) and the later ones go.
            later = RatingSpan.objects.filter(valid_until__gte=since)
            for stored in of_players(later, list(starts)):
                bulk.delete_rows(stored)
            events = _events(_Rows(list(starts), since), starts, removed_adjustments)
            written += _write({pk: spans_of(events[pk], starts[pk]) for pk in starts})
    return written


def _running(players: list[int], since: datetime.date) -> dict[int, Span]:
    """The span of each of ``players`` at the day before ``since`` (a player without one has none here and
    is rebuilt whole)."""
    day = since - datetime.timedelta(days=1)
    query = (
        RatingSpan.objects.filter(valid_from__lte=day, valid_until__gt=day)
        .order_by()
        .values_list("player_id", *SPAN_FIELDS[1:])
    )
    return {row[0]: row[1:] for part in of_players(query, players) for row in bulk.select_rows(part)}


def _write(spans: dict[int, list[Span]]) -> int:
    rows = [(pk, *span) for pk, player_spans in spans.items() for span in player_spans]
    bulk.insert_rows(RatingSpan, SPAN_FIELDS, rows)
    return len(rows)


def differences(players: Collection[int] | None = None) -> list[int]:
    """The players whose stored spans differ from their rebuild (``ratings_verify``, the tests)."""
    found = []
    rounds = (
        _everyone()
        if players is None
        else ((part, _Rows(part, None)) for part in chunks(sorted(players), ROUND))
    )
    for part, rows in rounds:
        events = _events(rows, part, ())
        stored: dict[int, list[Span]] = {pk: [] for pk in part}
        query = RatingSpan.objects.order_by().values_list("player_id", *SPAN_FIELDS[1:])
        if players is None:
            spans = bulk.select_rows(query.filter(player_id__gte=part[0], player_id__lte=part[-1]))
        else:
            spans = (row for q in of_players(query, part) for row in bulk.select_rows(q))
        for player_id, *span in spans:
            stored[player_id].append(tuple(span))
        found += [pk for pk in part if sorted(stored[pk]) != spans_of(events[pk])]
    return found


def add_new(players: Collection[int]) -> None:
    """The one span of new players (no DWZ from the first day on); a player created by ``save()`` gets it
    from ``on_player_saved``, the bulk imports call this for theirs."""
    _write({pk: [(FIRST_DAY, OPEN, 0, None)] for pk in players})


def on_player_saved(
    sender: type[Player], instance: Player, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    # A fixture (``raw``) brings its players' spans along, as it brings their evaluations.
    if created and not raw:
        add_new([instance.pk])


def connect_signals() -> None:
    post_save.connect(on_player_saved, sender=Player, dispatch_uid="rating-span-new-player")
