"""Tournament downloads and print pages: TRF26, the evaluation as CSV, and printable evaluation, crosstable
and progress table (A4, no navigation; the browser's "print to PDF" makes the PDF)."""

from __future__ import annotations

import csv

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

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
from ratings.web.public.presenters import crosstable_rows


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("organiser_club", "organiser_organisation"), pk=pk
    )


def tournament_trf(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    response = HttpResponse(
        trf_export(tournament=tournament, published=True).encode("utf-8"),
        content_type="text/plain; charset=utf-8",
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
            "rows": crosstable_rows(view, ranks),
            "tiebreaks": standings.tiebreaks,
        },
    )
