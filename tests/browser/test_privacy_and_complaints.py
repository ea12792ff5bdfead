"""The hidden card and "Fehler melden" in a browser at a laptop's and a phone's width (issue 30 §3, §4):
the card of a player who objected shows neither name nor history, the club list shows him as "nicht
veröffentlicht"; the report form is sent from the card and reaches the officer's inbox; nothing scrolls
sideways, no script error."""

import pytest
from playwright.sync_api import expect

from ratings.models import Complaint
from tests.builders import collect_errors, make_user
from tests.privacy_fixtures import HIDDEN_SURNAME, hidden_area  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = "/static/vendor/axe-core/axe.min.js"
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', '));
}"""


def axe_violations(page) -> list[str]:
    """Serious or critical axe-core findings on the page (as tests/browser/test_accessibility.py counts)."""
    page.add_script_tag(url=AXE)
    return page.evaluate(RUN_AXE)


@pytest.mark.parametrize("width", [1366, 390])
def test_hidden_card_and_report_form(live_server, page, hidden_area, log_in, width):  # noqa: F811
    club, hidden, _youth, others, _tournament, _frozen = hidden_area
    make_user("referent-browser", club=club)
    errors = collect_errors(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/vereine/{club.zps}/")
    expect(page.locator("#rating-table")).to_contain_text("nicht veröffentlicht")
    expect(page.locator("body")).not_to_contain_text(HIDDEN_SURNAME)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto(f"{live_server.url}/spieler/{hidden.key}/")
    expect(page.locator("#hidden-player")).to_have_text("nicht veröffentlicht")
    expect(page.locator("body")).not_to_contain_text(HIDDEN_SURNAME)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert axe_violations(page) == []
    page.goto(f"{live_server.url}/datenschutz/")
    assert axe_violations(page) == []
    # A report from another player's card: the form, the honeypot out of sight, sent, thanked.
    page.goto(f"{live_server.url}/spieler/{others[0].key}/")
    page.locator("#complaint-link").click()
    expect(page.locator("#complaint-context")).to_contain_text("Offen0")
    expect(page.locator("#id_website")).not_to_be_in_viewport()
    page.fill("#id_name", "Eva Melder")
    page.fill("#id_email", "eva@example.org")
    page.fill("#id_text", "Die zweite Runde fehlt.")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert axe_violations(page) == []
    page.get_by_role("button", name="Meldung senden").click()
    expect(page.locator("#complaint-sent")).to_be_visible()
    complaint = Complaint.objects.get()
    assert complaint.player_id == others[0].pk
    # The officer of the club finds it in his inbox.
    log_in(page, "referent-browser")
    page.goto(f"{live_server.url}/referent/reklamationen/?status=open")
    expect(page.locator("#complaint-table")).to_contain_text("Offen0")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert axe_violations(page) == []
    page.locator("#complaint-table a").first.click()
    expect(page.locator("#complaint-text")).to_contain_text("Die zweite Runde fehlt.")
    page.select_option("#id_status", "done")
    page.fill("#id_note", "Nachgetragen.")
    page.get_by_role("button", name="Speichern").click()
    expect(page.locator("#complaint-status")).to_have_text("erledigt")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert axe_violations(page) == []
    assert errors == []
