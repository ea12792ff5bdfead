"""Statistics: active rated players per strength category and per DWZ band."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, F, Q, Value
from django.utils.translation import gettext_noop

from ratings.dwz import CATEGORIES
from ratings.models import Player

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


def dwz_histogram(*, width: int = 100) -> list[dict]:
    """Active rated players per DWZ band of ``width`` points (one query), for the histogram."""
    rows = (
        Player.objects.active()
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
