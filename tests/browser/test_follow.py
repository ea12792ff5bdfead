"""Following a player at a laptop's and a phone's width (issue 30 §2): the link on the card, the form (a
bad address is its message), the confirmation page, the link of the mail and its button; no sideways
scrolling, no serious or critical axe-core finding on the form, the address never shown."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from following.models import Subscription
from tests.axe_support import serious_violations
from tests.builders import collect_errors, player
from tests.factories import ClubFactory, MembershipFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_follow_a_player(live_server, page, width, settings):
    settings.SITE_URL = live_server.url
    mail.outbox = []
    hans = player(dwz=1650, index=12, surname="Müller", first_name="Hans")
    MembershipFactory(player=hans, club=ClubFactory(name="SK Beispiel"))
    errors = collect_errors(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + hans.get_absolute_url())
    feed = page.locator('link[rel="alternate"][type="application/atom+xml"]')
    expect(feed).to_have_attribute("href", f"/spieler/{hans.key}/feed.atom")
    page.get_by_role("link", name="Bei Änderungen benachrichtigen").click()
    expect(page.locator("h1")).to_have_text("Müller, Hans folgen")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert serious_violations(page) == []
    expect(page.locator("#follow-website")).to_be_hidden()  # the honeypot

    page.fill("#id_email", "kein-at")
    page.get_by_role("button", name="Folgen").click()
    expect(page.locator("#follow-email-error")).to_contain_text("gültige E-Mail-Adresse")
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.fill("#id_email", "leser@example.org")
    page.get_by_role("button", name="Folgen").click()
    expect(page.locator("#follow-requested")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("leser@example.org")
    assert len(mail.outbox) == 1
    link = re.search(r"http://\S+/folgen/bestaetigen/\S+", mail.outbox[0].body)
    assert link is not None
    page.goto(link.group(0))
    page.get_by_role("button", name="Ja, Nachrichten schicken").click()
    expect(page.locator("#follow-confirmed")).to_have_text("Sie folgen jetzt Müller, Hans.")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert Subscription.objects.get().confirmed_at is not None
    assert errors == []
