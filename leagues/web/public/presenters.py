"""The rows the league's public pages show, built from the selectors' data without queries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.core.crosstable import Encounter
from leagues.core.table import Tiebreak, match_score
from leagues.core.types import Match as CoreMatch
from leagues.core.types import MatchStatus, halves_text
from leagues.models import Board, DivisionPart, Match
from leagues.models import MatchStatus as MatchStatusChoices
from leagues.selectors.divisions import DivisionData

STATUS_LABELS = dict(MatchStatusChoices.choices)
SHORT_RESULTS = {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½", "+-": "+ –", "-+": "– +", "--": "– –"}


def result_text(code: str) -> str:
    return SHORT_RESULTS.get(code, code)


def table_rows(data: DivisionData) -> list[dict[str, Any]]:
    rows = []
    for row in data.table:
        rows.append(
            {
                "rank": row.rank,
                "team": data.teams_by_id[row.team],
                "played": row.played,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "match_points": row.match_points,
                "board_points": halves_text(row.board_points),
                "berlin": halves_text(row.berlin),
                "withdrawn": row.withdrawn,
            }
        )
    return rows


TIEBREAK_LABELS = {
    Tiebreak.MATCH_POINTS: gettext_lazy("Mannschaftspunkte"),
    Tiebreak.BOARD_POINTS: gettext_lazy("Brettpunkte"),
    Tiebreak.DIRECT: gettext_lazy("direkter Vergleich"),
    Tiebreak.BERLIN: gettext_lazy("Berliner Wertung"),
    Tiebreak.WINS: gettext_lazy("Siege"),
}


def tiebreak_text(data: DivisionData) -> str:
    """The division's ranking order in words: "Mannschaftspunkte, Brettpunkte, direkter Vergleich"."""
    return ", ".join(str(TIEBREAK_LABELS[t]) for t in data.division.tiebreak_order)


def show_berlin(data: DivisionData) -> bool:
    return Tiebreak.BERLIN in data.division.tiebreak_order


def _encounter_text(e: Encounter) -> str:
    if e.own is None:
        return "·"
    if e.status in (MatchStatus.HOME_FORFEIT, MatchStatus.AWAY_FORFEIT, MatchStatus.DOUBLE_FORFEIT):
        text = "+" if (e.own or 0) > (e.other or 0) else "–"
    else:
        text = halves_text(e.own)
    return f"({text})" if e.annulled else text


def crosstable_rows(data: DivisionData) -> list[dict[str, Any]]:
    """One row per team in the table's order: its encounters with each team (None on the diagonal)."""
    cross = data.crosstable
    rows = []
    for i, team_id in enumerate(cross.teams):
        cells: list[str | None] = []
        for j in range(len(cross.teams)):
            cells.append(None if i == j else " / ".join(_encounter_text(e) for e in cross.cells[i][j]))
        rows.append({"number": i + 1, "team": data.teams_by_id[team_id], "cells": cells})
    return rows


@dataclass(frozen=True)
class MatchRow:
    match: Match
    score: str  # "4½ : 3½", "+ : –" or "" while scheduled
    boards: list[dict[str, Any]]
    status_label: str
    home_url: str
    away_url: str


def team_urls(teams) -> dict[int, str]:
    """Each team's page, reversed once per team (not per match: the schedule of a division has hundreds)."""
    return {team.pk: reverse("leagues:team", args=[team.pk]) for team in teams}


def match_row(
    data_boards: int,
    points,
    match: Match,
    core: CoreMatch,
    boards: Sequence[Board] = (),
    urls: dict[int, str] | None = None,
) -> MatchRow:
    """A match's score (from ``core``) and, when given, its ``boards`` with the players; ``urls``: the teams'
    pages (``team_urls``)."""
    score = match_score(core, data_boards, points)
    if score is None:
        text = ""
    elif score.forfeit:
        text = f"{'+' if score.home_halves else '–'} : {'+' if score.away_halves else '–'}"
    else:
        text = f"{halves_text(score.home_halves)} : {halves_text(score.away_halves)}"
    rows = [
        {
            "number": b.number,
            "home": b.home_player,
            "away": b.away_player,
            "result": result_text(b.result),
            "rated": result_text(b.rated_result) if b.rated_result and b.rated_result != b.result else "",
        }
        for b in boards
    ]
    urls = urls if urls is not None else team_urls(t for t in (match.home, match.away) if t is not None)
    label = STATUS_LABELS.get(match.status, match.status)
    return MatchRow(match, text, rows, str(label), urls[match.home_id], urls.get(match.away_id or 0, ""))


def round_rows(
    data: DivisionData, boards: dict[int, list[Board]] | None = None, *, only: int | None = None
) -> list[dict[str, Any]]:
    """Every round (``only``: that round) with its matches' scores, their ``boards`` where given (match pk →
    boards with players), and what is missing."""
    d = data.division
    missing = {c.round: c.message for c in data.completeness}
    cores = {m.pk: c for m, c in zip(data.matches, data.core_matches, strict=True)}
    urls = team_urls(data.teams)
    rounds = []
    for number, matches in data.rounds():
        if only is not None and number != only:
            continue
        rows = [
            match_row(d.boards, d.match_points, m, cores[m.pk], (boards or {}).get(m.pk, ()), urls)
            for m in matches
        ]
        day = min((m.scheduled_date for m in matches), default=None)
        message = missing.get(number)
        rounds.append(
            {
                "round": number,
                "date": day,
                "matches": rows,
                "missing": _(message.template) % dict(message.params) if message is not None else "",
            }
        )
    return rounds


def evaluation_links(data: DivisionData) -> list[dict[str, Any]]:
    """Each part's DWZ evaluation: the tournament page once evaluated; before that a "Vorschau" (the draft
    tournament's page when it exists, else the count and days of the games it will hold)."""
    links = []
    parts: list[DivisionPart | None] = [*data.parts] or [None]
    for part in parts:
        games = data.part_games(part) if part is not None else data.rated_games
        links.append(
            {
                "part": part,
                "tournament": part.tournament if part is not None else None,
                "evaluated": part is not None
                and part.tournament is not None
                and bool(getattr(part, "evaluated", False)),
                "games": len(games),
                "first": min((g.played_on for g in games), default=None),
                "last": max((g.played_on for g in games), default=None),
            }
        )
    return links
