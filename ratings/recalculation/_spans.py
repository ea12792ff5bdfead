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
from operator import itemgetter
from typing import Any

from django.db.models import F, Value
from django.db.models.signals import post_save

from ratings import bulk
from ratings.models import Evaluation, Player, RatingAdjustment, RatingSpan
from ratings.models.span import SCALE

from ._base import chunks
from ._players import of_players

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
    0 an adjustment, 1 an evaluation; any order (a kind's orders are unique, so they sort as tuples). A
    value of None changes nothing but the last evaluation (an evaluation that set the rating without a
    DWZ). The spans cover every day from ``FIRST_DAY`` on, or from ``start``'s first day on, the span the
    events continue (each of them after its first day)."""
    span_from, _until, value, last = start or (FIRST_DAY, OPEN, 0, None)
    span: list[Any] = [span_from, value, last]  # the span running: its first day, value and last evaluation
    spans: list[Span] = []

    def after(day: datetime.date) -> None:  # the values after ``day``'s events
        if (value, last) == (span[1], span[2]):
            return
        if span[0] != day:
            spans.append((span[0], day, span[1], span[2]))
        span[:] = [day, value, last]  # the first day's start value replaces the first span's none

    day = None
    for event_day, _kind, _order, new, evaluation in sorted(events):
        if event_day != day:
            if day is not None:
                after(day)
            day = event_day
        if new is not None:
            value = new
        if evaluation:
            last = event_day
    if day is not None:
        after(day)
    spans.append((span[0], OPEN, span[1], span[2]))
    return spans


class _Rows:
    """Which stored rows a rebuild reads: of ``players``, on or after ``since`` (None: all)."""

    def __init__(self, players: Collection[int], since: datetime.date | None) -> None:
        self.players, self.since = players, since

    def of(self, query: Any, day: str) -> Iterator[tuple[Any, ...]]:
        if self.since is not None:
            query = query.filter(**{f"{day}__gte": self.since})
        return (row for part in of_players(query, self.players) for row in bulk.select_rows(part))


def _adjustment_query(removed: Collection[int]) -> Any:
    return (
        RatingAdjustment.objects.filter(dwz__isnull=False)
        .exclude(pk__in=list(removed))
        .order_by()
        .values_list("player_id", "date", "pk", "dwz", "index")
    )


def _evaluation_query() -> Any:
    return (
        Evaluation.objects.setting_rating()
        .order_by()
        .values_list("player_id", "end_date", "code_suffix", "tournament_id", "dwz_new", "index_new")
    )


def _adjustment_event(row: tuple[Any, ...]) -> Event:
    _player, day, pk, dwz, index = row
    return (day or FIRST_DAY, 0, pk, encode(dwz, index), False)


def _evaluation_event(row: tuple[Any, ...]) -> Event:
    _player, day, suffix, tid, dwz, index = row
    return (
        day,
        1,
        (suffix is None, suffix or "", tid),
        encode(dwz, index) if dwz is not None else None,
        True,
    )


def _events(rows: _Rows, players: Iterable[int], removed: Collection[int]) -> dict[int, list[Event]]:
    events: dict[int, list[Event]] = {pk: [] for pk in players}
    for row in rows.of(_adjustment_query(removed), "date"):
        events[row[0]].append(_adjustment_event(row))
    for row in rows.of(_evaluation_query(), "end_date"):
        events[row[0]].append(_evaluation_event(row))
    return events


# Every row sorted by player: as an expression, so that PostgreSQL reads the table and sorts it (2 s for the
# 2 M evaluations) instead of following the index on the player, one table page a row (8.5 s).
_BY_PLAYER = (F("player_id") + Value(0)).asc()


def _everyone() -> Iterator[tuple[int, list[Event]]]:
    """Every player's events, in the order of their keys: every row read once, sorted by player."""
    bulk.tune_window_reads(work_mem_mb=64)
    streams = [
        (groupby(bulk.select_rows(query.order_by(_BY_PLAYER)), key=itemgetter(0)), event)
        for query, event in (
            (_adjustment_query(()), _adjustment_event),
            (_evaluation_query(), _evaluation_event),
        )
    ]
    heads = [next(stream, None) for stream, _event in streams]
    for pk in Player.objects.order_by("pk").values_list("pk", flat=True).iterator(chunk_size=10_000):
        events: list[Event] = []
        for i, (stream, event) in enumerate(streams):
            head = heads[i]
            if head is not None and head[0] == pk:  # every row's player is a player (a foreign key)
                events += map(event, head[1])
                heads[i] = next(stream, None)
        yield pk, events


def compute(players: Collection[int], *, removed_adjustments: Collection[int] = ()) -> dict[int, list[Span]]:
    """The spans of ``players`` from their stored rows (``removed_adjustments`` left out: they still exist
    while a recalculation runs)."""
    events = _events(_Rows(players, None), players, removed_adjustments)
    return {pk: spans_of(player_events) for pk, player_events in events.items()}


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
        for part in chunks(_everyone(), ROUND):
            written += _write({pk: spans_of(events) for pk, events in part})
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
    stored_query = RatingSpan.objects.order_by().values_list("player_id", *SPAN_FIELDS[1:])
    if players is None:
        stored = groupby(bulk.select_rows(stored_query.order_by(_BY_PLAYER)), key=itemgetter(0))
        head = next(stored, None)
        found = []
        for pk, events in _everyone():
            have: list[Span] = []
            while head is not None and head[0] < pk:  # spans of a player no longer there
                found.append(head[0])
                head = next(stored, None)
            if head is not None and head[0] == pk:
                have = [row[1:] for row in head[1]]
                head = next(stored, None)
            if sorted(have) != spans_of(events):
                found.append(pk)
        return found + [player for player, _rows in ([head] if head is not None else []) + list(stored)]
    found = []
    for part in chunks(sorted(players), ROUND):
        of_part = _events(_Rows(part, None), part, ())
        by_player: dict[int, list[Span]] = {pk: [] for pk in part}
        for row in (row for q in of_players(stored_query, part) for row in bulk.select_rows(q)):
            by_player[row[0]].append(row[1:])
        found += [pk for pk in part if sorted(by_player[pk]) != spans_of(of_part[pk])]
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
