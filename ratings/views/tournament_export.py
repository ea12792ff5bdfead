"""Tournament downloads and print pages: TRF26, the evaluation as CSV, and printable evaluation, crosstable
and progress table (A4, no navigation; the browser's "print to PDF" makes the PDF)."""

from __future__ import annotations

import csv
from collections.abc import Hashable
from decimal import Decimal

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from ratings.formats.standings import RoundScore, compute_standings
from ratings.models import Tournament
from ratings.selectors.tournament_export import (
    EVALUATION_COLUMNS,
    evaluation_csv_rows,
    evaluation_rows,
    export_filename,
    tournament_standings,
    trf_export,
)
from ratings.selectors.tournaments import tournament_view

PLAYED_SYMBOLS = frozenset({"1", "½", "0"})


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("organiser_club", "organiser_organisation"), pk=pk
    )


def tournament_trf(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    response = HttpResponse(
        trf_export(tournament=tournament).encode("utf-8"), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{export_filename(tournament, "trf")}"'
    return response


def evaluation_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{export_filename(tournament, "csv")}"'
    response.write("\ufeff")  # spreadsheet programs read UTF-8 with umlauts only with a BOM
    csv.writer(response, delimiter=";").writerows(evaluation_csv_rows(tournament))
    return response


def evaluation_print(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    return render(
        request,
        "ratings/print/evaluation.html",
        {"tournament": tournament, "rows": evaluation_rows(tournament), "columns": EVALUATION_COLUMNS},
    )


def table_print(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    tournament = _tournament(pk)
    view = tournament_view(tournament=tournament)
    standings, numbers = tournament_standings(tournament)
    by_number = standings.by_player()
    ranks = {row.entry.player_id: by_number.get(numbers[row.entry.player_id]) for row in view.rows}
    return render(
        request,
        "ratings/print/table.html",
        {
            "tournament": tournament,
            "view": view,
            "kind": kind,
            "ranks": ranks,
            "rows": [
                {
                    "row": row,
                    "standing": ranks.get(row.entry.player_id),
                    "cells": [
                        None if other.number == row.number else row.cells.get(other.number, "")
                        for other in view.rows
                    ],
                }
                for row in view.rows
            ],
            "tiebreaks": standings.tiebreaks,
        },
    )


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
