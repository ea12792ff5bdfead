"""Admin pages for duplicates: the finder and the merge of two players with its consequences shown first."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.models import Player
from ratings.services.merge import MergeCheck, duplicate_candidates, merge_check, players_merge


def _id(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdecimal() and len(value) <= 18 else None


@admin.action(description=gettext_lazy("Zwei Spieler zusammenführen …"))
def merge_players_action(modeladmin, request, queryset):
    players = list(queryset.order_by("pk")[:3])
    if len(players) != 2:
        modeladmin.message_user(request, _("Bitte genau zwei Spieler auswählen."), messages.WARNING)
        return None
    keep, drop = sorted(players, key=lambda p: (p.dsb_id is None, p.pk))
    url = reverse("admin:ratings_player_merge") + "?" + urlencode({"keep": keep.pk, "drop": drop.pk})
    return HttpResponseRedirect(url)


def urls(model_admin) -> list:
    site = model_admin.admin_site
    return [
        path(
            "zusammenfuehren/",
            site.admin_view(lambda r: merge_view(model_admin, r)),
            name="ratings_player_merge",
        ),
        path(
            "dubletten/",
            site.admin_view(lambda r: duplicates_view(model_admin, r)),
            name="ratings_player_duplicates",
        ),
    ]


def _allowed(model_admin, request) -> bool:
    return model_admin.has_change_permission(request) and model_admin.has_delete_permission(request)


def merge_view(model_admin, request):
    if not _allowed(model_admin, request):
        return HttpResponse(status=403)
    data = request.POST if request.method == "POST" else request.GET
    keep_pk, drop_pk = _id(data.get("keep")), _id(data.get("drop"))
    if keep_pk is None or drop_pk is None:
        return HttpResponseRedirect(reverse("admin:ratings_player_duplicates"))
    keep, drop = get_object_or_404(Player, pk=keep_pk), get_object_or_404(Player, pk=drop_pk)
    if request.method == "POST":
        try:
            result = players_merge(keep=keep, drop=drop, user=request.user)
        except ValidationError as exc:
            check = MergeCheck(problems=exc.messages)
        else:
            messages.success(request, result.summary(str(drop)))
            return HttpResponseRedirect(reverse("admin:ratings_player_change", args=[keep.pk]))
    else:
        check = merge_check(keep=keep, drop=drop)
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Spieler zusammenführen"),
        "opts": model_admin.model._meta,
        "keep": keep,
        "drop": drop,
        "problems": check.problems,
        "preview": check.preview,
        "changes": check.changes,
        "tournaments": check.tournaments,
        "swap_url": reverse("admin:ratings_player_merge")
        + "?"
        + urlencode({"keep": drop.pk, "drop": keep.pk}),
    }
    return TemplateResponse(request, "admin/ratings/player/merge.html", context)


def duplicates_view(model_admin, request):
    if not _allowed(model_admin, request):
        return HttpResponse(status=403)
    pairs = duplicate_candidates()
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Mögliche Dubletten"),
        "opts": model_admin.model._meta,
        "pairs": [
            (
                a,
                b,
                reason,
                reverse("admin:ratings_player_merge") + "?" + urlencode({"keep": a.pk, "drop": b.pk}),
            )
            for a, b, reason in pairs
        ],
    }
    return TemplateResponse(request, "admin/ratings/player/duplicates.html", context)
