"""Display helpers of the public pages: formatting only; numbers come from the engine or the database."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
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


@register.simple_tag
def card_evaluation_row(row) -> str:
    """One evaluation row of the Karteikarte as HTML, formatted in Python: a card of 571 evaluations spent
    most of its time in ~40 template nodes per row."""
    e = row.evaluation
    tournament = e.tournament
    badge = ""
    if e.status == "first":
        badge = format_html(' <span class="badge text-bg-success">{}</span>', _("Erst-DWZ"))
    elif e.fide_takeover:
        badge = format_html(' <span class="badge text-bg-secondary">{}</span>', _("Elo-Übernahme"))
    code = (
        format_html(' <code class="small text-body-secondary text-nowrap">{}</code>', tournament.code)
        if tournament.code
        else ""
    )
    if e.coefficient is None:
        coefficient = "–"
    else:
        coefficient = floatformat(e.coefficient, 0 if e.edition == "classic" else 1)
    if e.changes_rating:
        new, change = dwz_index(e.dwz_new, e.index_new), signed(row.change)
    else:
        new = format_html('<span class="text-body-secondary small">{}</span>', _("nicht ausgewertet"))
        change = ""
    return format_html(
        '<tr>\n      <td class="num">{}</td>\n      <td class="num">{}</td>\n'
        '      <td class="name"><a href="{}">{}</a>{}{}</td>\n'
        '      <td class="num">{}</td>\n      <td class="num">{}</td>\n      <td class="num">{}</td>\n'
        '      <td class="num">{}</td>\n      <td class="num">{}</td>\n      <td class="num">{}</td>\n'
        '      <td class="num">{}</td>\n      <td class="num fw-semibold">{}</td>\n'
        '      <td class="num {}">{}</td>\n    </tr>',
        "" if row.number is None else row.number,
        date_format(row.date, "SHORT_DATE_FORMAT") if row.date else "",
        reverse("ratings:tournament-detail", args=[e.tournament_id]),
        tournament.name,
        code,
        badge,
        dwz_index(e.dwz_old, e.index_old) if e.dwz_old is not None else "–",
        points(e.points),
        e.n,
        floatformat(e.expected, 3) if e.expected is not None else "–",
        coefficient,
        "–" if e.level is None else e.level,
        "–" if e.performance is None else e.performance,
        new,
        change_class(row.change),
        change,
    )
