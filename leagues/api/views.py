"""``GET /api/divisions/<id>``: a division's table and rounds with their boards; ``…/table``: the table alone
for club websites. GET and HEAD, throttled, CORS open, JSON 404 for an unknown id (``ratings.api``'s
``api_view``); the values come from ``leagues.selectors`` and the pure core, board points as numbers (4.5)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, JsonResponse

from leagues.core.table import match_score
from leagues.selectors import divisions
from ratings.api.views import api_view


def _json(data: dict[str, Any]) -> JsonResponse:
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"  # public data, meant for club websites
    return response


def _points(halves: int) -> int | float:
    return halves // 2 if halves % 2 == 0 else halves / 2


def _data(pk: int, *, players: bool = False) -> divisions.DivisionData:
    data = divisions.division_data(pk=pk, players=players)
    if data is None:
        raise Http404
    return data


def _head(data: divisions.DivisionData) -> dict[str, Any]:
    return {
        "id": data.division.pk,
        "name": data.division.name,
        "season": data.division.season.name,
        "table": [
            {
                "rank": row.rank,
                "team": data.teams_by_id[row.team].name,
                "match_points": row.match_points,
                "board_points": _points(row.board_points),
                "played": row.played,
            }
            for row in data.table
        ],
    }


def _name(player) -> str | None:
    return None if player is None else player.public_name


def _match(data: divisions.DivisionData, match, core) -> dict[str, Any]:
    d = data.division
    score = match_score(core, d.boards, d.match_points)
    return {
        "home": match.home.name,
        "away": match.away.name if match.away is not None else None,
        "date": match.date.isoformat(),
        "status": match.status,
        "board_points": None if score is None else [_points(score.home_halves), _points(score.away_halves)],
        "boards": [
            {
                "board": b.number,
                "home": _name(b.home_player),
                "away": _name(b.away_player),
                "result": b.result or None,
            }
            for b in (data.board_rows or {}).get(match.pk, ())
        ],
    }


@api_view
def division(request: HttpRequest, pk: int) -> JsonResponse:
    data = _data(pk, players=True)
    cores = {m.pk: c for m, c in zip(data.matches, data.core_matches, strict=True)}
    first = data.parts[0].tournament_id if data.parts else None
    return _json(
        {
            **_head(data),
            "rounds": [
                {"round": number, "matches": [_match(data, m, cores[m.pk]) for m in matches]}
                for number, matches in data.rounds()
            ],
            "tournament": first,
        }
    )


@api_view
def division_table(request: HttpRequest, pk: int) -> JsonResponse:
    return _json(_head(_data(pk)))
