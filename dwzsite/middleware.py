"""Site-wide response headers and session handling that Django has no setting for."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse

# A logged-in session is written at most this often to push its expiry on (not on every request).
SESSION_REFRESH_SECONDS = 60
SESSION_SEEN_KEY = "_seen"


def permissions_policy(policy: dict[str, list[str]]) -> str:
    """``{"camera": [], "fullscreen": ["self"]}`` → ``camera=(), fullscreen=(self)``."""
    return ", ".join(f"{feature}=({' '.join(allow)})" for feature, allow in policy.items())


class PermissionsPolicyMiddleware:
    """Sets the Permissions-Policy header from ``settings.PERMISSIONS_POLICY``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = permissions_policy(getattr(settings, "PERMISSIONS_POLICY", {}))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.header:
            response.headers.setdefault("Permissions-Policy", self.header)
        return response


class SlidingSessionMiddleware:
    """Idle timeout: a logged-in session expires ``SESSION_COOKIE_AGE`` after its last request.

    Django counts the age from the last time the session was saved. Saving on every request
    (``SESSION_SAVE_EVERY_REQUEST``) would write to the database for every page an officer opens; this saves
    once a minute at most, so the timeout is exact to that minute.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None and SESSION_KEY in session:
            now = int(time.time())
            if now - session.get(SESSION_SEEN_KEY, 0) >= SESSION_REFRESH_SECONDS:
                session[SESSION_SEEN_KEY] = now
        return self.get_response(request)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for login throttling.

    Behind the reverse proxy (``DJANGO_BEHIND_PROXY=True``) REMOTE_ADDR is the proxy's own address; the
    proxy appends the client's address to X-Forwarded-For, so its last entry is the one to trust (earlier
    entries come from the client and can be forged).
    """
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return request.META.get("REMOTE_ADDR")


class RatingLockBusyMiddleware:
    """A write that could not get the rating lock in time (a long import or recalculation runs) answers
    "Bitte gleich noch einmal" (503) instead of a server error. Nothing was saved; the page carries every
    posted field in a form that sends it again unchanged, so no typed input is lost (uploaded files
    cannot be carried and must be chosen again)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from django.shortcuts import render

        from ratings.recalculation import is_lock_timeout

        if not is_lock_timeout(exception):
            return None
        fields = []
        if request.method == "POST":
            fields = [
                (name, value)
                for name, values in request.POST.lists()
                if name != "csrfmiddlewaretoken"
                for value in values
            ]
        response = render(
            request,
            "busy.html",
            {"fields": fields, "had_files": bool(request.FILES), "action": request.get_full_path()},
            status=503,
        )
        response["Retry-After"] = "10"
        return response


def _has_nul(request: HttpRequest) -> bool:
    return any(
        "\x00" in name or any("\x00" in value for value in values) for name, values in request.GET.lists()
    )


class NulByteMiddleware:
    """A NUL byte in a GET parameter (name or value) answers 400 before any view runs; one in the path 404
    (no page has such a name; the path converters refuse it too, this covers the ``str`` ones).

    PostgreSQL refuses NUL in text, so ``/statistik/?verband=%00`` reached the database as a ValueError, a 500
    and a mail to the admins each time (issue 26). No page needs a NUL, so one check here covers every form,
    filter and API parameter. Invalid UTF-8 needs nothing: Django decodes the query string with replacement
    characters.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from django.http import Http404

        if "\x00" in request.path:
            raise Http404  # answered by the 404 page (Django turns a middleware's exception into a response)
        if not _has_nul(request):
            return self.get_response(request)
        from django.http import JsonResponse
        from django.shortcuts import render
        from django.utils.translation import gettext as _

        message = _("Die Adresse enthält ein Nullbyte; so eine Anfrage beantwortet die Seite nicht.")
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse({"error": message, "status": 400}, status=400)
            response["Access-Control-Allow-Origin"] = "*"
            return response
        return render(request, "400.html", {"message": message}, status=400)
