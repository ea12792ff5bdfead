"""Rows and charts the public pages show, built from what the selectors read (the templates only format)."""

from __future__ import annotations

from collections.abc import Hashable
from decimal import Decimal

from django.utils.translation import gettext as _

from ratings.formats.standings import RoundScore, compute_standings
from ratings.models import Tournament

PLAYED_SYMBOLS = frozenset({"1", "½", "0"})


def statistics_charts(histogram: list[dict], years: list) -> dict:
    """The statistics page's charts (labels and series, as JSON for the page's script): the DWZ distribution,
    evaluations and first ratings per year, tournaments per year."""
    return {
        "histogram": {
            "labels": [str(b["from"]) for b in histogram],
            "series": [{"label": _("Spieler"), "data": [b["count"] for b in histogram]}],
        },
        "years": {
            "labels": [str(y.year) for y in years],
            "series": [
                {"label": _("Auswertungen"), "data": [y.evaluations for y in years]},
                {"label": _("Erst-DWZ"), "data": [y.first for y in years]},
            ],
        },
        "tournaments": {
            "labels": [str(y.year) for y in years],
            "series": [{"label": _("Turniere"), "data": [y.tournaments for y in years]}],
        },
    }


def evaluation_rows(view, standings: list[dict], *, by_placing: bool) -> list[tuple]:
    """The evaluation table's rows as (row, standing): by start number, or by placing (``?sort=rang``;
    players without a placing last)."""
    standing_of = {line["row"].number: line["standing"] for line in standings}
    rows = [(row, standing_of.get(row.number)) for row in view.rows]
    if by_placing:
        rows.sort(key=lambda item: (item[1] is None, item[1].rank if item[1] else 0, item[0].number))
    return rows


def crosstable_rows(view, ranks: dict) -> list[dict]:
    """The print page's crosstable or progress table: each row with its placing and its cells against every
    start number (None on the diagonal)."""
    return [
        {
            "row": row,
            "standing": ranks.get(row.entry.player_id),
            "cells": [
                None if other.number == row.number else row.cells.get(other.number, "") for other in view.rows
            ],
        }
        for row in view.rows
    ]


def standings_context(tournament: Tournament, view) -> dict:
    """The placing for the public tournament page, from the rows it loaded already (no further query), and
    how many players' rated points differ from their tournament points (forfeits and byes count for the
    placing only)."""
    scores: dict[Hashable, list[RoundScore]] = {}
    by_entry = {r.entry.pk: r.number for r in view.rows}
    for row in view.rows:
        scores[row.number] = [
            RoundScore(
                line.round,
                line.points or Decimal(0),
                None if line.opponent is None else by_entry[line.opponent.pk],
                played=line.opponent is not None and line.result in PLAYED_SYMBOLS,
                colour={"w": "w", "s": "b"}.get(line.colour, ""),
                # A forfeit loss, a half- or zero-point bye or a round without a game: voluntarily unplayed.
                voluntary=(line.opponent is not None and line.result == "−")
                or (line.opponent is None and line.result != "+"),
            )
            for line in row.lines
        ]
    rounds = max([tournament.rounds or 0, *view.rounds], default=0)
    ratings = {
        row.number: row.evaluation.dwz_old
        for row in view.rows
        if row.evaluation is not None and row.evaluation.dwz_old is not None
    }
    standings = compute_standings(scores, rounds=rounds, tiebreaks=tournament.tiebreak_codes, ratings=ratings)
    row_of = {row.number: row for row in view.rows}
    differing = [
        row for row in view.rows if row.evaluation is not None and row.evaluation.points != row.points
    ]
    return {
        "standings": [{"standing": s, "row": row_of[s.player]} for s in standings.rows],
        "standings_tiebreaks": standings.tiebreaks,
        "standings_from_file": len(standings.ignored) < len(tournament.tiebreak_codes),
        "standings_ignored": standings.ignored,
        "file_ranks": any(row.entry.file_rank is not None for row in view.rows),
        "points_differ": len(differing),
    }
