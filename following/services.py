"""The only code of ``following`` that writes: subscriptions (request, confirm, cancel), the notices a
recalculation leaves and the digest mails.

Mails: at most one per subscription and ``FOLLOW_DIGEST_MINUTES`` (a digest of every notice since the
last one) and at most ``FOLLOW_MAILS_PER_ADDRESS`` per address in that time; what must wait is sent by a
deferred task (``following.tasks.digests_task``). Every mail carries its subscription's one-click
unsubscribe link (in the text and as ``List-Unsubscribe``, RFC 8058).
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Mapping

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F, Max, Value
from django.db.models.functions import Greatest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from ratings.enums import RatingChangeCause
from ratings.models import Club, Evaluation, Membership, Player, Tournament

from .models import NoticeKind, RatingNotice, Subscription
from .tokens import CONFIRM_DAYS, cancel_token, confirm_token


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _cancel_url(subscription: Subscription) -> str:
    return _absolute(reverse("following:cancel", args=[cancel_token(subscription.pk)]))


def _headers(unsubscribe: str) -> dict[str, str]:
    return {
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
    }


def subscription_request(
    *, email: str, player: Player | None = None, club: Club | None = None, language: str = "de"
) -> bool:
    """Ask ``email`` to confirm following ``player`` or ``club`` (one of them). Returns whether a mail was
    sent: none for a subscription already confirmed, none past ``FOLLOW_CONFIRMS_PER_DAY`` unconfirmed
    requests of the address in a day (the caller says the same either way: an address is never told)."""
    if (player is None) == (club is None):
        raise ValueError("subscription_request: give a player or a club")
    email = email.strip()
    local, _, domain = email.rpartition("@")
    email = f"{local}@{domain.lower()}"
    with transaction.atomic():
        subscription, _created = Subscription.objects.get_or_create(
            email=email, player=player, club=club, defaults={"language": language}
        )
        if subscription.confirmed_at is not None:
            return False
        now = timezone.now()
        if subscription.last_mailed_at and now - subscription.last_mailed_at < datetime.timedelta(minutes=10):
            return False  # the same request again: the first mail is on its way
        day_ago = now - datetime.timedelta(days=1)
        recent = Subscription.objects.filter(
            email=email, confirmed_at__isnull=True, last_mailed_at__gte=day_ago
        ).count()
        if recent >= settings.FOLLOW_CONFIRMS_PER_DAY:
            return False
        subscription.language = language
        subscription.last_mailed_at = now
        subscription.save(update_fields=["language", "last_mailed_at"])
    _send(
        subscription,
        "confirm",
        confirm_url=_absolute(reverse("following:confirm", args=[confirm_token(subscription.pk)])),
    )
    return True


def subscription_confirm(*, subscription_id: int) -> Subscription | None:
    """Confirm the subscription (None if it was cancelled since). Its digests start with what follows."""
    subscription = Subscription.objects.filter(pk=subscription_id).first()
    if subscription is None:
        return None
    if subscription.confirmed_at is None:
        latest = RatingNotice.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        subscription.confirmed_at = timezone.now()
        subscription.last_mailed_at = None
        subscription.notified_up_to = latest
        subscription.save(update_fields=["confirmed_at", "last_mailed_at", "notified_up_to"])
    return subscription


def unconfirmed_purge(*, now: datetime.datetime | None = None) -> int:
    """Delete the subscriptions nobody confirmed within the link's validity (their addresses with them)."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=CONFIRM_DAYS)
    deleted, _ = Subscription.objects.filter(confirmed_at__isnull=True, created_at__lt=cutoff).delete()
    return deleted


def subscription_cancel(*, subscription_id: int) -> bool:
    """Delete the subscription (the address goes with it). False if it was gone already."""
    deleted, _ = Subscription.objects.filter(pk=subscription_id).delete()
    return deleted > 0


def notices_record(
    *,
    changes: Mapping[int, tuple[int | None, int | None]],
    tournament_id: int | None,
    tournament_name: str = "",
    tournament_code: str | None = None,
    removed: bool = False,
    chain: bool = False,
    cause: str = RatingChangeCause.TOURNAMENT,
) -> list[RatingNotice]:
    """One notice per player the recalculation concerned: ``evaluated`` for the players of the saved
    tournament, ``revised`` for everyone else whose DWZ it changed (a late, corrected or deleted
    tournament re-evaluated his later ones)."""
    evaluated: dict[int, tuple[int | None, int | None]] = {}
    if tournament_id is not None and not removed and not chain:
        evaluated = {
            pid: (old, new)
            for pid, old, new in Evaluation.objects.filter(tournament_id=tournament_id).values_list(
                "player_id", "dwz_old", "dwz_new"
            )
        }
    source = (
        tournament_id
        if tournament_id is not None and Tournament.objects.filter(pk=tournament_id).exists()
        else None
    )
    known = set(Player.objects.filter(pk__in=set(changes) | set(evaluated)).values_list("pk", flat=True))
    notices = [
        RatingNotice(
            player_id=pid,
            kind=NoticeKind.EVALUATED if pid in evaluated else NoticeKind.REVISED,
            tournament_id=source,
            tournament_name=tournament_name[:200],
            tournament_code=(tournament_code or "")[:40],
            tournament_removed=removed,
            cause=cause if cause in RatingChangeCause.values else RatingChangeCause.TOURNAMENT,
            dwz_old=changes.get(pid, evaluated.get(pid, (None, None)))[0],
            dwz_new=changes.get(pid, evaluated.get(pid, (None, None)))[1],
        )
        for pid in sorted(known)
    ]
    return RatingNotice.objects.bulk_create(notices, batch_size=500)


def followers_move(*, keep: int, drop: int) -> int:
    """Inside a merge's transaction: the dropped player's subscriptions and notices go to the kept player;
    an address that follows both keeps its subscription of the kept one. Returns the subscriptions moved."""
    both = Subscription.objects.filter(player_id=keep).values("email")
    Subscription.objects.filter(player_id=drop, email__in=both).delete()
    # The kept player's older news is not news to his new followers.
    seen = RatingNotice.objects.filter(player_id=keep).aggregate(last=Max("pk"))["last"] or 0
    RatingNotice.objects.filter(player_id=drop).update(player_id=keep)
    return Subscription.objects.filter(player_id=drop).update(
        player_id=keep, notified_up_to=Greatest(F("notified_up_to"), Value(seen))
    )


def _due(subscription: Subscription, now: datetime.datetime) -> datetime.datetime | None:
    """When the subscription may be mailed again, None if now."""
    if subscription.last_mailed_at is None:
        return None
    due = subscription.last_mailed_at + datetime.timedelta(minutes=settings.FOLLOW_DIGEST_MINUTES)
    return due if due > now else None


def _address_full(email: str, now: datetime.datetime) -> datetime.datetime | None:
    """When the address may get its next mail, None if now (``FOLLOW_MAILS_PER_ADDRESS`` per window)."""
    window = datetime.timedelta(minutes=settings.FOLLOW_DIGEST_MINUTES)
    rows = Subscription.objects.filter(email=email, last_mailed_at__gt=now - window)
    recent = sorted(at for at in rows.values_list("last_mailed_at", flat=True) if at is not None)
    if len(recent) < settings.FOLLOW_MAILS_PER_ADDRESS:
        return None
    return recent[0] + window


def _pending(subscription: Subscription) -> list[RatingNotice]:
    # A player who objected to publication is named in no mail, not even to those who followed him before.
    notices = RatingNotice.objects.filter(
        pk__gt=subscription.notified_up_to, player__publication_objection=False
    ).select_related("player")
    if subscription.player_id is not None:
        notices = notices.filter(player_id=subscription.player_id)
    else:
        club = subscription.club_id or 0
        members = Membership.objects.current().filter(club_id=club).values("player_id")
        notices = notices.filter(player_id__in=members)
    return list(notices.order_by("pk")[:200])


def _subscriptions_of(players: Collection[int] | None) -> list[Subscription]:
    confirmed = Subscription.objects.confirmed().select_related("player", "club")
    if players is None:
        return list(confirmed.order_by("pk"))
    players = list(players)
    clubs = Membership.objects.current().filter(player_id__in=players).values("club_id")
    return list(
        (confirmed.filter(player_id__in=players) | confirmed.filter(club_id__in=clubs)).order_by("pk")
    )


def digests_send(
    *, players: Collection[int] | None = None, now: datetime.datetime | None = None
) -> tuple[int, datetime.datetime | None]:
    """Mail every confirmed subscription (of ``players`` and their clubs, or all) its notices since its last
    mail, where its digest time and its address's limit allow. Returns the mails sent and when the
    earliest one held back may go (None if none was)."""
    now = now or timezone.now()
    sent, later = 0, None
    for subscription in _subscriptions_of(players):
        with transaction.atomic():
            locked = Subscription.objects.select_for_update().filter(pk=subscription.pk).first()
            if locked is None:
                continue
            locked.player, locked.club = subscription.player, subscription.club
            notices = _pending(locked)
            if not notices:
                continue
            wait = _due(locked, now) or _address_full(locked.email, now)
            if wait is not None:
                later = wait if later is None else min(later, wait)
                continue
            _send(locked, "digest", notices=notices)
            locked.last_mailed_at = now
            locked.notified_up_to = notices[-1].pk
            locked.save(update_fields=["last_mailed_at", "notified_up_to"])
            sent += 1
    return sent, later


def _send(subscription: Subscription, template: str, **context: object) -> None:
    target = subscription.target
    unsubscribe = _cancel_url(subscription)  # once: a signed link carries its time
    with translation.override(subscription.language):
        context = {
            **context,
            "subscription": subscription,
            "target": target,
            "target_url": _absolute(target.get_absolute_url()),
            "cancel_url": unsubscribe,
            "site_url": settings.SITE_URL,
        }
        subject = render_to_string(f"following/mail/{template}_subject.txt", context)
        body = render_to_string(f"following/mail/{template}.txt", context)
    EmailMessage(
        subject=" ".join(subject.split()),
        body=body,
        to=[subscription.email],
        headers=_headers(unsubscribe),
    ).send()
