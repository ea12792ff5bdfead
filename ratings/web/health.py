"""``/health/`` for load balancers and monitoring: is the database there and readable?"""

from __future__ import annotations

import logging

from django.db import DatabaseError
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from ratings.models import Tournament

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """200 ``{"status": "ok"}`` when a query on the ratings tables succeeds, else 503 ``{"status": "error"}``.

    The query reads a real table, so a database that is reachable but not migrated counts as down. The
    failure is logged as a warning, not an error: a monitor polling a dead database must not fill the
    admins' mailbox.
    """
    try:
        Tournament.objects.order_by().values_list("pk").first()
    except DatabaseError as exc:
        logger.warning("health check: database unavailable: %s", exc)
        return JsonResponse({"status": "error", "database": "unavailable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
