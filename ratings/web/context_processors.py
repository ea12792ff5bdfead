"""Template context every page's layout needs."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from ratings import permissions


def officer(request: HttpRequest) -> dict:
    """``user_is_officer``: staff or a Wertungsreferent (the navbar's "Neues Turnier"). Lazy, so that pages
    whose layout does not ask (anonymous visitors) read no scope."""
    user = getattr(request, "user", None)
    return {"user_is_officer": SimpleLazyObject(lambda: user is not None and permissions.is_officer(user))}
