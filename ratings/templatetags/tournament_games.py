"""The games of a tournament page as HTML written in Python: crosstable, progress table and scoresheets.

The template's loops spent most of the tournament page's time (issue 31 §1: a 300-player Swiss writes some
2,700 progress cells and as many scoresheet lines, each a dozen template nodes; the crosstable looked up
each of its n² cells in a loop of its own). The markup is the template's, character for character; every
value goes through ``escape``, the texts through ``gettext`` once a call.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from ratings.templatetags.public import _number
from ratings.web.escaping import escape as _h

register = template.Library()


class _Numbers:
    """``points`` and ``floatformat:3`` of ``public``, remembered per value, with the language looked up once
    a table instead of once a cell (a thread-local lookup: a fifth of the games' time)."""

    def __init__(self) -> None:
        self.language = get_language()

    def points(self, value) -> str:
        return "" if value in (None, "") else _number(type(value), value, -1, self.language)  # type: ignore[arg-type]

    def three(self, value) -> str:
        return "" if value is None else _number(type(value), value, 3, self.language)  # type: ignore[arg-type]


def _names(view) -> dict[int, str]:
    """Each entry's public name, escaped once (the scoresheets name every opponent once a game)."""
    return {row.entry.pk: _h(row.player.public_name) for row in view.rows}


@register.simple_tag
def crosstable_rows(view) -> SafeString:
    """The crosstable's body rows: one cell per opponent, the diagonal marked."""
    numbers, names = _Numbers(), _names(view)
    out = []
    for row in view.rows:
        cells = row.cells
        line = [
            f'\n    <tr><th scope="row" class="num">{row.number}</th>'
            f'<td class="name">{names[row.entry.pk]}</td>\n      '
        ]
        for col in view.rows:
            if col.number == row.number:
                line.append('<td class="self" aria-label="—"></td>')
            else:
                line.append(f"<td>{_h(cells[col.number]) if col.number in cells else ''}</td>")
        line.append(f'\n      <td class="fw-semibold">{numbers.points(row.points)}</td></tr>\n  ')
        out.append("".join(line))
    return mark_safe("".join(out))  # noqa: S308 (every value through _h)


@register.simple_tag
def progress_rows(view) -> SafeString:
    """The progress table's body rows (Fortschrittstabelle): opponent, colour, result and running sum."""
    white, black = _h(pgettext("colour white", "w")), _h(pgettext("colour black", "s"))
    numbers, names = _Numbers(), _names(view)
    out = []
    for row in view.rows:
        cells = []
        for cell in row.progress:
            text = ""
            if cell.opponent:
                text = f"{cell.opponent}{white if cell.colour == 'w' else black}"
            text += _h(cell.result)
            if cell.total is not None:
                text += f'<br><small class="text-body-secondary">{numbers.points(cell.total)}</small>'
            cells.append(f"<td>{text}</td>")
        out.append(
            f'\n    <tr><th scope="row" class="num">{row.number}</th>'
            f'<td class="name">{names[row.entry.pk]}</td>\n      {"".join(cells)}'
            f'\n      <td class="fw-semibold">{numbers.points(row.points)}</td></tr>\n  '
        )
    return mark_safe("".join(out))  # noqa: S308 (every value through _h)


@register.simple_tag
def scoresheets(view) -> SafeString:
    """Each player's scoresheet, folded: opponents, their ratings used, colours, results and P per game."""
    label_points, bye, not_rated = _h(_("Punkte")), _h(_("spielfrei")), _h(_("nicht gewertet"))
    colours = {"w": _h(_("Weiß")), "s": _h(_("Schwarz"))}
    head = (
        f'<thead><tr><th scope="col">{_h(_("Runde"))}</th><th scope="col">{_h(_("Gegner"))}</th>'
        f'<th scope="col" class="num">{_h(_("Wertung"))}</th><th scope="col">{_h(_("Farbe"))}</th>'
        f'<th scope="col">{_h(_("Ergebnis"))}</th><th scope="col" class="num">P</th></tr></thead>'
    )
    total = _h(_("Summe"))
    unrounded = _h(_("Summe der ungerundeten P, einmal gerundet (WO 2026)"))
    numbers, names = _Numbers(), _names(view)
    out = []
    for row in view.rows:
        lines = []
        for line in row.lines:
            opponent = bye
            if line.opponent:
                opponent = names.get(line.opponent.pk) or _h(line.opponent.player.public_name)
            rating = "" if line.opponent_rating is None else line.opponent_rating
            result = _h(line.result)
            if not line.counted and line.opponent:
                result += f' <span class="text-body-secondary small">({not_rated})</span>'
            lines.append(
                f"\n      <tr><td>{line.round}</td>\n        <td>{opponent}</td>\n"
                f'        <td class="num">{rating}</td>\n        <td>{colours.get(line.colour, "")}</td>\n'
                f"        <td>{result}</td>\n"
                f'        <td class="num">{numbers.three(line.expected)}</td></tr>\n    '
            )
        foot = ""
        expected_sum = row.expected_sum
        if expected_sum is not None:
            unrounded_sum = row.we_from_unrounded_sum
            if unrounded_sum is None:
                foot = (
                    f'<tfoot><tr><th scope="row" colspan="5">{total} (We)</th>'
                    f'<td class="num fw-semibold">{numbers.three(expected_sum)}</td></tr></tfoot>'
                )
            else:
                foot = (
                    f'<tfoot><tr><th scope="row" colspan="5">{total}</th>'
                    f'<td class="num">{numbers.three(expected_sum)}</td></tr>\n'
                    f'      <tr class="we-unrounded"><th scope="row" colspan="5">We <span class="fw-normal '
                    f'small text-body-secondary">({unrounded})</span></th>'
                    f'<td class="num fw-semibold">{numbers.three(unrounded_sum)}</td></tr></tfoot>'
                )
        out.append(
            f'\n<details class="mb-2 scoresheet" id="scoresheet-{row.number}">\n'
            f"  <summary>{row.number}. {names[row.entry.pk]} – {numbers.points(row.points)} "
            f"{label_points}</summary>\n"
            f'  <div class="table-responsive"><table class="table table-sm mb-1">\n    {head}\n'
            f"    <tbody>{''.join(lines)}</tbody>\n    {foot}\n  </table></div>\n</details>\n"
        )
    return mark_safe("".join(out))  # noqa: S308 (every value through _h)
