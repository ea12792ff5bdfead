"""Display helpers of the public pages: formatting only; numbers come from the engine or the database."""

from __future__ import annotations

import datetime
import functools
from decimal import Decimal

from django import template
from django.template.defaultfilters import floatformat
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ratings import age_classes
from ratings.dwz import strength_category
from ratings.web import links
from ratings.web.escaping import escape

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
    # mypy does not count a class (type[Any]) as Hashable for lru_cache's arguments; it is
    return _number(type(value), value, arg, get_language())  # type: ignore[arg-type]


@functools.lru_cache(maxsize=4096)
def _short_date(value, language: str | None) -> str:
    return date_format(value, "SHORT_DATE_FORMAT")


def short_date(value) -> str:
    return _short_date(value, get_language())


_h = escape  # short: every cell of the row tags goes through it


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
        f' <code class="small text-body-secondary text-nowrap">{_h(tournament.code)}</code>'
        if tournament.code
        else ""
    )
    coefficient = _coefficient(e)
    if e.changes_rating:
        new, change = dwz_index(e.dwz_new, e.index_new), signed(row.change)
    else:
        new = format_html('<span class="text-body-secondary small">{}</span>', _("nicht ausgewertet"))
        change = ""
    running = "" if row.number is None else row.number
    date = short_date(row.date) if row.date else ""
    href = links.url("ratings:tournament-detail", e.tournament_id)
    old = dwz_index(e.dwz_old, e.index_old) if e.dwz_old is not None else "–"
    expected = number(e.expected, 3) if e.expected is not None else "–"
    level = "–" if e.level is None else e.level
    performance = "–" if e.performance is None else e.performance
    return mark_safe(  # noqa: S308 (every value through _h)
        f'<tr>\n      <td class="num">{_h(running)}</td>\n      <td class="num">{_h(date)}</td>\n'
        f'      <td class="name"><a href="{_h(href)}">{_h(tournament.name)}</a>{code}{_h(badge)}</td>\n'
        f'      <td class="num">{_h(old)}</td>\n      <td class="num">{_h(points(e.points))}</td>\n'
        f'      <td class="num">{_h(e.n)}</td>\n'
        f'      <td class="num">{_h(expected)}</td>\n      <td class="num">{_h(coefficient)}</td>\n'
        f'      <td class="num">{_h(level)}</td>\n'
        f'      <td class="num">{_h(performance)}</td>\n      <td class="num fw-semibold">{_h(new)}</td>\n'
        f'      <td class="num {_h(change_class(row.change))}">{_h(change)}</td>\n    </tr>'
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
        rank = f'\n      <td class="num">{_h(shown)}</td>'
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
        f'<a href="{_h(links.url("ratings:club-detail", row.club.zps))}">{_h(row.club.name)}</a>'
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
    change = signed(row.change) if changes else ""
    return mark_safe(  # noqa: S308 (every value through _h)
        f'<tr>\n      <td class="num">{_h(row.number)}</td>{rank}\n'
        f'      <td class="name">{player_link(player)}{_h(badge)}</td>\n'
        f'      <td class="d-none d-md-table-cell">{club}</td>\n'
        f'      <td class="num d-none d-md-table-cell">{_h(old)}</td>\n'
        f'      <td class="num">{_h(score)}</td>\n'
        f'      <td class="num d-none d-md-table-cell">{_h(expected)}</td>\n'
        f'      <td class="num d-none d-md-table-cell">{_h(coefficient)}</td>\n'
        f'      <td class="num d-none d-md-table-cell">{_h(level)}</td>\n'
        f'      <td class="num d-none d-md-table-cell">{_h(performance)}</td>\n'
        f'      <td class="num fw-semibold">{_h(new)}</td>\n'
        f'      <td class="num {_h(change_class(row.change))}">{_h(change)}</td>\n    </tr>'
    )


@register.filter
def player_link(player) -> str:
    """A player's name linked to his card; "nicht veröffentlicht" unlinked after his objection to
    publication (issue 30 §4)."""
    if player.publication_objection:
        return _h(player.public_name)
    href = links.url("ratings:player-detail", player.key)
    return mark_safe(f'<a href="{_h(href)}">{_h(player.name)}</a>')  # noqa: S308 (escaped by _h)


@register.simple_tag
def standings_row(line, file_ranks) -> str:
    """One row of a tournament's placing table as HTML, formatted in Python."""
    standing, row = line["standing"], line["row"]
    values = "".join([f'<td class="num">{_h(number(v, "-2"))}</td>' for v in standing.values])
    file_rank = ""
    if file_ranks:
        shown = f"{row.entry.file_rank}." if row.entry.file_rank else "–"
        file_rank = f'\n      <td class="num">{_h(shown)}</td>'
    return mark_safe(  # noqa: S308 (every value through _h)
        f'<tr><td class="num">{_h(standing.rank)}.{"*" if standing.shared else ""}</td>\n'
        f'      <td class="num">{_h(row.number)}</td>\n'
        f'      <td class="name">{player_link(row.player)}</td>\n'
        f'      <td class="num">{_h(points(standing.points))}</td>\n      {values}{file_rank}</tr>'
    )


@register.simple_tag
def past_member_row(membership) -> str:
    """One row of a club's former members (a large club shows 100): the template's link and two dates a row
    were most of the club page's template time."""
    player = membership.player
    number = _h(membership.member_number) if membership.member_number else "—"
    since = short_date(membership.valid_from) if membership.valid_from else "—"
    until = short_date(membership.valid_until) if membership.valid_until else ""
    return mark_safe(  # noqa: S308 (every value escaped by _h; dates and links are plain)
        f"<tr><td>{player_link(player)}</td><td>{number}</td>"
        f'<td class="d-none d-sm-table-cell">{since}</td><td>{until}</td></tr>'
    )


@register.simple_tag
def tournament_list_row(tournament) -> str:
    """One row of a short tournament list (a club's latest, the home page's)."""
    end = short_date(tournament.end_date) if tournament.end_date else ""
    href = links.url("ratings:tournament-detail", tournament.pk)
    code = _h(tournament.code) if tournament.code else "—"
    return mark_safe(  # noqa: S308 (every value escaped by _h; the date and link are plain)
        f'<tr><td>{end}</td><td><a href="{href}">{_h(tournament.name)}</a></td><td>{code}</td>'
        f'<td class="num">{_h(tournament.players)}</td></tr>'
    )


@register.filter
def public_birth_year(value: int | None) -> str:
    """The birth year as public pages show it: the age class (U8 … U18) for players under 18."""
    return age_classes.public_birth_year(value, year=datetime.date.today().year)
