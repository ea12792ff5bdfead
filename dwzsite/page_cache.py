"""The page cache (issue 31): public pages and API answers for anonymous visitors, kept until what they show
changes.

A page is cached when all hold:

- the request is a GET or HEAD of a view whose module is listed in ``settings.PAGE_CACHE_VIEWS`` (public pages
  and the API; never an officer, account, admin or captain page) and not in ``PAGE_CACHE_EXCLUDED_VIEWS``;
- the visitor is anonymous: no session cookie at all (a logged-in user always has one) and no messages cookie;
- the answer is a plain 200 that sets no cookie (no CSRF token handed out, no message stored), has no
  ``Cache-Control`` of its own and is not streamed.

The key holds the ratings generation (``ratings.generation``: bumped in the same transaction as every write
that changes a public page) with the time of its last change, the language, the full path with its query
string (``stichtag``, filters, sorting, page) and the htmx headers (a fragment is not the page). A new
generation makes every old key unreachable: nothing is deleted, old entries expire (``TIMEOUT``) or are
culled.

Each worker process keeps the pages it served last in memory as well (``_LocalPages``, at most
``PAGE_CACHE_LOCAL_BYTES``), in front of the shared cache: a key names one generation's page, so a local
copy is never stale, and the busiest pages (a 190 kB card) are not read and decoded from the database cache
on every request. The generation itself is read on every request, as before.

Every answer of a cacheable request carries an ``ETag`` and ``Last-Modified`` from the generation (only the
ETag answers 304: ``_Page.not_modified``), and
``Cache-Control: public, max-age=60, stale-while-revalidate=300`` (``PAGE_CACHE_MAX_AGE``,
``PAGE_CACHE_STALE_WHILE_REVALIDATE``): a club website polling the API, or a browser coming back, asks with
``If-None-Match`` and gets ``304 Not Modified`` without a page rendered.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_etags

from ratings.generation import current_generation

logger = logging.getLogger(__name__)
_STATE = "_page_cache"
# Request headers a view may answer differently on (htmx fragments); part of the key.
_HTMX_HEADERS = (
    "HTTP_HX_REQUEST",
    "HTTP_HX_TARGET",
    "HTTP_HX_TRIGGER",
    "HTTP_HX_TRIGGER_NAME",
    "HTTP_HX_BOOSTED",
)
_VARY = ("Accept-Language", "Cookie", "HX-Request", "HX-Target")
# Headers of a stored page that belong to the one answer, not to the page.
_UNSTORED = {"set-cookie", "date", "etag", "last-modified", "cache-control", "vary", "expires"}


class _LocalPages:
    """A process's own copies of pages of the shared cache, the least recently used dropped first once their
    bytes pass ``settings.PAGE_CACHE_LOCAL_BYTES`` (0: none kept)."""

    def __init__(self) -> None:
        self._pages: OrderedDict[str, tuple[bytes, list[tuple[str, str]]]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # runserver and threaded workers serve requests side by side

    def get(self, key: str) -> tuple[bytes, list[tuple[str, str]]] | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def set(self, key: str, page: tuple[bytes, list[tuple[str, str]]]) -> None:
        limit = settings.PAGE_CACHE_LOCAL_BYTES
        size = len(page[0])
        if size * 8 > limit:  # nothing kept, or one page would push out most of the others
            return
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= len(old[0])
            self._pages[key] = page
            self._bytes += size
            while self._bytes > limit:
                _key, dropped = self._pages.popitem(last=False)
                self._bytes -= len(dropped[0])

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self._bytes = 0


local_pages = _LocalPages()


class _Page:
    """What one cacheable request knows: its key, ETag and Last-Modified."""

    def __init__(self, request: HttpRequest) -> None:
        generation, changed_at = current_generation()
        parts = [
            generation,
            # A generation's number alone could come again (a database restored from a backup); its time not.
            changed_at.isoformat() if changed_at is not None else "",
            getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE),
            # Pages and API answers hold absolute links (the API's ``url``s): per host and scheme.
            request.scheme,
            request.get_host(),
            request.get_full_path(),
            *(request.META.get(name, "") for name in _HTMX_HEADERS),
        ]
        digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]
        self.key = f"page:{digest}"
        self.etag = f'"{generation}-{digest[:16]}"'
        self.last_modified = changed_at.timestamp() if changed_at is not None else None
        self.hit = False

    def headers(self, response: HttpResponse) -> HttpResponse:
        response["ETag"] = self.etag
        if self.last_modified is not None:
            response["Last-Modified"] = http_date(self.last_modified)
        response["Cache-Control"] = (
            f"public, max-age={settings.PAGE_CACHE_MAX_AGE}, "
            f"stale-while-revalidate={settings.PAGE_CACHE_STALE_WHILE_REVALIDATE}"
        )
        patch_vary_headers(response, _VARY)
        return response

    def not_modified(self, request: HttpRequest) -> bool:
        """The client's copy is current: its ETag matches. ``If-Modified-Since`` alone never answers 304:
        ``Last-Modified`` has whole seconds, and two generations in one second would leave a client with the
        older page for good; it is sent for information (and for caches that compare it)."""
        etags = parse_etags(request.META.get("HTTP_IF_NONE_MATCH") or "")
        return "*" in etags or self.etag in etags or f"W/{self.etag}" in etags


def _public_view(view_func: Callable[..., Any]) -> bool:
    view = getattr(view_func, "view_class", view_func)
    module = getattr(view, "__module__", "") or ""

    def within(prefixes: list[str]) -> bool:
        return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)

    return within(settings.PAGE_CACHE_VIEWS) and not within(settings.PAGE_CACHE_EXCLUDED_VIEWS)


def _anonymous(request: HttpRequest) -> bool:
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def _storable(request: HttpRequest, response: HttpResponse) -> bool:
    return (
        request.method == "GET"
        and response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not response.has_header("Cache-Control")
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


class PageCacheMiddleware:
    """Serves and stores the public pages of anonymous visitors (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        page: _Page | None = getattr(request, _STATE, None)
        if page is None or page.hit:
            return response
        if _storable(request, response):
            headers = [(name, value) for name, value in response.items() if name.lower() not in _UNSTORED]
            local_pages.set(page.key, (response.content, headers))
            try:
                caches[settings.PAGE_CACHE_ALIAS].set(page.key, (response.content, headers))
            except Exception:  # a cache that fails (Redis away, no table) costs speed, not the page
                logger.warning("page cache: storing %s failed", request.path, exc_info=True)
            return page.headers(response)
        return response

    def process_view(
        self, request: HttpRequest, view_func: Callable[..., Any], view_args: Any, view_kwargs: Any
    ) -> HttpResponse | None:
        if not settings.PAGE_CACHE or request.method not in ("GET", "HEAD"):
            return None
        if not _public_view(view_func) or not _anonymous(request):
            return None
        page = _Page(request)
        setattr(request, _STATE, page)
        # Templates leave the CSRF token out of a page every anonymous visitor may get (templates/base.html).
        request.page_cacheable = True  # type: ignore[attr-defined]
        if page.not_modified(request):
            page.hit = True
            return page.headers(HttpResponseNotModified())
        stored = local_pages.get(page.key)
        if stored is None:
            try:
                stored = caches[settings.PAGE_CACHE_ALIAS].get(page.key)
            except Exception:  # as above: the page is rendered
                logger.warning("page cache: reading %s failed", request.path, exc_info=True)
                stored = None
            if stored is None:
                return None
            local_pages.set(page.key, stored)
        page.hit = True
        content, headers = stored
        response = HttpResponse(content)
        for name, value in headers:
            response[name] = value
        return page.headers(response)
