"""Accounts: officers land on "Meine Turniere", a forgotten password is reset by mail."""

import re

import pytest
from django.core import mail
from django.urls import reverse

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
