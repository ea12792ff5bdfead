"""Rating lists (Ranglisten): players with their current DWZ, primary club and rank.

The rank is the position by DWZ among the rows the caller filters: one more than the number of those rows with
a higher DWZ. A page asks ``ranks`` for its own rows (one grouped count over the filtered rows' DWZ, no window
over the whole list per request); ``ranked`` adds it as a window for small lists read whole (a club's).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import Count, F, OuterRef, QuerySet, Subquery, Value, Window
from django.db.models.functions import Coalesce, Rank

from ratings.models import Club, Evaluation, Membership, Organisation, Player
from ratings.models.player import PlayerQuerySet
from ratings.selectors import stichtag as at


def _primary_membership() -> QuerySet[Membership]:
    """The player's primary club: current memberships, A over P (formats.md §3.2)."""
    return Membership.objects.current().filter(player=OuterRef("pk")).primary_first()


def list_rows(*, stichtag: datetime.date | None = None) -> PlayerQuerySet:
    """The list pages' rows, best DWZ first: the primary club only as a sort key (``club_sort``), since a
    correlated lookup per row runs for every row an OFFSET skips; ``primary_clubs`` adds the page's clubs.

    ``stichtag``: the DWZ-Index at that day instead (``as_of``)."""
    if stichtag is not None:
        return as_of(stichtag=stichtag)
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


def as_of(*, stichtag: datetime.date) -> PlayerQuerySet:
    """``list_rows`` at ``stichtag``: ``stichtag_value`` (DWZ and index at that day, ``selectors.stichtag``)
    orders the rows and gives ``dwz_sort`` and ``last_sort``; the page's rows get their DWZ, index and last
    evaluation at the day from ``stichtag_rows`` (their stored fields stay today's)."""
    value = F(at.VALUE)
    last = (
        Evaluation.objects.setting_rating()
        .filter(player=OuterRef("pk"), end_date__lte=stichtag)
        .order_by("-end_date")
        .values("end_date")[:1]
    )
    return (
        Player.objects.alias(club_sort=Subquery(_primary_membership().values("club__name")[:1]))
        .annotate(**{at.VALUE: at.StichtagValue(stichtag)})
        .annotate(
            dwz_sort=Coalesce(at.dwz_of(value), Value(-1)),
            elo_sort=Coalesce("fide_elo", Value(-1)),
            last_sort=Coalesce(Subquery(last), Value(datetime.date(1900, 1, 1))),
        )
        .order_by(value.desc(nulls_last=True), "name_sort", "pk")
    )


def stichtag_of(queryset: QuerySet[Player]) -> bool:
    """True if ``queryset`` lists the values at a Stichtag (``as_of``)."""
    return at.VALUE in queryset.query.annotations


def stichtag_rows(records: Iterable[Player], *, stichtag: datetime.date) -> None:
    """Set ``dwz``, ``index`` and ``last_evaluated`` of ``records`` (rows of ``as_of``) to their values at
    ``stichtag`` (one query, the last evaluations; the values came with the rows). Display only, never
    saved."""
    records = list(records)
    last = at.last_evaluated(player_ids=[r.pk for r in records], day=stichtag)
    for record in records:
        record.dwz, record.index = at.split(getattr(record, at.VALUE))
        record.last_evaluated = last.get(record.pk)


STICHTAG_VALUE = at.VALUE
split_stichtag_value = at.split


def stichtag_last_evaluated(*, stichtag: datetime.date) -> dict[int, datetime.date]:
    """Every player's last evaluation that set his DWZ on or before ``stichtag`` (an export's, one query)."""
    return at.last_evaluated(player_ids=None, day=stichtag)


def rated(queryset: PlayerQuerySet) -> PlayerQuerySet:
    """The rated rows of ``queryset``: today, or at its Stichtag."""
    if stichtag_of(queryset):
        return queryset.filter(**{f"{at.VALUE}__isnull": False})
    return queryset.rated()


def rating_list(*, stichtag: datetime.date | None = None) -> PlayerQuerySet:
    """``list_rows`` with their primary club (name, ZPS, member number) on every row (no rank: ``ranks``)."""
    primary = _primary_membership()
    return list_rows(stichtag=stichtag).annotate(
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
    one more than the number of rows with a higher DWZ, so equal DWZ share a rank (one query)."""
    wanted = None if dwz_values is None else {v for v in dwz_values if v is not None}
    if wanted is not None and not wanted:
        return {}
    if stichtag_of(queryset):
        # At a Stichtag: grouped by the day's value itself, computed once per row (an expression over it,
        # or a filter on it, computes it again in PostgreSQL); summed up by DWZ here.
        by_dwz: dict[int, int] = {}
        grouped = queryset.order_by().values(at.VALUE).annotate(n=Count("*")).values_list(at.VALUE, "n")
        for value, n in grouped:
            if value is not None:
                by_dwz[value // at.SCALE] = by_dwz.get(value // at.SCALE, 0) + n
        counts: Iterable[tuple[int | None, int]] = sorted(by_dwz.items(), reverse=True)
    else:
        rows = queryset.order_by().filter(dwz__isnull=False)
        if wanted is not None:
            rows = rows.filter(dwz__gte=min(wanted))
        counts = rows.values("dwz").annotate(n=Count("*")).order_by("-dwz").values_list("dwz", "n")
    out: dict[int, int] = {}
    above = 0
    for dwz, n in counts:
        assert dwz is not None  # filtered above
        out[dwz] = above + 1
        above += n
    return out if wanted is None else {v: out[v] for v in wanted if v in out}


def top(queryset: QuerySet[Player], *, n: int) -> QuerySet[Player]:
    """The rows of ``queryset`` ranked ``n`` or better (all who tie with the n-th; unrated rows share the
    rank after the last rated one). ``queryset``: rows of ``list_rows`` (``dwz_sort`` is its annotation, which
    django-stubs cannot see here)."""
    if stichtag_of(queryset):
        # The n-th row's DWZ as the least value of that DWZ: the filter computes the value once a row.
        value = F(at.VALUE)
        ordered = queryset.order_by(value.desc(nulls_last=True))
        floor = ordered.annotate(floor=at.dwz_of(value) * Value(at.SCALE)).values("floor")[n - 1 : n]
        return queryset.alias(top_value=Coalesce(value, Value(-1))).filter(
            top_value__gte=Coalesce(Subquery(floor), Value(-1))
        )
    by_dwz = queryset.order_by(F("dwz").desc(nulls_last=True))
    border = by_dwz.values("dwz_sort")[n - 1 : n]  # type: ignore[misc]
    return queryset.filter(dwz_sort__gte=Coalesce(Subquery(border), Value(-1)))  # type: ignore[misc]


def club_members(*, club: Club, stichtag: datetime.date | None = None) -> QuerySet[Player]:
    """The rating list of a club's current members, with their member number in this club."""
    number = Membership.objects.current().filter(player=OuterRef("pk"), club=club).values("member_number")[:1]
    return list_rows(stichtag=stichtag).in_club(club).annotate(club_member_number=Subquery(number))


def organisation_members(
    *, organisation: Organisation, stichtag: datetime.date | None = None
) -> QuerySet[Player]:
    """The rating list of the current members of the clubs of ``organisation`` and below."""
    return list_rows(stichtag=stichtag).in_organisation(organisation)
