"""Search: players by name or number (public search, list filters, officer autocomplete), clubs, tournaments.

Names match umlaut-insensitively ("Muller", "Mueller" and "Müller" meet; ``ratings.folding``) through the
stored, indexed search keys (``Player.surname_key``, ``first_name_key``, ``Tournament.name_key``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Case, Exists, IntegerField, OuterRef, Q, QuerySet, Value, When

from ratings.folding import search_key
from ratings.models import Club, Membership, Player, Tournament
from ratings.models.search_keys import search_key_expression
from ratings.selectors.lists import list_rows, primary_clubs

QUERY_MAX_LENGTH = 100
ZPS_MEMBER_RE = re.compile(r"^([0-9A-Za-z]{5})-(\S{1,10})$")  # "C0501-1014": club and member number


def _terms(query: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", search_key(query)) if t]


def _player_q(query: str) -> Q | None:
    """Players matching a query: "Nachname, Vorname", "Vorname Nachname", parts of either, a DSB person id
    (nu id or PKZ), a FIDE id, a player key or "ZPS-Mitgliedsnummer".

    """
    if not query:
        return None
    if "," in query:
        surname, _, first = query.partition(",")
        q = Q()
        if search_key(surname):
            q &= Q(surname_key__startswith=search_key(surname))
        if search_key(first):
            q &= Q(first_name_key__startswith=search_key(first))
        return q
    if re.fullmatch(r"[Nn][Uu][0-9]{1,10}", query):  # a nu person id
        return Q(dsb_id=query.upper()) | Q(key__iexact=query)
    if query.isascii() and query.isdecimal():  # a DSB person id or FIDE id (not "²": isdigit, no int)
        return Q(dsb_id=query) | Q(fide_id=int(query)) | Q(key=query) if len(query) <= 9 else Q(pk__in=[])
    member = ZPS_MEMBER_RE.match(query)
    if member:
        zps, number = member.groups()
        current = Membership.objects.current().filter(
            player=OuterRef("pk"), club__zps__iexact=zps, member_number__iexact=number
        )
        return Q(key__iexact=query) | Q(Exists(current))
    q = Q()
    for term in _terms(query):
        q &= Q(surname_key__contains=term) | Q(first_name_key__contains=term)
    return q | Q(key__iexact=query) if " " not in query else q


def _name_term(query: str) -> str | None:
    """The folded term of a query that ``_player_q`` reads as one name (not a number, key, member number,
    "Nachname, Vorname" or several words), else None."""
    if "," in query or re.fullmatch(r"[Nn][Uu][0-9]{1,10}", query) or ZPS_MEMBER_RE.match(query):
        return None
    if query.isascii() and query.isdecimal():
        return None
    terms = _terms(query)
    return terms[0] if len(terms) == 1 and " " not in query else None


def filter_players(queryset: QuerySet[Player], *, query: str) -> QuerySet[Player]:
    """``queryset`` narrowed to the players matching ``query`` (unchanged for an empty query)."""
    q = _player_q(query.strip()[:QUERY_MAX_LENGTH])
    if q is None:
        return queryset
    return queryset.filter(q)


def players(*, query: str, limit: int, exclude: Iterable[int] = (), published: bool = False) -> list[Player]:
    """Up to ``limit`` players matching ``query``, by name, with the rating list's annotations (club,
    member number); players in ``exclude`` left out (two or three queries). ``published``: only players who
    did not object to publication (the public search: his name must not find him, issue 30 §4)."""
    query = query.strip()[:QUERY_MAX_LENGTH]
    if not query:
        return []
    rows = list_rows()
    if published:
        rows = rows.filter(publication_objection=False)
    exclude = list(exclude)
    if exclude:
        rows = rows.exclude(pk__in=exclude)
    order = ("relevance", "name_sort", "pk")
    ordered = filter_players(rows, query=query).annotate(relevance=_relevance(query)).order_by(*order)
    term = _name_term(query)
    if term:
        # The surnames that equal or begin with the term come first: read them on their own (an index range
        # of the surname key; they all match), and the players who only contain it only when those do not
        # fill the page. A common name ("Müller": in 7,400 of 100,000 players) was a scan of every player.
        starting = Q(surname_key__startswith=term)
        # Players with the page's club columns set on them below (attributes django-stubs cannot see).
        found: list[Any] = list(
            rows.filter(starting).annotate(relevance=_relevance(query)).order_by(*order)[:limit]
        )
        if len(found) < limit:
            found += ordered.exclude(starting)[: limit - len(found)]
    else:
        found = list(ordered[:limit])
    # The clubs of the players found in one query: as correlated subqueries, each row joined every club.
    clubs = primary_clubs(player_ids=[p.pk for p in found])
    for p in found:
        p.club_name, p.club_zps, p.member_number = clubs.get(p.pk, (None, None, None))
    return found


def _relevance(query: str):
    """Surname matches before first-name matches: "Wolf" finds Wolf, then Wolfsberger, then Wolfgang Maier."""
    terms = _terms(query.partition(",")[0]) or [""]
    exact, prefix, inside = Q(), Q(), Q()
    for term in terms:
        exact |= Q(surname_key=term)
        prefix |= Q(surname_key__startswith=term)
        inside |= Q(surname_key__contains=term)
    return Case(
        When(exact, then=Value(0)),
        When(prefix, then=Value(1)),
        When(inside, then=Value(2)),
        default=Value(3),
        output_field=IntegerField(),
    )


def filter_clubs(queryset: QuerySet[Club], *, query: str) -> QuerySet[Club]:
    """Clubs by name (folded, anywhere in it) or ZPS (its beginning)."""
    query = query.strip()[:QUERY_MAX_LENGTH]
    if not query:
        return queryset
    return queryset.annotate(name_key=search_key_expression("name")).filter(
        Q(zps__istartswith=query) | Q(name_key__contains=search_key(query))
    )


def filter_tournaments(queryset: QuerySet[Tournament], *, query: str) -> QuerySet[Tournament]:
    """Tournaments by name (folded, anywhere in it), the beginning of their code, or their place."""
    query = query.strip()[:QUERY_MAX_LENGTH]
    if not query:
        return queryset
    return queryset.filter(
        Q(code__istartswith=query) | Q(name_key__contains=search_key(query)) | Q(place__icontains=query)
    )


@dataclass
class SearchResults:
    query: str
    players: list[Player] = field(default_factory=list)
    clubs: list[Club] = field(default_factory=list)
    tournaments: list[Tournament] = field(default_factory=list)
    more_players: bool = False

    @property
    def empty(self) -> bool:
        return not (self.players or self.clubs or self.tournaments)


def everything(*, query: str, limit: int = 25) -> SearchResults:
    """The search page: players by name or number, clubs by name or ZPS, tournaments by name or code (four
    or five queries)."""
    query = (query or "").strip()[:QUERY_MAX_LENGTH]
    results = SearchResults(query=query)
    if not query:
        return results
    found = players(query=query, limit=limit + 1, published=True)
    results.players, results.more_players = found[:limit], len(found) > limit
    results.clubs = list(
        filter_clubs(Club.objects.select_related("organisation"), query=query).order_by("name_sort", "zps")[
            :limit
        ]
    )
    key = search_key(query)
    results.tournaments = list(
        Tournament.objects.filter(Q(code__istartswith=query) | Q(name_key__contains=key)).order_by(
            "-end_date", "-pk"
        )[:limit]
    )
    return results
