"""The league's public pages: seasons, a season, a division (table, crosstable, rounds with the match reports,
its DWZ evaluation, exports) and a team (line-up with the players' DWZ and board records). Thin: read through
``leagues.selectors``, shape with the presenters, render."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from leagues import exports
from leagues.core.types import halves_text
from leagues.selectors import divisions
from leagues.web.public import presenters


def season_list(request: HttpRequest) -> HttpResponse:
    return render(request, "leagues/public/season_list.html", {"seasons": divisions.seasons()})


def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    season = divisions.season_data(pk=pk)
    if season is None:
        raise Http404(_("Diese Saison gibt es nicht."))
    return render(request, "leagues/public/season_detail.html", {"season": season})


def _division(pk: int, *, players: bool = False) -> divisions.DivisionData:
    data = divisions.division_data(pk=pk, players=players)
    if data is None:
        raise Http404(_("Diese Staffel gibt es nicht."))
    return data


def division_detail(request: HttpRequest, pk: int) -> HttpResponse:
    data = _division(pk)
    context = {
        "division": data.division,
        "season": data.division.season,
        "table": presenters.table_rows(data),
        "show_berlin": presenters.show_berlin(data),
        "tiebreaks": presenters.tiebreak_text(data),
        "crosstable": presenters.crosstable_rows(data),
        "rounds": presenters.round_rows(data),
        "evaluations": presenters.evaluation_links(data),
    }
    return render(request, "leagues/public/division_detail.html", context)


def division_round(request: HttpRequest, pk: int, round_no: int) -> HttpResponse:
    """One round's match reports: every match with its boards and players."""
    data = _division(pk)
    boards = divisions.round_boards(division_id=pk, round=round_no)
    rounds = [r for r in presenters.round_rows(data, boards, only=round_no) if r["round"] == round_no]
    if not rounds:
        raise Http404(_("Diese Runde gibt es nicht."))
    context = {"division": data.division, "season": data.division.season, "round": rounds[0]}
    return render(request, "leagues/public/division_round.html", context)


def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    data = divisions.team_data(pk=pk)
    if data is None:
        raise Http404(_("Diese Mannschaft gibt es nicht."))
    division = data.team.division
    players = data.players_by_id
    lineup = [
        {
            "player": players[s.player],
            "boards": ", ".join(str(b) for b in s.boards),
            "games": s.games,
            "played": s.played,
            "points": halves_text(s.halves),
        }
        for s in data.scores
        if s.player in players
    ]
    matches = [
        presenters.match_row(division.boards, division.match_points, m, m.as_core(), list(m.boards.all()))
        for m in data.matches
    ]
    context = {"team": data.team, "division": division, "lineup": lineup, "matches": matches}
    return render(request, "leagues/public/team_detail.html", context)


def table_csv(request: HttpRequest, pk: int) -> HttpResponse:
    return exports.table_csv_response(_division(pk))


def division_trf(request: HttpRequest, pk: int) -> HttpResponse:
    return exports.trf_response(_division(pk, players=True))


def division_xml(request: HttpRequest, pk: int) -> HttpResponse:
    """The DSB report of the division, or with ``?teil=<n>`` of its part n."""
    data = _division(pk, players=True)
    chosen = None
    if "teil" in request.GET:
        chosen = next((p for p in data.parts if str(p.number) == request.GET["teil"]), None)
        if chosen is None:
            raise Http404(_("Diesen Teil der Staffel gibt es nicht."))
    return exports.dsb_xml_response(data, part=chosen)
