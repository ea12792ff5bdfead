"""The privacy page (``/datenschutz/``): what the site publishes, who is responsible (from the settings,
``DWZ_PRIVACY_*``), and how a player objects to publication (issue 30 §4)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def _lines(text: str) -> list[str]:
    """An address from the environment: lines separated by ``\\n`` (literal or real) or ``;``."""
    text = text.replace("\\n", "\n").replace(";", "\n")
    return [line.strip() for line in text.splitlines() if line.strip()]


def privacy(request: HttpRequest) -> HttpResponse:
    context = {
        "operator_name": settings.PRIVACY_OPERATOR_NAME,
        "operator_address": _lines(settings.PRIVACY_OPERATOR_ADDRESS),
        "operator_email": settings.PRIVACY_OPERATOR_EMAIL,
        "privacy_officer": settings.PRIVACY_OFFICER,
    }
    return render(request, "ratings/public/privacy.html", context)
