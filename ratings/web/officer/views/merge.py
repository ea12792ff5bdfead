"""Officer pages for duplicates: the finder within his scope and the merge of two players, its consequences
shown (a dry run of the merge and the recalculation) before the officer confirms it.

A Wertungsreferent may merge two records only when he may edit both players (both are members of a club in his
scope); staff may merge any two. The merge itself is ``services.merge.players_merge``.
"""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Field
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ratings import permissions
from ratings.models import Player
from ratings.selectors import officer as reads
from ratings.services.merge import MergeCheck, duplicate_candidates, merge_check, players_merge
from ratings.web.officer.presenters import duplicate_rows, merge_url


def _id(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdecimal() and len(value) <= 18 else None


def _scope_players(user):
    """The players the user may edit (None: all of them)."""
    scope = permissions.user_scope(user)
    if scope.is_staff:
        return None
    return reads.players_of_clubs(club_ids=scope.club_ids)


@permissions.officer_required
def duplicates(request: HttpRequest) -> HttpResponse:
    """Likely pairs with at least one player in the officer's scope; mergeable here when both are."""
    players = _scope_players(request.user)
    pairs = duplicate_candidates(players=players)
    allowed = None
    if players is not None:
        pks = {pk for a, b, _reason in pairs for pk in (a.pk, b.pk)}
        allowed = reads.ids_among(players=players, pks=pks)
    return render(request, "ratings/officer/duplicates.html", {"rows": duplicate_rows(pairs, allowed)})


def _window_problem(drop: Player, locked) -> str:
    names = ", ".join(f"{t.name} ({t.end_date:%d.%m.%Y})" for t in locked[:5]) + (
        " …" if len(locked) > 5 else ""
    )
    return " ".join(
        [
            _("Die Zusammenführung schriebe die Einträge von „%(player)s“ in %(tournaments)s um.")
            % {"player": drop, "tournaments": names},
            permissions.outside_window_message(),
            _("„Umgekehrt“ hilft, wenn der andere Datensatz nur in neueren Turnieren spielte."),
        ]
    )


@permissions.officer_required
@require_http_methods(["GET", "POST"])
def merge(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    keep_pk, drop_pk = _id(data.get("keep")), _id(data.get("drop"))
    if keep_pk is None or drop_pk is None:
        return redirect("ratings:officer-duplicates")
    keep = get_object_or_404(Player, pk=keep_pk)
    drop = get_object_or_404(Player, pk=drop_pk)
    if not (
        permissions.can_manage_player(request.user, keep)
        and permissions.can_manage_player(request.user, drop)
    ):
        raise PermissionDenied
    locked = permissions.tournaments_outside_window(request.user, player=drop)
    if locked:  # WO 6.2: the merge would rewrite entries of tournaments he may no longer correct
        check = MergeCheck(problems=[_window_problem(drop, locked)])
    elif request.method == "POST":
        try:
            result = players_merge(keep=keep, drop=drop, user=request.user)
        except ValidationError as exc:
            check = MergeCheck(problems=exc.messages)
        else:
            messages.success(request, result.summary(str(drop)))
            return redirect("ratings:player-detail", result.keep.key)
    else:
        check = merge_check(keep=keep, drop=drop)
    filled = (
        [cast(Field, Player._meta.get_field(name)).verbose_name for name in check.preview.filled]
        if check.preview
        else []
    )
    context = {
        "check": check,
        "filled": filled,
        "keep": keep,
        "drop": drop,
        "swap_url": merge_url(drop, keep),
    }
    return render(
        request,
        "ratings/officer/merge.html",
        context,
        status=403 if locked and request.method == "POST" else 200,
    )
