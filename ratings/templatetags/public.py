"""Display helpers of the public pages: formatting only; numbers come from the engine or the database."""

from __future__ import annotations

import functools
from decimal import Decimal

from django import template
from django.template.defaultfilters import floatformat
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ratings import links
from ratings.dwz import strength_category

register = template.Library()


@register.filter
def thousandths(value: int | None) -> Decimal | None:
    """An engine value in thousandths (points, We) as a decimal number."""
    if value is None:
        return None
    return Decimal(value) / 1000


@functools.lru_cache(maxsize=4096)
def _number(kind: type, value, arg, language: str | None) -> str:
    return floatformat(value, arg)


def number(value, arg) -> str:
    """``floatformat`` remembered per value and language: the long tables of a tournament and a card repeat
    few distinct values, and each ``floatformat`` costs a Decimal quantisation and a localisation."""
    return _number(type(value), value, arg, get_language())


@functools.lru_cache(maxsize=4096)
def _short_date(value, language: str | None) -> str:
    return date_format(value, "SHORT_DATE_FORMAT")


def short_date(value) -> str:
    return _short_date(value, get_language())


@register.filter
def points(value) -> str:
    """Points with one decimal only where needed: 4 or 4,5 (localised)."""
    if value in (None, ""):
        return ""
    return number(value, -1)


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


def _coefficient(e) -> str:
    """E (classic, whole numbers) or K (WO 2026, one decimal) of an evaluation, or a dash."""
    if e.coefficient is None:
        return "–"
    return number(e.coefficient, 0 if e.edition == "classic" else 1)


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
    coefficient = _coefficient(e)
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
        short_date(row.date) if row.date else "",
        links.url("ratings:tournament-detail", e.tournament_id),
        tournament.name,
        code,
        badge,
        dwz_index(e.dwz_old, e.index_old) if e.dwz_old is not None else "–",
        points(e.points),
        e.n,
        number(e.expected, 3) if e.expected is not None else "–",
        coefficient,
        "–" if e.level is None else e.level,
        "–" if e.performance is None else e.performance,
        new,
        change_class(row.change),
        change,
    )


@register.simple_tag
def tournament_evaluation_row(row, standing, rounds) -> str:
    """One row of a tournament's evaluation table as HTML, formatted in Python (a 300-player Swiss spent
    most of its time in the template nodes of these rows)."""
    e = row.evaluation
    player = row.player
    rank = ""
    if rounds:
        shown = f"{standing.rank}.{'*' if standing.shared else ''}" if standing else "–"
        rank = format_html('\n      <td class="num">{}</td>', shown)
    changes = e is not None and e.changes_rating
    non_member = e is not None and e.status == "non_member"
    badge = ""
    if changes and e.status == "first":
        badge = format_html(' <span class="badge text-bg-success">{}</span>', _("Erst-DWZ"))
    elif non_member and e.entry_rating is not None:
        badge = format_html(
            ' <span class="non-member-rating" title="{}">({})</span>',
            _("Wertung, mit der seine Gegner gerechnet wurden"),
            e.entry_rating,
        )
    club = (
        format_html('<a href="{}">{}</a>', links.url("ratings:club-detail", row.club.zps), row.club.name)
        if row.club
        else ""
    )
    if e is None:
        old = expected = coefficient = level = performance = new = "–"
        score = points(row.points)
    else:
        old = dwz_index(e.dwz_old, e.index_old) if e.dwz_old is not None and not non_member else "–"
        score = f"{points(e.points)}/{e.n}"
        expected = number(e.expected, 3) if e.expected is not None else "–"
        coefficient = _coefficient(e)
        level = "–" if e.level is None else e.level
        performance = "–" if e.performance is None else e.performance
        if changes:
            new = dwz_index(e.dwz_new, e.index_new)
        elif non_member:
            new = format_html(
                '<span class="text-body-secondary small" title="{}">{}</span>',
                _(
                    "Kein Mitglied eines DSB-Vereins: mitgerechnet, aber ohne DWZ und ohne Restpartien "
                    "(WO 3.4.3)"
                ),
                e.get_status_display(),
            )
        else:
            new = format_html('<span class="text-body-secondary small">{}</span>', e.get_status_display())
    return format_html(
        '<tr>\n      <td class="num">{}</td>{}\n'
        '      <td class="name"><a href="{}">{}</a>{}</td>\n'
        '      <td class="d-none d-md-table-cell">{}</td>\n'
        '      <td class="num d-none d-md-table-cell">{}</td>\n      <td class="num">{}</td>\n'
        '      <td class="num d-none d-md-table-cell">{}</td>\n'
        '      <td class="num d-none d-md-table-cell">{}</td>\n'
        '      <td class="num d-none d-md-table-cell">{}</td>\n'
        '      <td class="num d-none d-md-table-cell">{}</td>\n'
        '      <td class="num fw-semibold">{}</td>\n      <td class="num {}">{}</td>\n    </tr>',
        row.number,
        rank,
        links.url("ratings:player-detail", player.key),
        player.name,
        badge,
        club,
        old,
        score,
        expected,
        coefficient,
        level,
        performance,
        new,
        change_class(row.change),
        signed(row.change) if changes else "",
    )


@register.simple_tag
def standings_row(line, file_ranks) -> str:
    """One row of a tournament's placing table as HTML, formatted in Python."""
    standing, row = line["standing"], line["row"]
    values = format_html_join("", '<td class="num">{}</td>', ((number(v, "-2"),) for v in standing.values))
    file_rank = ""
    if file_ranks:
        shown = f"{row.entry.file_rank}." if row.entry.file_rank else "–"
        file_rank = format_html('\n      <td class="num">{}</td>', shown)
    return format_html(
        '<tr><td class="num">{}.{}</td>\n      <td class="num">{}</td>\n'
        '      <td class="name"><a href="{}">{}</a></td>\n      <td class="num">{}</td>\n      {}{}</tr>',
        standing.rank,
        "*" if standing.shared else "",
        row.number,
        links.url("ratings:player-detail", row.player.key),
        row.player.name,
        points(standing.points),
        values,
        file_rank,
    )
