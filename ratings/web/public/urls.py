"""URLs: the public pages and the start page (German, stable paths; no language prefix)."""

from django.urls import path

from ratings.web.public.views import (
    calculator,
    complaints,
    detail,
    frozen_lists,
    home,
    lists,
    privacy,
    recalculation,
    tournament_export,
)

urlpatterns = [
    path("", home.home, name="home"),
    path("ranglisten/", lists.RatingListView.as_view(), name="rating-list"),
    path("ranglisten/stichtag/", frozen_lists.frozen_list_index, name="frozen-lists"),
    path("ranglisten/stichtag/<int:pk>/", frozen_lists.frozen_list_detail, name="frozen-list-detail"),
    path("spieler/", lists.PlayerListView.as_view(), name="player-list"),
    path("spieler/<player_key:key>/", detail.player_detail, name="player-detail"),
    path("vereine/", lists.ClubListView.as_view(), name="club-list"),
    path("vereine/<zps:zps>/", lists.ClubDetailView.as_view(), name="club-detail"),
    path("verbaende/<org_code:code>/", lists.OrganisationDetailView.as_view(), name="organisation-detail"),
    path("verbaende/<org_code:code>/vereinsvergleich/", lists.club_comparison, name="club-comparison"),
    path("turniere/", lists.TournamentListView.as_view(), name="tournament-list"),
    path("turniere/<int:pk>/", detail.tournament_detail, name="tournament-detail"),
    path("turniere/<int:pk>/partien/", detail.tournament_games, name="tournament-games"),
    path("turniere/<int:pk>/turnier.trf", tournament_export.tournament_trf, name="tournament-trf"),
    path(
        "turniere/<int:pk>/auswertung.csv", tournament_export.evaluation_csv, name="tournament-evaluation-csv"
    ),
    path("turniere/<int:pk>/drucken/", tournament_export.evaluation_print, name="tournament-print"),
    path(
        "turniere/<int:pk>/drucken/kreuztabelle/",
        tournament_export.table_print,
        {"kind": "kreuztabelle"},
        name="tournament-print-crosstable",
    ),
    path(
        "turniere/<int:pk>/drucken/fortschritt/",
        tournament_export.table_print,
        {"kind": "fortschritt"},
        name="tournament-print-progress",
    ),
    path("suche/", lists.search, name="search"),
    path("datenschutz/", privacy.privacy, name="privacy"),
    path("fehler-melden/", complaints.complaint, name="complaint"),
    path("spielstaerke/", lists.categories, name="categories"),
    path("statistik/", lists.statistics_page, name="statistics"),
    path("rechner/", calculator.calculator, name="calculator"),
    path("rechner/vorschau/", calculator.calculator_preview, name="calculator-preview"),
    path("neuberechnung/<int:pk>/", recalculation.recalculation_progress, name="recalculation-progress"),
]
