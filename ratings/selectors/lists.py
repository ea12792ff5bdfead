"""Rating lists (Ranglisten): players with their current DWZ, primary club and rank.

The rank is the position by DWZ among the rows the caller filters: one more than the number of those rows with
a higher DWZ. A page asks ``ranks`` for its own rows (one grouped count over the filtered rows' DWZ, no window
over the whole list per request); ``ranked`` adds it as a window for small lists read whole (a club's).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Count, F, OrderBy, OuterRef, Q, QuerySet, Subquery, Value, Window
from django.db.models.functions import Coalesce, NullIf, Rank
from django.db.models.sql import Query
from django.db.models.sql.where import WhereNode

from ratings import bulk
from ratings.models import Club, Membership, Organisation, Player, RatingSpan
from ratings.models.player import PlayerQuerySet
from ratings.selectors import stichtag as at


def _primary_membership() -> QuerySet[Membership]:
    """The player's primary club: current memberships, A over P (formats.md §3.2)."""
    return Membership.objects.current().filter(player=OuterRef("pk")).primary_first()


def list_rows(*, stichtag: datetime.date | None = None, few: bool = False) -> PlayerQuerySet:
    """The list pages' rows, best DWZ first: the primary club only as a sort key (``club_sort``), since a
    correlated lookup per row runs for every row an OFFSET skips; ``primary_clubs`` adds the page's clubs.

    ``stichtag``: the DWZ-Index at that day instead (``as_of``; ``few``: of a club's players)."""
    if stichtag is not None:
        return as_of(stichtag=stichtag, few=few)
    return (
        Player.objects.alias(club_sort=Subquery(_primary_membership().values("club__name_sort")[:1]))
        .annotate(
            # Sort keys with unrated/unknown values below every real one, on SQLite and PostgreSQL alike.
            dwz_sort=Coalesce("dwz", Value(-1)),
            elo_sort=Coalesce("fide_elo", Value(-1)),
            last_sort=Coalesce("last_evaluated", Value(datetime.date(1900, 1, 1))),
        )
        # Equal DWZ share a rank; among them the higher index (the better established rating) first.
        .order_by(F("dwz").desc(nulls_last=True), F("index").desc(nulls_last=True), "name_sort", "pk")
    )


class StichtagQuerySet(PlayerQuerySet):
    """Rows of ``as_of``: each player joined with his rating span at the Stichtag. Every player has exactly
    one span at every day, so the rows are the players the other filters leave, and ``count`` leaves the
    join out where nothing but the day's condition touches the spans (the whole federation's count joined
    its 100,000 spans)."""

    def count(self) -> int:
        if self._result_cache is not None:
            return len(self._result_cache)
        query = _without_spans(self.query)
        if query is None:
            floor = _value_floor_alone(self.query)
            if floor is not None:  # the whole federation's top: its spans from the floor up
                return RatingSpan.objects.filter(at.alive(_day(self)), value__gte=floor).count()
            return super().count()
        if _federation(self.query):
            # The federation's rated players at the day: the players less those whose span has no DWZ (the
            # value index; the players' NOT IN read every player).
            unrated = RatingSpan.objects.filter(at.alive(_day(self)), value=0)
            _drop_rated(query)
            return query.get_count(using=self.db) - unrated.count()
        return query.get_count(using=self.db)


def _aliases(node: Any) -> set[str]:
    """The table aliases the columns of a condition or expression name (not those inside a subquery)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(alias := getattr(item, "alias", None), str):
            found.add(alias)
        if isinstance(item, WhereNode):
            stack += item.children
        elif hasattr(item, "get_source_expressions"):
            stack += [e for e in item.get_source_expressions() if e is not None]
    return found


def _day_condition(node: Any) -> str:
    """The span column a condition of ``as_of``'s day compares (``valid_from``, ``valid_until``), else ""."""
    target = getattr(getattr(node, "lhs", None), "target", None)
    return str(getattr(target, "name", ""))


def _spans_alias(query: Query) -> str | None:
    """The alias of the spans joined by ``as_of`` (None: not joined, or joined more than once)."""
    table = RatingSpan._meta.db_table
    joined = [alias for alias, join in query.alias_map.items() if join.table_name == table]
    return joined[0] if len(joined) == 1 else None


def _spans_by_day_alone(query: Query) -> str | None:
    """The alias of the spans if ``query`` joins them for the day alone: no filter on the day's value (as
    ``top``'s), no shape that needs the join (None otherwise)."""
    if query.distinct or query.combinator or query.group_by is not None:
        return None
    alias = _spans_alias(query)
    if alias is None or query.where.connector != "AND" or query.where.negated:
        return None
    on_spans = [child for child in query.where.children if alias in _aliases(child)]
    return alias if sorted(map(_day_condition, on_spans)) == ["valid_from", "valid_until"] else None


def _value_floor_alone(query: Query) -> int | None:
    """The floor if ``query`` keeps the rows whose value at the day is at least a number (``top`` of the
    whole federation) and nothing else; else None."""
    alias = _spans_alias(query)
    if alias is None or query.distinct or query.combinator or query.group_by is not None:
        return None
    if query.where.connector != "AND" or query.where.negated or len(query.where.children) != 3:
        return None
    days = [child for child in query.where.children if _day_condition(child) in ("valid_from", "valid_until")]
    rest = [child for child in query.where.children if child not in days]
    if len(days) != 2 or len(rest) != 1 or alias not in _aliases(days[0]) or alias not in _aliases(days[1]):
        return None
    (floor,) = rest
    column = getattr(getattr(floor, "lhs", None), "target", None)
    if getattr(floor, "lookup_name", "") != "gte" or getattr(column, "name", "") != "value":
        return None
    rhs = getattr(floor, "rhs", None)
    return rhs if isinstance(rhs, int) and alias in _aliases(floor) else None


def _without_spans(query: Query, *, page: bool = False) -> Query | None:
    """``query`` without the join of the spans and their day condition (None: a filter or a shape that needs
    them): for a count, or (``page``) for the keys of a page in an order that does not read the spans."""
    alias = _spans_by_day_alone(query)
    if alias is None or (query.is_sliced and not page) or (page and _orders_by_spans(query, alias)):
        return None
    stripped = query.clone()
    if not page:
        stripped.clear_ordering(force=True)
    stripped.where.children = [child for child in stripped.where.children if alias not in _aliases(child)]
    for name in [name for name, expr in stripped.annotations.items() if alias in _aliases(expr)]:
        del stripped.annotations[name]
    if stripped.annotation_select_mask is not None:
        stripped.set_annotation_mask(set(stripped.annotation_select_mask) & set(stripped.annotations))
    stripped.alias_refcount[alias] = 0
    return stripped


def _order(query: Query) -> list[tuple[str, bool]] | None:
    """The query's order as (name, descending) pairs (None: an item that is neither a name nor an ``F``)."""
    order: list[tuple[str, bool]] = []
    for item in query.order_by:
        if isinstance(item, str) and item != "?":
            order.append((item.lstrip("-"), item.startswith("-")))
        elif isinstance(item, OrderBy) and isinstance(item.expression, F):
            order.append((item.expression.name, item.descending))  # type: ignore[attr-defined]
        else:
            return None
    return order


def _orders_by_spans(query: Query, alias: str) -> bool:
    order = _order(query)
    if order is None:
        return True
    for name, _descending in order:
        expression = query.annotations.get(name)
        if name.startswith("rating_spans") or (expression is not None and alias in _aliases(expression)):
            return True
    return False


def _federation(query: Query) -> bool | None:
    """What ``query`` (of ``as_of``) lists: the whole federation at its day (False), its players rated at
    the day (True, ``rated``), or something else (None: another filter, or a shape that needs the join)."""
    alias = _spans_by_day_alone(query)
    if alias is None:
        return None
    others = [child for child in query.where.children if alias not in _aliases(child)]
    if not others:
        return False
    return True if len(others) == 1 and _is_rated_filter(others[0]) else None


def _drop_rated(query: Query) -> None:
    """Take ``rated``'s condition out of ``query`` (a clone of the caller's)."""
    query.where.children = [child for child in query.where.children if not _is_rated_filter(child)]


def _is_rated_filter(node: Any) -> bool:
    """``rated``'s condition at a Stichtag: NOT pk IN (the players whose span at the day has no DWZ)."""
    if not isinstance(node, WhereNode) or not node.negated or len(node.children) != 1:
        return False
    inner = node.children[0]
    spans = getattr(inner, "rhs", None)
    return (
        isinstance(spans, Query) and spans.model is RatingSpan and getattr(inner, "lookup_name", "") == "in"
    )


def as_of(*, stichtag: datetime.date, few: bool = False) -> StichtagQuerySet:
    """``list_rows`` at ``stichtag``: each player's span at that day (``selectors.stichtag``) gives
    ``stichtag_value`` (DWZ and index), ``stichtag_last`` (the last evaluation) and the order, read from the
    spans' value index until a page is full; ``stichtag_rows`` puts them on the page's rows (their stored
    fields stay today's).

    ``few``: the caller lists a few players (a club's): each one's span is looked up by his key instead. The
    join made PostgreSQL walk the federation's spans in value order for the 1,235 members of a club (217 ms
    for its first page at 100,000 players, against 28 ms today)."""
    if few:
        span = RatingSpan.objects.filter(at.alive(stichtag), player=OuterRef("pk")).order_by()
        rows = StichtagQuerySet(Player).annotate(
            **{at.SPAN_VALUE: Coalesce(Subquery(span.values("value")[:1]), Value(0))}
        )
        last: Any = Subquery(span.values("last_evaluated")[:1])
    else:
        spans = "rating_spans__"
        rows = (
            StichtagQuerySet(Player)
            .filter(at.alive(stichtag, prefix=spans))
            .annotate(**{at.SPAN_VALUE: F(f"{spans}value")})
        )
        last = F(f"{spans}last_evaluated")
    rows.query.stichtag = stichtag  # type: ignore[attr-defined]
    return (
        rows.alias(club_sort=Subquery(_primary_membership().values("club__name")[:1]))
        .annotate(**{at.VALUE: NullIf(F(at.SPAN_VALUE), Value(0)), at.LAST: last})
        .annotate(
            dwz_sort=Coalesce(at.dwz_of(F(at.VALUE)), Value(-1)),
            elo_sort=Coalesce("fide_elo", Value(-1)),
            last_sort=Coalesce(F(at.LAST), Value(datetime.date(1900, 1, 1))),
        )
        .order_by(F(at.SPAN_VALUE).desc(), "name_sort", "pk")
    )


def _day(queryset: QuerySet[Player]) -> datetime.date:
    """The Stichtag of a queryset of ``as_of`` (kept on its query, which every filter clones)."""
    return queryset.query.stichtag  # type: ignore[attr-defined]


def stichtag_of(queryset: QuerySet[Player]) -> bool:
    """True if ``queryset`` lists the values at a Stichtag (``as_of``)."""
    return at.VALUE in queryset.query.annotations


def stichtag_rows(records: Iterable[Player], *, stichtag: datetime.date) -> None:
    """Set ``dwz``, ``index`` and ``last_evaluated`` of ``records`` (rows of ``as_of``) to their values at
    ``stichtag`` (they came with the rows). Display only, never saved."""
    for record in records:
        record.dwz, record.index = at.split(getattr(record, at.VALUE))
        record.last_evaluated = getattr(record, at.LAST)


def stichtag_export_rows(queryset: QuerySet[Player], fields: list[str]) -> Iterator[tuple[Any, ...]]:
    """The rows of ``queryset`` (``as_of``) as ``fields`` and the day's value and last evaluation, for an
    export of the whole list: read in one pass, not through a server-side cursor, for which PostgreSQL plans
    to return the first rows soon (a walk of every span in value order, 8 s at 100,000 players, against a
    hash join and a sort, 0.5 s)."""
    return bulk.select_rows(queryset.values_list(*fields, at.VALUE, at.LAST))


STICHTAG_VALUE = at.VALUE
STICHTAG_LAST = at.LAST
split_stichtag_value = at.split


def rated(queryset: PlayerQuerySet) -> PlayerQuerySet:
    """The rated rows of ``queryset``: today, or at its Stichtag."""
    if stichtag_of(queryset):
        # Not one of the few players whose span at the day has no DWZ (from the value index: a filter on
        # the joined value would keep the join in the count of 100,000 players).
        unrated = RatingSpan.objects.filter(at.alive(_day(queryset)), value=0).values("player_id")
        return queryset.exclude(pk__in=unrated)
    return queryset.rated()


# Orders of a list at a Stichtag whose first key is the span's value or the DWZ in it: a page in them is a
# band of values, found from the value index alone (``_band``).
_VALUE_KEYS = {at.SPAN_VALUE: 1, "dwz_sort": at.SCALE}


def page_records(rows: QuerySet[Player]) -> list[Player]:
    """The records of one page (``rows``: a slice of a list), at a Stichtag in two steps: which players the
    page holds, read with no more of the spans than its order and filters need, then their rows. The join
    read as one query fetched a player for every row an OFFSET skips (page 50: 2,500) and chose a hash join
    over every span for an order by name or a filtered list.

    - The whole federation (or its rated players) in the order of the value or the DWZ: the values of the
      page's positions from the value index alone, then the rows of that band of values (``_band``).
    - An order and filters that need no span (by name, by club): the page's players from the players alone.
    - Else: the page's keys from the joined query, then their rows."""
    query = rows.query
    alias = _spans_alias(query)
    if not stichtag_of(rows) or not query.is_sliced or query.high_mark is None or alias is None:
        return list(rows)
    band = _band(rows)
    if band is None:
        band = _band_by_last(rows)
    if band is not None:
        return band
    stripped = _without_spans(query, page=True)
    if stripped is not None:
        keys: QuerySet[Player] = QuerySet(Player, query=stripped)
    else:
        keys = _without_rated(_unsliced(rows))[query.low_mark : query.high_mark]
    return _records(rows, list(keys.values_list("pk", flat=True)))


def _records(rows: QuerySet[Player], ids: list[int]) -> list[Player]:
    """The rows of ``rows`` (a slice) of the players ``ids``, in that order."""
    found = {record.pk: record for record in _unsliced(rows).filter(pk__in=ids).order_by()}
    return [found[pk] for pk in ids if pk in found]


def page_ranks(rows: QuerySet[Player], records: list[Player]) -> dict[int, int] | None:
    """The ranks of a page's DWZ (``rows``: a slice of a list at a Stichtag in descending order of value or
    DWZ; ``records``: its rows, from ``page_records``) from its place in the list: a DWZ that begins on the
    page ranks one after the rows before it; the page's first DWZ after the rows before the page less those
    of that DWZ, read from the list's rows of that DWZ alone. None: another order (``ranks`` counts).

    Counted as ``ranks`` does, a filtered list's count of the rows above the page joined the day's spans,
    which PostgreSQL misjudged and hash-joined with every player (page 20 of the women's list: 47 ms)."""
    query = rows.query
    order = _order(query)
    if not stichtag_of(rows) or not order or order[0] not in _DESCENDING_VALUE or not records:
        return None
    low = query.low_mark
    first = at.split(getattr(records[0], at.VALUE))[0]
    if first is None:
        return {}
    same = _without_rated(_unsliced(rows)).filter(
        **{f"{at.SPAN_VALUE}__gte": first * at.SCALE, f"{at.SPAN_VALUE}__lt": (first + 1) * at.SCALE}
    )
    keys = list(same.values_list("pk", flat=True))
    if records[0].pk not in keys:
        return None
    out = {first: 1 + low - keys.index(records[0].pk)}
    for place, record in enumerate(records):
        dwz = at.split(getattr(record, at.VALUE))[0]
        if dwz is not None and dwz not in out:
            out[dwz] = 1 + low + place
    return out


# The descending orders of value or DWZ (the list's own, and its DWZ column's).
_DESCENDING_VALUE = {(at.SPAN_VALUE, True), ("dwz_sort", True)}


def _unsliced(rows: QuerySet[Player]) -> QuerySet[Player]:
    whole = rows.all()
    whole.query.clear_limits()
    return whole


def _band(rows: QuerySet[Player]) -> list[Player] | None:
    """The page of ``rows`` (the whole federation or its rated players) from its band of values: the values
    at the page's positions come from the day's spans alone (the value index, no player); the rows with a
    value in that band, in the list's order, after the rows above it (counted among those values), are the
    page. None: another order, or a filter."""
    query = rows.query
    order = _order(query)
    if not order or order[0][0] not in _VALUE_KEYS or query.high_mark is None:
        return None
    filters = _filters(_unsliced(rows))
    if filters is None or filters[1] is not None:
        return None
    rated = filters[0]
    name, descending = order[0]
    step = _VALUE_KEYS[name]
    low, high = query.low_mark, query.high_mark
    spans = _spans_at(_day(rows), rated=rated).order_by("-value" if descending else "value")
    # The driver's rows (a deep page reads tens of thousands: Django's iterator cost 1 µs a row).
    values = [value for (value,) in bulk.select_rows(spans.values_list("value")[:high])]
    if len(values) <= low:
        return []

    def key(value: int) -> int:  # the order's first key: the value, or the DWZ in it (-1: no DWZ)
        return value // step if value else -1

    first, last = key(values[low]), key(values[-1])
    above = low  # the rows before the page less those of its first key (they sort just before it)
    while above and key(values[above - 1]) == first:
        above -= 1
    top, bottom = (first, last) if descending else (last, first)
    least = bottom * step if bottom >= 0 else 0
    most = (top + 1) * step - 1 if top >= 0 else 0
    whole = _without_rated(_unsliced(rows))
    banded = whole.filter(**{f"{at.SPAN_VALUE}__gte": least, f"{at.SPAN_VALUE}__lte": most})
    return list(banded[low - above : high - above])


def _band_by_last(rows: QuerySet[Player]) -> list[Player] | None:
    """``_band`` for the order by the last evaluation: the dates at the page's positions from the day's
    spans alone, on the index of the last evaluations (a span alive at the day was last evaluated on or
    before it: latest first, read backwards from the day; the spans never evaluated are the earliest); then
    the rows of that band of dates. None: another order, or a filter."""
    query = rows.query
    order = _order(query)
    if not order or order[0][0] != "last_sort" or query.high_mark is None:
        return None
    filters = _filters(_unsliced(rows))
    if filters is None or filters[1] is not None:
        return None
    rated, latest_first = filters[0], order[0][1]
    low, high = query.low_mark, query.high_mark
    day = _day(rows)
    spans = _spans_at(day, rated=rated)
    dated = spans.filter(last_evaluated__lte=day).order_by(
        "-last_evaluated" if latest_first else "last_evaluated"
    )
    never = spans.filter(last_evaluated__isnull=True).order_by()
    dates: list[datetime.date | None] = []
    for part in (dated, never) if latest_first else (never, dated):
        if len(dates) < high:
            dates += [
                date for (date,) in bulk.select_rows(part.values_list("last_evaluated")[: high - len(dates)])
            ]
    if len(dates) <= low:
        return []
    first, last = dates[low], dates[-1]
    above = low
    while above and dates[above - 1] == first:
        above -= 1
    rest = order[1:]
    if first == last and all(name == "pk" or name in _PLAYER_COLUMNS for name, _descending in rest):
        # One date, or none (the players never evaluated: a fifth of the federation): the band's players
        # in the rest of the order from the players' own indexes, each looked up among the band's spans.
        same = spans.filter(last_evaluated=first) if first else spans.filter(last_evaluated__isnull=True)
        keys: QuerySet[Player] = QuerySet(Player).filter(pk__in=same.values("player_id"))
        keys = keys.order_by(*[f"-{name}" if descending else name for name, descending in rest])
        return _records(rows, list(keys.values_list("pk", flat=True)[low - above : high - above]))
    earliest, latest = (last, first) if latest_first else (first, last)
    whole = _without_rated(_unsliced(rows))
    if earliest is not None:
        band = Q(**{f"{at.LAST}__gte": earliest, f"{at.LAST}__lte": latest})
    else:
        band = Q(**{f"{at.LAST}__isnull": True})
        if latest is not None:
            band |= Q(**{f"{at.LAST}__lte": latest})
    return list(whole.filter(band)[low - above : high - above])


# The players' own columns a list orders by after its first key.
_PLAYER_COLUMNS = {"name_sort", "publication_objection", "surname", "first_name", "birth_year"}


def _spans_at(day: datetime.date, *, rated: bool) -> QuerySet[RatingSpan]:
    spans = RatingSpan.objects.filter(at.alive(day))
    return spans.filter(value__gt=0) if rated else spans


def _filters(rows: QuerySet[Player]) -> tuple[bool, QuerySet[Player] | None] | None:
    """The filters of a list at a Stichtag (unsliced) apart from the day: whether ``rated`` is one of them,
    and the players the others keep (None: no other filter). None: a filter on the day's value (``top``)."""
    query = rows.query
    alias = _spans_by_day_alone(query)
    if alias is None:
        return None
    others = [child for child in query.where.children if alias not in _aliases(child)]
    rated = any(_is_rated_filter(child) for child in others)
    if all(_is_rated_filter(child) for child in others):
        return rated, None
    stripped = _without_spans(query)
    if stripped is None:
        return None
    _drop_rated(stripped)
    return rated, QuerySet(Player, query=stripped)


# How many spans above a page's lowest value ``ranks`` reads to count those of a filtered list's players
# itself (the joined count misjudged how many spans a day holds and hash-joined them with every player).
RANK_SPANS = 4_000
_KEYS_PER_QUERY = 2_000


def _without_rated(rows: QuerySet[Player]) -> QuerySet[Player]:
    """``rows`` (unsliced, joined) with ``rated``'s NOT IN as a condition on the joined span's value: with
    other filters, PostgreSQL hash-joined the day's spans with every player for it (a rated U20 list: 143
    against 8 ms)."""
    if not any(_is_rated_filter(child) for child in rows.query.where.children):
        return rows
    rows = rows.all()
    _drop_rated(rows.query)
    return rows.filter(**{f"{at.SPAN_VALUE}__gt": 0})


def rating_list(*, stichtag: datetime.date | None = None, few: bool = False) -> PlayerQuerySet:
    """``list_rows`` with their primary club (name, ZPS, member number) on every row (no rank: ``ranks``)."""
    primary = _primary_membership()
    return list_rows(stichtag=stichtag, few=few).annotate(
        club_name=Subquery(primary.values("club__name")[:1]),
        club_zps=Subquery(primary.values("club__zps")[:1]),
        member_number=Subquery(primary.values("member_number")[:1]),
    )


def primary_clubs(*, player_ids: Iterable[int] | None) -> dict[int, tuple[str, str, str]]:
    """Each player's primary club as (name, ZPS, member number), of ``player_ids`` or all (one query).

    The primary of a player's current memberships is chosen here, in ``primary_first``'s order (status,
    then the oldest): sorted by the database, the whole federation's 100,000 memberships spilled to disk."""
    memberships = Membership.objects.current().order_by()
    if player_ids is not None:
        memberships = memberships.filter(player_id__in=list(player_ids))
    rows = memberships.values_list(
        "player_id", "status", "valid_from", "pk", "club__name", "club__zps", "member_number"
    )
    best: dict[int, tuple] = {}
    for player_id, status, valid_from, pk, *club in rows:
        key = (status is None, status or "", valid_from is not None, valid_from or datetime.date.min, pk)
        known = best.get(player_id)
        if known is None or key < known[0]:
            best[player_id] = (key, tuple(club))
    return {player_id: club for player_id, (_key, club) in best.items()}


def ranked(queryset: QuerySet[Player]) -> QuerySet[Player]:
    """``queryset`` with ``rank`` (by DWZ among its rows) as a window: for lists that are read whole."""
    key = at.dwz_of(F(at.VALUE)) if stichtag_of(queryset) else F("dwz")
    return queryset.annotate(rank=Window(Rank(), order_by=key.desc(nulls_last=True)))


def ranks(queryset: QuerySet[Player], *, dwz_values: Iterable[int | None] | None = None) -> dict[int, int]:
    """The rank by DWZ among the rows of ``queryset`` of each rated DWZ in ``dwz_values`` (all when None):
    one more than the number of rows with a higher DWZ, so equal DWZ share a rank (one query, of the rows
    from the lowest wanted DWZ up: from the index in DWZ order). At a Stichtag the whole federation's are
    counted from its spans alone, a filtered page's from the spans above its lowest DWZ whose players the
    filters keep (up to ``RANK_SPANS``), else joined."""
    wanted = None if dwz_values is None else {v for v in dwz_values if v is not None}
    if wanted is not None and not wanted:
        return {}
    rows = queryset.order_by()
    dwz: Any
    if stichtag_of(queryset):
        floor = at.SCALE * min(wanted) if wanted else 1
        filters = _filters(queryset)
        spans = _spans_at(_day(queryset), rated=False).filter(value__gte=floor)
        if filters is not None and filters[1] is None:
            # The whole federation, or its rated players (the same ranks: the unrated have none): the spans
            # alone.
            rows = spans.order_by()  # type: ignore[assignment]
            dwz = at.dwz_of(F("value"))
        else:
            if filters is not None and filters[1] is not None and wanted is not None:  # a page's ranks
                above = list(spans.values_list("player_id", "value")[: RANK_SPANS + 1])
                if len(above) <= RANK_SPANS:
                    return _ranks_among(above, filters[1], wanted)
            rows = _without_rated(rows).filter(**{f"{at.SPAN_VALUE}__gte": floor})
            dwz = at.dwz_of(F(at.SPAN_VALUE))
    else:
        rows = rows.filter(dwz__isnull=False)
        if wanted is not None:
            rows = rows.filter(dwz__gte=min(wanted))
        dwz = F("dwz")
    counts = rows.annotate(rank_dwz=dwz).values("rank_dwz").annotate(n=Count("*")).order_by("-rank_dwz")
    return _ranks_from_counts(counts.values_list("rank_dwz", "n"), wanted)


def _ranks_among(spans: list[tuple[int, int]], players: QuerySet[Player], wanted: set[int]) -> dict[int, int]:
    """The ranks of ``wanted`` among the (player, value) ``spans`` (all those above the page's lowest DWZ)
    whose players ``players`` keeps."""
    ids = [player for player, _value in spans]
    kept: set[int] = set()
    for start in range(0, len(ids), _KEYS_PER_QUERY):
        kept.update(players.filter(pk__in=ids[start : start + _KEYS_PER_QUERY]).values_list("pk", flat=True))
    counts = Counter(value // at.SCALE for player, value in spans if player in kept)
    return _ranks_from_counts(sorted(counts.items(), reverse=True), wanted)


def _ranks_from_counts(counts: Iterable[tuple[int, int]], wanted: set[int] | None) -> dict[int, int]:
    """Each DWZ's rank from the number of rows of each DWZ, highest first."""
    out: dict[int, int] = {}
    above = 0
    for rank_dwz, n in counts:
        out[rank_dwz] = above + 1
        above += n
    return out if wanted is None else {v: out[v] for v in wanted if v in out}


def top(queryset: QuerySet[Player], *, n: int) -> QuerySet[Player]:
    """The rows of ``queryset`` ranked ``n`` or better (all who tie with the n-th; unrated rows share the
    rank after the last rated one). ``queryset``: rows of ``list_rows`` (``dwz_sort`` is its annotation, which
    django-stubs cannot see here)."""
    if stichtag_of(queryset):
        # The n-th row's DWZ as the least value of that DWZ (0, no DWZ: every row), read now: a number, so
        # that the whole federation's top is counted from its spans alone (``StichtagQuerySet.count``).
        value = F(at.SPAN_VALUE)
        ordered = queryset.order_by(value.desc())
        floor = ordered.annotate(floor=at.dwz_of(value) * Value(at.SCALE)).values_list("floor", flat=True)
        return queryset.filter(**{f"{at.SPAN_VALUE}__gte": next(iter(floor[n - 1 : n]), -1)})
    by_dwz = queryset.order_by(F("dwz").desc(nulls_last=True))
    border = by_dwz.values("dwz_sort")[n - 1 : n]  # type: ignore[misc]
    return queryset.filter(dwz_sort__gte=Coalesce(Subquery(border), Value(-1)))  # type: ignore[misc]


def club_members(*, club: Club, stichtag: datetime.date | None = None) -> QuerySet[Player]:
    """The rating list of a club's current members, with their member number in this club."""
    number = Membership.objects.current().filter(player=OuterRef("pk"), club=club).values("member_number")[:1]
    rows = list_rows(stichtag=stichtag, few=True).in_club(club)
    return rows.annotate(club_member_number=Subquery(number))


def organisation_members(
    *, organisation: Organisation, stichtag: datetime.date | None = None
) -> QuerySet[Player]:
    """The rating list of the current members of the clubs of ``organisation`` and below."""
    return list_rows(stichtag=stichtag).in_organisation(organisation)
