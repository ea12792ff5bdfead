"""URLs: public pages (German, stable paths; no language prefix)."""

from django.urls import path

from ratings.views import calculator, dsb_list, public, public_detail, recalculation, tournament_export

urlpatterns = [
    path("ranglisten/", public.RatingListView.as_view(), name="rating-list"),
    path("spieler/", public.PlayerListView.as_view(), name="player-list"),
    path("spieler/<player_key:key>/", public_detail.player_detail, name="player-detail"),
    path("vereine/", public.ClubListView.as_view(), name="club-list"),
    path("vereine/<zps:zps>/", public.ClubDetailView.as_view(), name="club-detail"),
    path("verbaende/<org_code:code>/", public.OrganisationDetailView.as_view(), name="organisation-detail"),
    path("verbaende/<org_code:code>/vereinsvergleich/", public.club_comparison, name="club-comparison"),
    path("turniere/", public.TournamentListView.as_view(), name="tournament-list"),
    path("turniere/<int:pk>/", public_detail.tournament_detail, name="tournament-detail"),
    path("turniere/<int:pk>/partien/", public_detail.tournament_games, name="tournament-games"),
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
    path("suche/", public.search, name="search"),
    path("spielstaerke/", public.categories, name="categories"),
    path("statistik/", public.statistics_page, name="statistics"),
    path("rechner/", calculator.calculator, name="calculator"),
    path("listen/<slug:scope>/<slug:code>/<slug:fmt>/", dsb_list.dsb_list_download, name="dsb-list-download"),
    path("rechner/vorschau/", calculator.calculator_preview, name="calculator-preview"),
    path("neuberechnung/<int:pk>/", recalculation.recalculation_progress, name="recalculation-progress"),
]
