"""Accounts: officers land on "Meine Turniere", a forgotten password is reset by mail, the dashboard links
its tournaments, and the admin names the players whose DWZ a save changed."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from ratings.admin_messages import report_text
from ratings.recalculation import RecalculationReport
from tests.builders import PASSWORD

pytestmark = pytest.mark.django_db


def _login(client, username, **extra):
    return client.post(reverse("ratings:login"), {"username": username, "password": PASSWORD, **extra})


def test_an_officer_lands_on_his_tournaments(client, users):
    assert _login(client, "officer_a")["Location"] == reverse("ratings:officer-dashboard")


def test_staff_lands_on_the_dashboard_and_a_member_on_the_home_page(client, users):
    assert _login(client, "admin")["Location"] == reverse("ratings:officer-dashboard")
    client.logout()
    assert _login(client, "member")["Location"] == "/"


def test_next_wins_over_the_dashboard(client, users):
    assert _login(client, "officer_a", next="/spieler/")["Location"] == "/spieler/"


def test_password_reset_by_mail(client, users):
    user = users["officer_a"]
    user.email = "referent@example.org"
    user.save()
    assert "Passwort vergessen?" in client.get(reverse("ratings:login")).content.decode()
    response = client.post(reverse("ratings:password-reset"), {"email": "referent@example.org"})
    assert response["Location"] == reverse("ratings:password-reset-done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["referent@example.org"]
    assert "Passwort" in message.subject
    assert "officer_a" in message.body
    link = re.search(r"https?://[^/\s]+(/passwort/neu/\S+/)", message.body).group(1)
    form_url = client.get(link)["Location"]  # Django swaps the token for a session key first
    page = client.get(form_url)
    assert "Neues Passwort festlegen" in page.content.decode()
    response = client.post(form_url, {"new_password1": "ganz-neu-2026!", "new_password2": "ganz-neu-2026!"})
    assert response["Location"] == reverse("ratings:password-reset-complete")
    user.refresh_from_db()
    assert user.check_password("ganz-neu-2026!")
    # The link works once.
    assert "ungültig" in client.get(link, follow=True).content.decode()


def test_password_reset_tells_nothing_about_unknown_addresses(client, users):
    response = client.post(reverse("ratings:password-reset"), {"email": "niemand@example.org"})
    assert response["Location"] == reverse("ratings:password-reset-done")
    assert mail.outbox == []


def test_dashboard_links_each_tournament(client, users, tournament):
    client.force_login(users["officer_a"])
    html = client.get(reverse("ratings:officer-dashboard")).content.decode()
    assert f'href="{reverse("ratings:tournament-detail", args=[tournament.pk])}"' in html


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


@pytest.mark.parametrize(
    ("model", "url"),
    [("player", "/spieler/C0501-1/"), ("club", "/vereine/C0501/"), ("organisation", "/verbaende/C05/")],
)
def test_admin_links_to_the_public_page(client, users, players, tree, model, url):
    objects = {"player": players[0], "club": tree["club_a"], "organisation": tree["bezirk_a"]}
    client.force_login(users["admin"])
    html = client.get(reverse(f"admin:ratings_{model}_change", args=[objects[model].pk])).content.decode()
    href = re.search(r'href="([^"]+)" class="viewsitelink"', html).group(1)
    assert client.get(href)["Location"].endswith(url)
