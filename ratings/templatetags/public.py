"""Display helpers of the public pages: formatting only; numbers come from the engine or the database."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _

from ratings.dwz import strength_category

register = template.Library()


@register.filter
def thousandths(value: int | None) -> Decimal | None:
    """An engine value in thousandths (points, We) as a decimal number."""
    if value is None:
        return None
    return Decimal(value) / 1000


@register.filter
def points(value) -> str:
    """Points with one decimal only where needed: 4 or 4,5 (localised)."""
    if value in (None, ""):
        return ""
    return floatformat(value, -1)


@register.filter
def signed(value: int | None) -> str:
    """A rating change with its sign: +12, −3 (typographic minus), ±0."""
    if value is None or value == "":
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "±0"


@register.simple_tag
def dwz_index(dwz: int | None, index: int | None) -> str:
    """The DWZ-Index as printed by the DSB: 1802-45 (index omitted when unknown)."""
    if dwz is None:
        return ""
    return f"{dwz}-{index}" if index is not None else str(dwz)


@register.filter
def category(dwz: int | None) -> str:
    """The strength category of a DWZ in the active language (spec §11)."""
    if dwz is None:
        return ""
    cat = strength_category(int(dwz))
    return _(cat.label_de)


@register.filter
def change_class(value: int | None) -> str:
    if not value:
        return "text-body-secondary"
    return "text-success" if value > 0 else "text-danger"
