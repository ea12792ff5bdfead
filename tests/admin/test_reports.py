"""The admin names the players whose DWZ a save changed."""

import pytest

from ratings.admin.reports import report_text
from ratings.recalculation import RecalculationReport

pytestmark = pytest.mark.django_db


def test_admin_message_names_players_with_old_and_new_dwz(players):
    report = RecalculationReport(tournaments=[1], rating_changes={players[0].pk: (1600, 1612)})
    text = report_text(report)
    assert text.startswith("1 Turnier neu ausgewertet; DWZ von 1 Spieler geändert: Anton, Test 1600 → 1612")
    report = RecalculationReport(
        tournaments=[1, 2], rating_changes={p.pk: (1500, 1490) for p in players} | {999999: (None, 800)}
    )
    text = report_text(report)
    assert "2 Turniere neu ausgewertet; DWZ von 4 Spielern geändert" in text
    assert "Berta, Test 1500 → 1490" in text and "– → 800" in text
    assert "Hintergrund" not in text


def test_admin_message_says_when_the_rest_goes_to_the_background():
    text = report_text(RecalculationReport(tournaments=[], unfinished={7}))
    assert text.startswith("0 Turniere neu ausgewertet; DWZ von 0 Spielern geändert (")
    assert text.endswith("s). Die späteren Turniere werden im Hintergrund neu berechnet.")
