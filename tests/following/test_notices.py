"""A late tournament: one mail to each follower of each re-rated player, the feed shows the revision."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.urls import reverse

from following.models import NoticeKind, RatingNotice
from following.services import digests_send
from ratings.models import Evaluation, Player
from ratings.services import tournament_delete
from tests.builders import save_tournament
from tests.following.support import follow, history, hours_later, late_tournament

pytestmark = pytest.mark.django_db


def _save_late(h, django_capture_on_commit_callbacks, **kwargs):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        t = late_tournament(h, **kwargs)
    assert len(callbacks) == 1  # one announcement for the whole recalculation
    return t


def test_late_tournament_mails_each_follower_of_each_rerated_player_once(django_capture_on_commit_callbacks):
    h = history()
    c_before = Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new
    c_follower = follow("fan-c@example.org", player=h.c)
    a_follower = follow("fan-a@example.org", player=h.a)
    club_follower = follow("verein@example.org", club=h.club)
    b_follower = follow("fan-b@example.org", player=h.b)  # b's DWZ does not move

    _save_late(h, django_capture_on_commit_callbacks)

    c_after = Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new
    assert c_after != c_before
    by_address = {}
    for message in mail.outbox:
        by_address.setdefault(message.to[0], []).append(message)
    assert sorted(by_address) == ["fan-a@example.org", "fan-c@example.org", "verein@example.org"]
    assert all(len(messages) == 1 for messages in by_address.values())
    c_mail = by_address["fan-c@example.org"][0]
    assert "Nachgereichtes Februar-Turnier" in c_mail.body
    assert f"DWZ {c_before} → {c_after}" in c_mail.body
    assert "neu berechnet" in c_mail.body.lower()
    assert "ausgewertet" in by_address["fan-a@example.org"][0].body
    for messages in by_address.values():
        unsubscribe = messages[0].extra_headers["List-Unsubscribe"]
        assert unsubscribe.startswith("<http") and "/folgen/abbestellen/" in unsubscribe
        assert unsubscribe.strip("<>") in messages[0].body  # the same one-click link in the text
        assert messages[0].extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert {s.pk for s in (c_follower, a_follower, club_follower)}  # each got its own mail (above)
    b_follower.refresh_from_db()
    assert b_follower.last_mailed_at is None


def test_feed_shows_the_revision(client, django_capture_on_commit_callbacks):
    h = history()
    _save_late(h, django_capture_on_commit_callbacks)
    notice = RatingNotice.objects.get(player=h.c)
    assert notice.kind == NoticeKind.REVISED
    response = client.get(reverse("following:player-feed", args=[h.c.key]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    body = response.content.decode()
    assert f"DWZ neu berechnet: {notice.dwz_old} → {notice.dwz_new}" in body
    assert (
        "Neu berechnet durch das nachgereichte oder korrigierte Turnier Nachgereichtes Februar-Turnier"
        in body
    )
    assert "März-Open ausgewertet" in body  # the evaluations are items too
    club_body = client.get(reverse("following:club-feed", args=[h.club.zps])).content.decode()
    assert f"{h.c.name}: DWZ neu berechnet" in club_body


def test_a_second_change_within_the_hour_waits_for_one_digest(django_capture_on_commit_callbacks):
    h = history()
    follow("fan-c@example.org", player=h.c)
    _save_late(h, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    with django_capture_on_commit_callbacks(execute=True):
        save_tournament([h.c, h.d], [(h.c, h.d, "1-0")], end=datetime.date(2025, 4, 5), name="Aprilcup")
    assert len(mail.outbox) == 1  # held back: at most one mail per hour
    sent, later = digests_send(now=hours_later(0.5))
    assert sent == 0 and later is not None
    sent, later = digests_send(now=hours_later(1.01))
    assert sent == 1 and later is None
    assert "Aprilcup ausgewertet" in mail.outbox[1].body
    assert "Nachgereichtes Februar-Turnier" not in mail.outbox[1].body  # the first mail told that one


def test_deleting_a_tournament_says_so(django_capture_on_commit_callbacks):
    h = history()
    late = _save_late(h, django_capture_on_commit_callbacks)
    follow("fan-c@example.org", player=h.c)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_delete(tournament=late)
    assert len(mail.outbox) == 1
    assert "gelöscht" in mail.outbox[0].body
    notice = RatingNotice.objects.filter(player=h.c).latest("pk")
    assert notice.tournament_removed and notice.tournament_id is None


def test_per_address_limit(settings, django_capture_on_commit_callbacks):
    settings.FOLLOW_MAILS_PER_ADDRESS = 1
    h = history()
    follow("one@example.org", player=h.c)
    follow("one@example.org", player=h.a)
    _save_late(h, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    sent, _ = digests_send(now=hours_later(1.01))
    assert sent == 1 and len(mail.outbox) == 2


def test_rollback_announces_nothing(django_capture_on_commit_callbacks):
    h = history()
    follow("fan-c@example.org", player=h.c)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        late_tournament(h)
    assert len(callbacks) == 1 and mail.outbox == []  # sent only once the save commits
    assert not RatingNotice.objects.exists()


def test_english_mail(django_capture_on_commit_callbacks):
    h = history()
    subscription = follow("en@example.org", player=h.c)
    subscription.language = "en"
    subscription.save()
    _save_late(h, django_capture_on_commit_callbacks)
    assert "Recalculated" in mail.outbox[0].body
    assert "Neu berechnet" not in mail.outbox[0].body


def test_a_chain_left_to_the_background_is_announced_by_the_job(settings, django_capture_on_commit_callbacks):
    h = history()
    settings.RECALCULATION_BACKGROUND_SECONDS = -1  # the save replays up to its own tournament only
    c_before = Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new
    follow("fan-c@example.org", player=h.c)
    follow("fan-a@example.org", player=h.a)
    with django_capture_on_commit_callbacks(execute=True):
        late_tournament(h)
    c_after = Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new
    assert c_after != c_before  # the job ran (immediate backend)
    assert sorted(m.to[0] for m in mail.outbox) == ["fan-a@example.org", "fan-c@example.org"]
    c_mail = next(m for m in mail.outbox if m.to == ["fan-c@example.org"])
    assert f"DWZ {c_before} → {c_after}" in c_mail.body and "Nachgereichtes Februar-Turnier" in c_mail.body
    # a's revision by the job waits for the next digest: at most one mail an hour
    sent, _ = digests_send(now=hours_later(1.01))
    assert sent == 1 and mail.outbox[-1].to == ["fan-a@example.org"]


def test_a_hidden_player_is_in_no_feed_and_no_mail(client, django_capture_on_commit_callbacks):
    """A player who objected to publication (issue 30, privacy): no feed, no follow form, not in the club's
    feed, and no mail names him, though he is re-rated like everybody else."""
    h = history()
    c_follower = follow("fan-c@example.org", player=h.c)
    club_follower = follow("verein@example.org", club=h.club)
    Player.objects.filter(pk=h.c.pk).update(publication_objection=True)
    _save_late(h, django_capture_on_commit_callbacks)
    assert RatingNotice.objects.filter(player=h.c).exists()  # recorded, in case he withdraws the objection
    assert client.get(reverse("following:player-feed", args=[h.c.key])).status_code == 404
    assert client.get(reverse("following:follow-player", args=[h.c.key])).status_code == 404
    club_body = client.get(reverse("following:club-feed", args=[h.club.zps])).content.decode()
    assert h.c.surname not in club_body
    assert [m.to[0] for m in mail.outbox] == [club_follower.email]  # a's evaluation; nothing of c
    assert h.c.surname not in mail.outbox[0].body
    assert c_follower.email not in {m.to[0] for m in mail.outbox}
