"""Statistics: active rated players per strength category and per DWZ band."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, F, Q, Value
from django.db.models.functions import ExtractYear
from django.utils.translation import gettext_noop

from ratings.dwz import CATEGORIES
from ratings.enums import EvaluationStatus
from ratings.models import Evaluation, Organisation, Player, Tournament
from ratings.models.federation import in_subtree_q

# The strength categories' German labels, marked for translation (the engine keeps them as plain data).
CATEGORY_LABELS = [
    gettext_noop("Anfänger"),
    gettext_noop("Fortgeschrittener"),
    gettext_noop("Normaler Vereinsspieler"),
    gettext_noop("Überdurchschnittlicher Vereinsspieler"),
    gettext_noop("Herausragender Vereinsspieler"),
    gettext_noop("Oberligaspieler"),
    gettext_noop("Bundesligaspieler"),
    gettext_noop("Großmeister"),
    gettext_noop("Weltklassespieler"),
]
assert [c.label_de for c in CATEGORIES] == CATEGORY_LABELS


@dataclass
class CategoryRow:
    lower: int | None
    upper: int | None
    label: str
    count: int
    share: Decimal | None


def category_rows() -> tuple[list[CategoryRow], int]:
    """Number and share of active rated players per strength category (one query)."""
    aggregates = {}
    for i, cat in enumerate(CATEGORIES):
        cond = Q()
        if cat.lower is not None:
            cond &= Q(dwz__gte=cat.lower)
        if cat.upper is not None:
            cond &= Q(dwz__lte=cat.upper)
        aggregates[f"c{i}"] = Count("pk", filter=cond)
    counts = Player.objects.active().rated().aggregate(**aggregates)
    total = sum(counts.values())
    rows = [
        CategoryRow(
            lower=cat.lower,
            upper=cat.upper,
            label=cat.label_de,
            count=counts[f"c{i}"],
            share=(Decimal(counts[f"c{i}"]) * 100 / total) if total else None,
        )
        for i, cat in enumerate(CATEGORIES)
    ]
    return rows, total


def dwz_histogram(*, width: int = 100, organisation: Organisation | None = None) -> list[dict]:
    """Active rated players (of ``organisation`` and below, else all) per DWZ band of ``width`` points (one
    query), for the histogram."""
    players = Player.objects.all() if organisation is None else Player.objects.in_organisation(organisation)
    rows = (
        players.active()
        .rated()
        .annotate(bucket=F("dwz") / Value(width))  # integer division on both SQLite and PostgreSQL
        .values("bucket")
        .annotate(n=Count("pk"))
        .order_by("bucket")
    )
    buckets = {row["bucket"] * width: row["n"] for row in rows}
    if not buckets:
        return []
    lo, hi = min(buckets), max(buckets)
    return [
        {"from": b, "to": b + width - 1, "count": buckets.get(b, 0)} for b in range(lo, hi + width, width)
    ]


@dataclass
class YearRow:
    year: int
    evaluations: int  # evaluations that set a DWZ
    first: int  # of them first ratings (Erst-DWZ)
    tournaments: int  # rated tournaments (organised in the federation, else all)


def per_year(*, organisation: Organisation | None = None) -> list[YearRow]:
    """Per year of the tournament end: evaluations that set a DWZ and first ratings of the federation's
    current members, and rated tournaments organised in it (two queries)."""
    evaluations = Evaluation.objects.setting_rating()
    tournaments = Tournament.objects.filter(rated=True)
    if organisation is not None:
        members = Player.objects.in_organisation(organisation).values("pk")
        evaluations = evaluations.filter(player__in=members)
        tournaments = tournaments.filter(
            in_subtree_q(organisation, prefix="organiser_club__")
            | Q(organiser_organisation__in=Organisation.objects.subtree(organisation))
        )
    counts: dict[int, YearRow] = {}
    for row in (
        evaluations.annotate(year=ExtractYear("end_date"))
        .values("year")
        .annotate(n=Count("pk"), first=Count("pk", filter=Q(status=EvaluationStatus.FIRST)))
        .order_by()
    ):
        counts[row["year"]] = YearRow(row["year"], row["n"], row["first"], 0)
    for t_row in (
        tournaments.annotate(year=ExtractYear("end_date")).values("year").annotate(n=Count("pk")).order_by()
    ):
        counts.setdefault(t_row["year"], YearRow(t_row["year"], 0, 0, 0)).tournaments = t_row["n"]
    return [counts[y] for y in sorted(counts)]
