"""Request limits per client address: a fixed window counted in Django's cache (issue 26).

Used by the password reset form (each POST may send a mail) and the JSON API. The client address is the one
the login lockout (django-axes) uses, ``dwzsite.middleware.client_ip``: behind the proxy the last
``X-Forwarded-For`` entry. The counts live in the ``throttle`` cache (``settings.THROTTLE_CACHE``), a database
table by default, so every gunicorn worker sees the same count; a per-process cache would multiply the limit
by the number of workers. Two requests that arrive together may both read the same count (the
count is read, then written): the limit holds to within the requests in flight.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError
from django.http import HttpRequest

from dwzsite.middleware import client_ip

logger = logging.getLogger(__name__)

now = time.time  # the clock (tests move it)


def throttle(request: HttpRequest, *, scope: str, limit: int, window: int) -> int | None:
    """Count this request of its client in ``scope``: ``None`` while at most ``limit`` requests fell into the
    current ``window`` (seconds), else the seconds until the window ends (for ``Retry-After``). A limit of 0
    switches the throttle off."""
    if limit <= 0 or window <= 0:
        return None
    moment = now()
    number = int(moment // window)
    key = f"throttle:{scope}:{client_ip(request) or '-'}:{number}"
    cache = caches[settings.THROTTLE_CACHE]
    try:  # get and set, not add and incr: half the queries, and the database cache's incr is no safer
        count = cache.get(key, 0) + 1
        cache.set(key, count, timeout=window + 1)
    except DatabaseError:
        # No cache table (``manage.py createcachetable`` not run): serve rather than fail every request.
        logger.warning("throttle: cache %s unavailable", settings.THROTTLE_CACHE, exc_info=True)
        return None
    if count <= limit:
        return None
    return max(1, int((number + 1) * window - moment + 0.999))
