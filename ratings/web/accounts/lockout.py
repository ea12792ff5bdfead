"""The page for a login refused after too many wrong passwords (django-axes' lockout response)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def login_locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict | None = None
) -> HttpResponse:
    """The login page with the lockout message instead of the form, as 429 Too Many Requests.

    Used for /anmelden/ and /admin/login/ alike (axes' middleware replaces the login view's answer).
    """
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {"locked_out": True, "cooloff_minutes": minutes}
    return render(request, "registration/login.html", context, status=429)
