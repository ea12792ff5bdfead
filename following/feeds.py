"""Atom feeds of a player and of a club (its current members): new evaluations and revisions.

An evaluation is an item of its own (dated by its tournament's end); a revision is a ``RatingNotice`` of
kind ``revised``: a late, corrected or deleted tournament changed the player's DWZ (before → after, which
tournament). Newest first, ``ITEMS`` of them."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from ratings.models import Club, Evaluation, Membership, Player
from ratings.selectors import clubs, players

from .models import NoticeKind, RatingNotice

ITEMS = 30


@dataclass(frozen=True, slots=True)
class FeedItem:
    guid: str
    title: str
    description: str
    link: str
    date: datetime.datetime


def _dwz(value: int | None) -> str:
    return "–" if value is None else str(value)


def _at_noon(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(12), tzinfo=timezone.get_current_timezone())


def _evaluation_items(player_ids: Iterable[int], *, with_name: bool) -> list[FeedItem]:
    rows = (
        Evaluation.objects.filter(player_id__in=player_ids)
        .select_related("tournament", "player")
        .order_by("-end_date", "-tournament_id")[:ITEMS]
    )
    items = []
    for row in rows:
        who = f"{row.player.name}: " if with_name else ""
        items.append(
            FeedItem(
                guid=f"evaluation-{row.tournament_id}-{row.player_id}",
                title=_("%(who)s%(tournament)s ausgewertet: DWZ %(old)s → %(new)s")
                % {
                    "who": who,
                    "tournament": row.tournament.name,
                    "old": _dwz(row.dwz_old),
                    "new": _dwz(row.dwz_new),
                },
                description=_("%(points)s aus %(games)s Partien, Leistung %(performance)s")
                % {"points": row.points, "games": row.n, "performance": _dwz(row.performance)},
                link=reverse("ratings:tournament-detail", args=[row.tournament_id]),
                date=_at_noon(row.end_date),
            )
        )
    return items


def _revision_items(player_ids: Iterable[int], *, with_name: bool) -> list[FeedItem]:
    rows = (
        RatingNotice.objects.filter(player_id__in=player_ids, kind=NoticeKind.REVISED)
        .select_related("player")
        .order_by("-created_at", "-pk")[:ITEMS]
    )
    items = []
    for notice in rows:
        who = f"{notice.player.name}: " if with_name else ""
        because = notice.reason()
        items.append(
            FeedItem(
                guid=f"revision-{notice.pk}",
                title=_("%(who)sDWZ neu berechnet: %(old)s → %(new)s")
                % {"who": who, "old": _dwz(notice.dwz_old), "new": _dwz(notice.dwz_new)},
                description=because,
                link=notice.player.get_absolute_url(),
                date=notice.created_at,
            )
        )
    return items


class _RatingFeed(Feed):
    feed_type = Atom1Feed

    def items(self, obj):
        ids = self.player_ids(obj)
        with_name = isinstance(obj, Club)
        merged = _evaluation_items(ids, with_name=with_name) + _revision_items(ids, with_name=with_name)
        return sorted(merged, key=lambda item: item.date, reverse=True)[:ITEMS]

    def player_ids(self, obj) -> Iterable[int]:
        raise NotImplementedError

    def item_title(self, item: FeedItem) -> str:
        return item.title

    def item_description(self, item: FeedItem) -> str:
        return item.description

    def item_link(self, item: FeedItem) -> str:
        return item.link

    def item_guid(self, item: FeedItem) -> str:
        return item.guid

    item_guid_is_permalink = False

    def item_pubdate(self, item: FeedItem) -> datetime.datetime:
        return item.date

    def item_updateddate(self, item: FeedItem) -> datetime.datetime:
        return item.date


class PlayerFeed(_RatingFeed):
    def get_object(self, request: HttpRequest, key: str) -> Player:
        player = players.player(key=key)
        # A player who objected to publication has no public feed (issue 30, privacy).
        if player is None or player.publication_objection:
            raise Http404(_("Diesen Spieler gibt es nicht."))
        return player

    def player_ids(self, obj: Player) -> Iterable[int]:
        return [obj.pk]

    def title(self, obj: Player) -> str:
        return _("DWZ von %(name)s") % {"name": obj.name}

    def link(self, obj: Player) -> str:
        return obj.get_absolute_url()

    def subtitle(self, obj: Player) -> str:
        return _("Neue Auswertungen und Neuberechnungen")


class ClubFeed(_RatingFeed):
    def get_object(self, request: HttpRequest, zps: str) -> Club:
        club = clubs.club(zps=zps)
        if club is None:
            raise Http404(_("Diesen Verein gibt es nicht."))
        return club

    def player_ids(self, obj: Club) -> Iterable[int]:
        # a subquery, not a list: a large club's members stay in the database
        # without the members who objected to publication
        members = Membership.objects.current().filter(club=obj, player__publication_objection=False)
        return members.values_list("player_id", flat=True)

    def title(self, obj: Club) -> str:
        return _("DWZ der Mitglieder von %(name)s") % {"name": obj.name}

    def link(self, obj: Club) -> str:
        return obj.get_absolute_url()

    def subtitle(self, obj: Club) -> str:
        return _("Neue Auswertungen und Neuberechnungen")
