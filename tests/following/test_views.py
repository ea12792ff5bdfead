"""The follow form, the confirmation link, the one-click unsubscribe, the feeds' links on card and club."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.cache import caches
from django.urls import reverse

from following.models import Subscription
from following.tokens import cancel_token, confirm_token
from tests.following.support import follow, history

pytestmark = pytest.mark.django_db

ADDRESS = "Leser@Example.ORG"


def _link(body: str, part: str) -> str:
    url = re.search(rf"https?://\S+{part}\S+", body)
    assert url is not None, body
    return url.group(0).split("localhost:8000", 1)[1]


def test_double_opt_in_and_one_click_unsubscribe(client):
    h = history()
    url = reverse("following:follow-player", args=[h.c.key])
    response = client.post(url, {"email": ADDRESS})
    assert response.status_code == 200
    assert ADDRESS.lower() not in response.content.decode().lower()  # no address is ever shown
    subscription = Subscription.objects.get()
    assert subscription.email == "Leser@example.org" and subscription.confirmed_at is None
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["Leser@example.org"]
    confirm = _link(mail.outbox[0].body, "/folgen/bestaetigen/")

    page = client.get(confirm)  # a mail scanner fetching the link confirms nothing
    assert page.status_code == 200
    subscription.refresh_from_db()
    assert subscription.confirmed_at is None
    done = client.post(confirm)
    assert done.status_code == 200 and h.c.name in done.content.decode()
    subscription.refresh_from_db()
    assert subscription.confirmed_at is not None

    again = client.post(url, {"email": ADDRESS})  # already following: the same page, no mail
    assert again.status_code == 200 and len(mail.outbox) == 1

    cancel = reverse("following:cancel", args=[cancel_token(subscription.pk)])
    assert client.get(cancel).status_code == 200 and Subscription.objects.exists()
    # RFC 8058: the mail client posts without a CSRF token
    csrf_client = client.__class__(enforce_csrf_checks=True)
    response = csrf_client.post(cancel, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert not Subscription.objects.exists()


def test_bad_address_is_a_form_error_and_honeypot_sends_nothing(client):
    h = history()
    url = reverse("following:follow-club", args=[h.club.zps])
    response = client.post(url, {"email": "kein-at-zeichen"})
    assert response.status_code == 200
    assert "gültige E-Mail-Adresse" in response.content.decode()
    bot = client.post(url, {"email": "bot@example.org", "website": "http://spam.example"})
    assert bot.status_code == 200 and mail.outbox == [] and not Subscription.objects.exists()


def test_confirmation_mails_per_address_are_limited(client, settings):
    settings.FOLLOW_CONFIRMS_PER_DAY = 2
    h = history()
    for target in (h.a, h.b, h.c, h.d):
        client.post(reverse("following:follow-player", args=[target.key]), {"email": "x@example.org"})
    assert len(mail.outbox) == 2


def test_request_throttle_per_client(client, settings):
    settings.FOLLOW_REQUEST_LIMIT = 1
    caches[settings.THROTTLE_CACHE].clear()  # a table of its own: earlier transactional tests leave counts
    h = history()
    url = reverse("following:follow-player", args=[h.a.key])
    assert client.post(url, {"email": "one@example.org"}, REMOTE_ADDR="192.0.2.77").status_code == 200
    response = client.post(url, {"email": "two@example.org"}, REMOTE_ADDR="192.0.2.77")
    assert response.status_code == 429 and "Zu viele Anfragen" in response.content.decode()
    assert not Subscription.objects.filter(email="two@example.org").exists()


@pytest.mark.parametrize("token", ["abc", "MQ:xyz:forged"])
def test_forged_links_are_400(client, token):
    assert client.get(reverse("following:confirm", args=[token])).status_code == 400
    assert client.post(reverse("following:cancel", args=[token])).status_code == 400


def test_confirm_link_of_a_cancelled_subscription(client):
    h = history()
    subscription = follow("gone@example.org", player=h.a)
    token = confirm_token(subscription.pk)
    subscription.delete()
    assert client.post(reverse("following:confirm", args=[token])).status_code == 400


def test_card_and_club_link_feed_and_form(client):
    h = history()
    card = client.get(h.c.get_absolute_url()).content.decode()
    feed = reverse("following:player-feed", args=[h.c.key])
    assert '<link rel="alternate" type="application/atom+xml"' in card and f'href="{feed}"' in card
    assert reverse("following:follow-player", args=[h.c.key]) in card
    club = client.get(h.club.get_absolute_url()).content.decode()
    assert reverse("following:club-feed", args=[h.club.zps]) in club
    assert reverse("following:follow-club", args=[h.club.zps]) in club
    assert client.get(reverse("following:follow-player", args=[h.c.key])).status_code == 200
    assert client.get("/spieler/X9999-999/folgen/").status_code == 404
    assert client.get("/vereine/Z9999/feed.atom").status_code == 404


def test_unconfirmed_addresses_are_deleted_after_a_week():
    from following.services import unconfirmed_purge
    from tests.following.support import hours_later

    h = history()
    Subscription.objects.create(email="never@example.org", player=h.a)
    kept = follow("yes@example.org", player=h.b)
    assert unconfirmed_purge(now=hours_later(24 * 6)) == 0
    assert unconfirmed_purge(now=hours_later(24 * 7 + 1)) == 1
    assert list(Subscription.objects.all()) == [kept]
