"""The stored Abgleich (``OfficialDifference``, ``OfficialVerdict``; written by
``ratings.services.official_comparison`` after each list import): the officers' page, its CSV, the
tournaments' verdicts. Reads only, a fixed number of queries each."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from django.db.models import Case, Count, Exists, IntegerField, OuterRef, QuerySet, Subquery, Value, When

from ratings.models import (
    Club,
    DifferenceCause,
    ListImport,
    ListImportStatus,
    Membership,
    OfficialDifference,
    OfficialVerdict,
)


def _in_clubs(club_ids: Collection[int]) -> Exists:
    """The difference's player is a current member of one of ``club_ids``."""
    return Exists(
        Membership.objects.current().filter(player_id=OuterRef("player_id"), club_id__in=list(club_ids))
    )


def compared_imports(*, club_ids: Collection[int] | None = None) -> QuerySet[ListImport]:
    """The list imports with a stored Abgleich, newest list first, each with ``area_differences``: its
    differences of current members of ``club_ids`` (None: all). One query."""
    rows = OfficialDifference.objects.filter(list_import=OuterRef("pk"))
    if club_ids is not None:
        rows = rows.filter(_in_clubs(club_ids))
    count = rows.order_by().values("list_import").annotate(n=Count("pk")).values("n")
    return (
        ListImport.objects.filter(status=ListImportStatus.DONE, dry_run=False, summary__has_key="abgleich")
        .annotate(area_differences=Subquery(count, output_field=IntegerField()))
        .order_by("-as_of", "-pk")
    )


_CAUSE_ORDER = Case(
    When(cause=DifferenceCause.OURS_EXTRA, then=Value(0)),
    When(cause=DifferenceCause.DSB_EXTRA, then=Value(1)),
    default=Value(2),
    output_field=IntegerField(),
)


def stored_differences(
    *,
    list_import: ListImport,
    club_ids: Collection[int] | None = None,
    cause: str = "",
    club: Club | None = None,
) -> QuerySet[OfficialDifference]:
    """The import's differences of current members of ``club_ids`` (None: every one), optionally of one
    cause and of one club's current members; by cause (hier mehr, beim DSB mehr, Kette), then name. The
    player is joined: one query for any number of rows."""
    qs = OfficialDifference.objects.filter(list_import=list_import).select_related("player")
    if club_ids is not None:
        qs = qs.filter(_in_clubs(club_ids))
    if cause:
        qs = qs.filter(cause=cause)
    if club is not None:
        qs = qs.filter(_in_clubs([club.pk]))
    return qs.order_by(_CAUSE_ORDER, "player__name_sort", "player_id")


def difference_clubs(*, list_import: ListImport, club_ids: Collection[int] | None = None) -> QuerySet[Club]:
    """The clubs (within ``club_ids``, None: all) with a current member among the import's differences:
    the choices of the page's club filter. One query."""
    members = Membership.objects.current().filter(
        club_id=OuterRef("pk"), player__official_differences__list_import=list_import
    )
    qs = Club.objects.filter(Exists(members))
    if club_ids is not None:
        qs = qs.filter(pk__in=list(club_ids))
    return qs.order_by("name_sort", "zps")


def latest_verdicts(*, tournament_ids: Iterable[int]) -> dict[int, OfficialVerdict]:
    """Each tournament's verdict that counts: that of the newest list (by date, then import) that
    judged it; tournaments never judged are missing. One query (the import joined)."""
    ids = list({int(t) for t in tournament_ids})
    if not ids:
        return {}
    rows = (
        OfficialVerdict.objects.filter(tournament_id__in=ids)
        .select_related("list_import")
        .order_by("tournament_id", "-list_import__as_of", "-list_import_id")
    )
    latest: dict[int, OfficialVerdict] = {}
    for verdict in rows:
        latest.setdefault(verdict.tournament_id, verdict)
    return latest
