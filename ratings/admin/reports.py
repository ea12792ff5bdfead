"""Admin messages after a save re-evaluated ratings: counts in the right plural, the players named."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.models import Player
from ratings.recalculation import RecalculationReport

REPORT_NAMES_SHOWN = 10


def report_text(report: RecalculationReport) -> str:
    """What a save re-evaluated, naming the players whose DWZ changed (old → new), the first ten of them."""
    t, p = len(report.tournaments), len(report.rating_changes)
    players = Player.objects.in_bulk(list(report.rating_changes)[:REPORT_NAMES_SHOWN])
    changed = [
        f"{players[pk].name if pk in players else pk} {old or '–'} → {new or '–'}"
        for pk, (old, new) in list(report.rating_changes.items())[:REPORT_NAMES_SHOWN]
    ]
    if p > REPORT_NAMES_SHOWN:
        more = p - REPORT_NAMES_SHOWN
        changed.append(ngettext("%(n)d weiterer", "%(n)d weitere", more) % {"n": more})
    text = ngettext("%(n)d Turnier neu ausgewertet", "%(n)d Turniere neu ausgewertet", t) % {"n": t}
    text += "; " + ngettext("DWZ von %(n)d Spieler geändert", "DWZ von %(n)d Spielern geändert", p) % {"n": p}
    if changed:
        text += ": " + "; ".join(changed)
    text = f"{text} ({number_format(report.elapsed, 2)} s)."
    if report.unfinished is not None:  # stopped at the change: a RecalculationJob does the rest
        text += " " + _("Die späteren Turniere werden im Hintergrund neu berechnet.")
    return text
