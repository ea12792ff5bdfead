"""The games of a tournament page as HTML written in Python: crosstable, progress table and scoresheets.

The template's loops spent most of the tournament page's time (issue 31 §1: a 300-player Swiss writes some
2,700 progress cells and as many scoresheet lines, each a dozen template nodes; the crosstable looked up
each of its n² cells in a loop of its own). The markup is the template's, character for character; every
value goes through ``escape``, the texts through ``gettext`` once a call.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ratings.templatetags.public import number, points
from ratings.web.escaping import escape as _h

register = template.Library()


def _three(value) -> str:
    """``floatformat:3``, remembered per value (``public.number``); empty for no value."""
    return "" if value is None else number(value, 3)


@register.simple_tag
def crosstable_rows(view) -> SafeString:
    """The crosstable's body rows: one cell per opponent, the diagonal marked."""
    out = []
    for row in view.rows:
        cells = row.cells
        line = [
            f'\n    <tr><th scope="row" class="num">{_h(row.number)}</th>'
            f'<td class="name">{_h(row.player.public_name)}</td>\n      '
        ]
        for col in view.rows:
            if col.number == row.number:
                line.append('<td class="self" aria-label="—"></td>')
            else:
                line.append(f"<td>{_h(cells[col.number]) if col.number in cells else ''}</td>")
        line.append(f'\n      <td class="fw-semibold">{_h(points(row.points))}</td></tr>\n  ')
        out.append("".join(line))
    return mark_safe("".join(out))  # noqa: S308 (every value through _h)


@register.simple_tag
def progress_rows(view) -> SafeString:
    """The progress table's body rows (Fortschrittstabelle): opponent, colour, result and running sum."""
    white, black = pgettext("colour white", "w"), pgettext("colour black", "s")
    out = []
    for row in view.rows:
        cells = []
        for cell in row.progress:
            text = ""
            if cell.opponent:
                text = f"{_h(cell.opponent)}{_h(white if cell.colour == 'w' else black)}"
            text += _h(cell.result)
            if cell.total is not None:
                text += f'<br><small class="text-body-secondary">{_h(points(cell.total))}</small>'
            cells.append(f"<td>{text}</td>")
        out.append(
            f'\n    <tr><th scope="row" class="num">{_h(row.number)}</th>'
            f'<td class="name">{_h(row.player.public_name)}</td>\n      {"".join(cells)}'
            f'\n      <td class="fw-semibold">{_h(points(row.points))}</td></tr>\n  '
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
    out = []
    for row in view.rows:
        lines = []
        for line in row.lines:
            opponent = _h(line.opponent.player.public_name) if line.opponent else bye
            rating = "" if line.opponent_rating is None else _h(line.opponent_rating)
            result = _h(line.result)
            if not line.counted and line.opponent:
                result += f' <span class="text-body-secondary small">({not_rated})</span>'
            lines.append(
                f"\n      <tr><td>{_h(line.round)}</td>\n        <td>{opponent}</td>\n"
                f'        <td class="num">{rating}</td>\n        <td>{colours.get(line.colour, "")}</td>\n'
                f'        <td>{result}</td>\n        <td class="num">{_three(line.expected)}</td></tr>\n    '
            )
        foot = ""
        expected_sum = row.expected_sum
        if expected_sum is not None:
            unrounded_sum = row.we_from_unrounded_sum
            if unrounded_sum is None:
                foot = (
                    f'<tfoot><tr><th scope="row" colspan="5">{total} (We)</th>'
                    f'<td class="num fw-semibold">{_three(expected_sum)}</td></tr></tfoot>'
                )
            else:
                foot = (
                    f'<tfoot><tr><th scope="row" colspan="5">{total}</th>'
                    f'<td class="num">{_three(expected_sum)}</td></tr>\n'
                    f'      <tr class="we-unrounded"><th scope="row" colspan="5">We <span class="fw-normal '
                    f'small text-body-secondary">({unrounded})</span></th>'
                    f'<td class="num fw-semibold">{_three(unrounded_sum)}</td></tr></tfoot>'
                )
        out.append(
            f'\n<details class="mb-2 scoresheet" id="scoresheet-{_h(row.number)}">\n'
            f"  <summary>{_h(row.number)}. {_h(row.player.public_name)} – {_h(points(row.points))} "
            f"{label_points}</summary>\n"
            f'  <div class="table-responsive"><table class="table table-sm mb-1">\n    {head}\n'
            f"    <tbody>{''.join(lines)}</tbody>\n    {foot}\n  </table></div>\n</details>\n"
        )
    return mark_safe("".join(out))  # noqa: S308 (every value through _h)
