"""Downloads of the rating list in the DSB's shapes and for Swiss-Chess (officers in scope and staff)."""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse

from ratings.models import Club, Organisation
from ratings.permissions import officer_required, user_scope
from ratings.selectors.dsb_list import list_zip, swiss_chess_zip

FORMATS = {"csv": "csv", "dos": "dos", "swiss-chess": "swisschess"}


@officer_required
def dsb_list_download(request: HttpRequest, scope: str, code: str, fmt: str) -> HttpResponse:
    """``scope`` is ``verein`` (a ZPS), ``verband`` (a code) or ``alle`` (code ``000``: staff only)."""
    if fmt not in FORMATS:
        raise Http404
    officer = user_scope(request.user)
    club = organisation = None
    if scope == "verein":
        club = Club.objects.filter(zps=code.upper()[:5]).first()
        if club is None:
            raise Http404
        if not officer.is_staff and club.pk not in officer.club_ids:
            raise PermissionDenied
    elif scope == "verband":
        organisation = Organisation.objects.filter(code=code.upper()[:3]).first()
        if organisation is None:
            raise Http404
        if not officer.is_staff and organisation.pk not in officer.organisation_ids:
            raise PermissionDenied
    elif scope != "alle" or not officer.is_staff:
        raise PermissionDenied if scope == "alle" else Http404
    today = datetime.date.today()
    if fmt == "swiss-chess":
        data = swiss_chess_zip(club=club, organisation=organisation, date=today)
    else:
        data = list_zip(club=club, organisation=organisation, dos=fmt == "dos", date=today)
    label = club.zps if club else organisation.code if organisation else "alle"
    name = f"dwz-{label}-{FORMATS[fmt]}-{today:%Y%m%d}.zip"
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
