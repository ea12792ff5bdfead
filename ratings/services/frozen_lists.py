"""Frozen lists (Stichtagslisten): an officer or admin freezes the rating list of his area as of a day.

The rows are the live list at the Stichtag (``selectors.lists.rating_list(stichtag=…)``), read under the
rating lock so no recalculation runs between the values and their ranks, and stored once: nothing
recalculates them. What a later recalculation revised is read beside them (``selectors.frozen_lists``).
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ratings.models import Club, FrozenList, FrozenListRow, Organisation
from ratings.permissions import user_scope
from ratings.recalculation import lock_ratings
from ratings.selectors import lists
from ratings.selectors import stichtag as at

from . import audit

if TYPE_CHECKING:
    from .audit import Actor


def _check_area(user: Actor, *, organisation: Organisation | None, club: Club | None) -> None:
    scope = user_scope(user)
    if scope.is_staff:
        return
    if club is not None and club.pk in scope.club_ids:
        return
    if organisation is not None and organisation.pk in scope.organisation_ids:
        return
    raise PermissionDenied(_("Diese Liste liegt außerhalb Ihres Bereichs."))


def frozen_list_create(
    *,
    user: Actor,
    name: str,
    stichtag: datetime.date,
    organisation: Organisation | None = None,
    club: Club | None = None,
) -> FrozenList:
    """Freeze the list of ``club`` or ``organisation`` (and below; neither: all, staff only) as of
    ``stichtag`` under ``name``: every current member with his DWZ-Index, rank and last evaluation at that
    day, his primary club, and the tournament his value came from."""
    if organisation is not None and club is not None:
        raise ValidationError(_("Entweder ein Verein oder ein Verband."))
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("Bitte einen Namen angeben.")})
    _check_area(user, organisation=organisation, club=club)
    with transaction.atomic():
        lock_ratings()
        rows = lists.list_rows(stichtag=stichtag)
        if club is not None:
            rows = rows.in_club(club)
        elif organisation is not None:
            rows = rows.in_organisation(organisation)
        players = list(rows)
        lists.stichtag_rows(players, stichtag=stichtag)
        ranks = lists.ranks(rows)
        clubs = lists.primary_clubs(player_ids=[p.pk for p in players])
        came_from = at.sources(player_ids=[p.pk for p in players], day=stichtag)
        frozen = FrozenList.objects.create(
            name=name,
            stichtag=stichtag,
            organisation=organisation,
            club=club,
            created_by=audit.stored_user(user=user),
        )
        FrozenListRow.objects.bulk_create(
            [
                FrozenListRow(
                    frozen_list=frozen,
                    player=p,
                    position=position,
                    rank=ranks.get(p.dwz) if p.dwz is not None else None,
                    key=p.key,
                    surname=p.surname,
                    first_name=p.first_name,
                    club_name=clubs.get(p.pk, ("", "", ""))[0] or "",
                    club_zps=clubs.get(p.pk, ("", "", ""))[1] or "",
                    birth_year=p.birth_year,
                    sex=p.sex,
                    dwz=p.dwz,
                    index=p.index,
                    fide_elo=p.fide_elo,
                    fide_title=p.fide_title,
                    fide_id=p.fide_id,
                    fide_federation=p.fide_federation,
                    last_evaluated=p.last_evaluated,
                    source_id=came_from.get(p.pk) if p.dwz is not None else None,
                )
                for position, p in enumerate(players, start=1)
            ],
            batch_size=2000,
        )
    return frozen
