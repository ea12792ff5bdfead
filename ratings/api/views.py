"""Read-only JSON API for club websites (documented in docs/api.md). Values come from stored rows only."""

from __future__ import annotations

import datetime
from functools import wraps
from typing import overload

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from ratings import age_classes
from ratings.api.schema import openapi
from ratings.models import Club
from ratings.selectors import clubs, lists, players, tournaments
from ratings.web.public.forms import stichtag_from
from ratings.web.throttle import throttle


def _json(data) -> JsonResponse:
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"  # public data, meant for club websites
    return response


def _error(status: int, message: str) -> JsonResponse:
    response = _json({"error": message, "status": status})
    response.status_code = status
    return response


ALLOWED_METHODS = "GET, HEAD, OPTIONS"
# The request headers a preflight may ask for: what browsers' fetch sends beyond the simple ones.
ALLOWED_HEADERS = "Accept, Accept-Language, Content-Language, Content-Type, If-None-Match, If-Modified-Since"
PREFLIGHT_MAX_AGE = 86400


def _preflight() -> HttpResponse:
    """The answer to ``OPTIONS`` (a browser's CORS preflight, or a client asking what is allowed)."""
    response = HttpResponse(status=204)
    response["Allow"] = ALLOWED_METHODS
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Allow-Methods"] = ALLOWED_METHODS
    response["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
    response["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
    return response


def method_answer(request: HttpRequest) -> HttpResponse | None:
    """The answer to a method other than GET and HEAD: ``OPTIONS`` the preflight, any other a JSON 405 with
    ``Allow`` and the CORS header; None for GET and HEAD."""
    if request.method in ("GET", "HEAD"):
        return None
    if request.method == "OPTIONS":
        return _preflight()
    response = _error(405, "method not allowed: GET and HEAD only")
    response["Allow"] = ALLOWED_METHODS
    return response


def api_view(view):
    """GET and HEAD (HEAD: the GET's headers, Content-Length included, without the body); OPTIONS the CORS
    preflight; another method is a JSON 405 (never the CSRF page: the API takes no writes, so it is exempt),
    an unknown object a JSON 404, more than ``API_LIMIT`` requests of one address in ``API_WINDOW`` seconds a
    JSON 429 with ``Retry-After``; all with the CORS header."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method == "OPTIONS":  # a preflight is not a request for data: not counted
            return _preflight()
        wait = throttle(request, scope="api", limit=settings.API_LIMIT, window=settings.API_WINDOW)
        if wait is not None:
            response = _error(
                429, f"too many requests: at most {settings.API_LIMIT} in {settings.API_WINDOW} s per address"
            )
            response["Retry-After"] = str(wait)
            return response
        answer = method_answer(request)
        if answer is not None:
            return answer
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            response = _error(404, "not found")
        if request.method == "HEAD":
            length = len(response.content)
            response.content = b""
            response["Content-Length"] = str(length)
        return response

    return csrf_exempt(wrapper)


@api_view
def not_found(request: HttpRequest, *args, **kwargs) -> JsonResponse:
    """Every other path under /api/: a JSON 404, not the HTML error page."""
    raise Http404


@api_view
def openapi_json(request: HttpRequest) -> JsonResponse:
    return _json(openapi())


@csrf_exempt
def index(request: HttpRequest) -> HttpResponse:
    """The human page of the API: what it offers, and the link to its OpenAPI description (other methods
    are answered as on every API path)."""
    answer = method_answer(request)
    if answer is not None:
        return answer
    return render(request, "ratings/public/api_index.html", {"paths": openapi()["paths"]})


def _num(value):
    """Decimals as JSON numbers (4.5, 3.663); None stays null."""
    if value is None:
        return None
    return (
        int(value) if value == value.to_integral_value() and value.as_tuple().exponent >= 0 else float(value)
    )


@overload
def _club(club: Club) -> dict: ...
@overload
def _club(club: None) -> None: ...
def _club(club: Club | None) -> dict | None:
    if club is None:
        return None
    return {"zps": club.zps, "name": club.name}


def _player_summary(player) -> dict:
    """A player as the API shows him: without name and personal data after an objection to publication,
    the age class instead of the birth year under 18 (issue 30 §4)."""
    year = datetime.date.today().year
    youth = age_classes.age_class(player.birth_year, year=year)
    hidden = player.publication_objection
    return {
        "key": player.key,
        "name": player.public_name,
        "published": not hidden,
        "surname": None if hidden else player.surname,
        "first_name": None if hidden else player.first_name,
        "sex": None if hidden else player.sex or None,
        "birth_year": None if hidden or youth else player.birth_year,
        "age_class": None if hidden else youth,
        "dwz": player.dwz,
        "index": player.index,
        "fide_id": None if hidden else player.fide_id,
        "fide_elo": None if hidden else player.fide_elo,
        "fide_title": None if hidden else player.fide_title or None,
        "status": player.status,
        "last_evaluated": player.last_evaluated.isoformat() if player.last_evaluated else None,
    }


class BadParameter(Exception):
    """A query parameter the API cannot read: a JSON 400 that names it."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(message)
        self.parameter = parameter
        self.message = message


def _stichtag(request: HttpRequest):
    """``?stichtag=YYYY-MM-DD`` (or DD.MM.YYYY): the day whose values to give; None: today's."""
    day, form = stichtag_from(request.GET)
    if form.errors:
        raise BadParameter(
            "stichtag", "stichtag: not a date; expected YYYY-MM-DD (e.g. 2026-08-01) or DD.MM.YYYY"
        )
    return day


def _bad_parameter(error: BadParameter) -> JsonResponse:
    response = _json({"error": error.message, "parameter": error.parameter, "status": 400})
    response.status_code = 400
    return response


@api_view
def player(request: HttpRequest, key: str) -> HttpResponse:
    try:
        stichtag = _stichtag(request)
    except BadParameter as error:
        return _bad_parameter(error)
    player = players.player(key=key)
    if player is None:
        kept = players.merged_into(key=key)
        if kept is None:
            raise Http404
        # Merged into another record: a permanent redirect to him (with the CORS header, so that a club
        # website's fetch follows it).
        target = reverse("ratings:api-player", args=[kept])
        query = request.META.get("QUERY_STRING", "")
        response = HttpResponsePermanentRedirect(f"{target}?{query}" if query else target)
        response["Access-Control-Allow-Origin"] = "*"
        return response
    rows = players.history(player=player)
    if stichtag is not None:
        # The player as he stood on the Stichtag: his history up to it and the values after it.
        rows = players.up_to(rows, stichtag)
        value = players.value_after(rows)
        player.dwz, player.index, player.last_evaluated = value.dwz, value.index, value.last_evaluated
    history = []
    for row in rows:
        ev, adj = row.evaluation, row.adjustment
        item: dict[str, object] = {
            "number": row.number,
            "date": row.date.isoformat() if row.date else None,
            "type": row.kind,
        }
        if ev is not None:
            item.update(
                tournament={"id": ev.tournament_id, "name": ev.tournament.name, "code": ev.tournament.code},
                edition=ev.edition,
                status=ev.status,
                dwz_old=ev.dwz_old,
                index_old=ev.index_old,
                points=_num(ev.points),
                games=ev.n,
                expected=_num(ev.expected),
                coefficient=_num(ev.coefficient),
                level=ev.level,
                performance=ev.performance,
                dwz_new=ev.dwz_new,
                index_new=ev.index_new,
            )
        else:
            assert adj is not None, "a history row is an evaluation or an adjustment"
            item.update(kind=adj.kind, dwz_new=adj.dwz, index_new=adj.index, fide_elo=adj.fide_elo)
        history.append(item)
    data = _player_summary(player)
    if player.publication_objection:  # neither history nor clubs (issue 30 §4)
        history = []
    data["memberships"] = (
        []
        if player.publication_objection
        else [
            {"club": _club(m.club), "member_number": m.member_number}
            for m in player.memberships.all()
            if m.current
        ]
    )
    data["history"] = history
    if stichtag is not None:
        data["stichtag"] = stichtag.isoformat()
    return _json(data)


@api_view
def club_players(request: HttpRequest, zps: str) -> JsonResponse:
    try:
        stichtag = _stichtag(request)
    except BadParameter as error:
        return _bad_parameter(error)
    club = clubs.club(zps=zps)
    if club is None:
        raise Http404
    members = lists.rating_list(stichtag=stichtag).in_club(club)
    if request.GET.get("aktiv") in ("1", "true", "ja"):
        members = members.active()
    ranked = list(lists.ranked(members))
    if stichtag is not None:
        lists.stichtag_rows(ranked, stichtag=stichtag)
    data = {
        "club": {
            **_club(club),
            "organisation": {"code": club.organisation.code, "name": club.organisation.name},
        },
        "players": [
            # ``rank`` is lists.ranked's window annotation, which django-stubs does not see on Player
            {"rank": p.rank if p.dwz is not None else None, **_player_summary(p)}  # type: ignore[attr-defined]
            for p in ranked
        ],
    }
    if stichtag is not None:
        data["stichtag"] = stichtag.isoformat()
    return _json(data)


def _evaluation(ev) -> dict | None:
    """A stored evaluation of a tournament's player (None: not evaluated)."""
    if ev is None:
        return None
    return {
        "status": ev.status,
        "dwz_old": ev.dwz_old,
        "index_old": ev.index_old,
        "points": _num(ev.points),
        "games": ev.n,
        "expected": _num(ev.expected),
        "coefficient": _num(ev.coefficient),
        "level": ev.level,
        "performance": ev.performance,
        "dwz_new": ev.dwz_new,
        "index_new": ev.index_new,
    }


def _game_line(line) -> dict:
    return {
        "round": line.round,
        "opponent": line.opponent.player.key if line.opponent else None,
        "colour": {"w": "white", "s": "black"}.get(line.colour),
        "result": line.result,
        "points": _num(line.points),
        "counted": line.counted,
        "opponent_rating": line.opponent_rating,
    }


def _tournament_player(row) -> dict:
    return {
        "number": row.number,
        "key": row.player.key,
        "name": row.player.public_name,
        "club": _club(row.club),
        "points": _num(row.points),
        "evaluation": _evaluation(row.evaluation),
        "games": [_game_line(line) for line in row.lines],
    }


@api_view
def tournament(request: HttpRequest, pk: int) -> JsonResponse:
    t = tournaments.tournament(pk=pk)
    if t is None:
        raise Http404
    view = tournaments.tournament_view(tournament=t)
    organiser = t.organiser
    return _json(
        {
            "id": t.pk,
            "code": t.code,
            "name": t.name,
            "place": t.place,
            "start_date": t.start_date.isoformat(),
            "end_date": t.end_date.isoformat(),
            "rounds": t.rounds,
            "organiser": str(organiser) if organiser else None,
            "rated": t.rated,
            "edition": next((r.evaluation.edition for r in view.rows if r.evaluation), None),
            "round_robin": view.round_robin,
            "players": [_tournament_player(row) for row in view.rows],
        }
    )
