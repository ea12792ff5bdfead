"""Signed links of the mails: confirm a subscription (valid for ``CONFIRM_DAYS``) and cancel it (valid as
long as the subscription exists). Signed with the site's secret, salted per purpose; nothing is stored."""

from __future__ import annotations

from django.core import signing

CONFIRM_DAYS = 7
_CONFIRM = "following.confirm"
_CANCEL = "following.cancel"


def confirm_token(subscription_id: int) -> str:
    return signing.dumps(subscription_id, salt=_CONFIRM)


def cancel_token(subscription_id: int) -> str:
    return signing.dumps(subscription_id, salt=_CANCEL)


def confirmed_id(token: str) -> int | None:
    """The subscription a confirmation link names, or None (forged, mangled or older than a week)."""
    try:
        value = signing.loads(token, salt=_CONFIRM, max_age=CONFIRM_DAYS * 86400)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def cancelled_id(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=_CANCEL)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None
