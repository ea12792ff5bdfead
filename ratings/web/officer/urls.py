"""URLs: the rating officers' pages. Stable German paths."""

from django.urls import path

from ratings.web.officer.views import (
    complaints,
    corrections,
    dsb_export,
    dsb_list,
    frozen_lists,
    merge,
    official_comparison,
    participants,
    privacy,
    results,
    rounds,
    tournaments,
    trf_import,
)

urlpatterns = [
    path("referent/", tournaments.dashboard, name="officer-dashboard"),
    path("referent/bericht/", tournaments.report_view, name="officer-report"),
    path("referent/spielersuche/", participants.player_search, name="officer-player-search"),
    path("referent/stichtagslisten/", frozen_lists.frozen_list_page, name="officer-frozen-lists"),
    path(
        "referent/spieler/<player_key:key>/veroeffentlichung/",
        privacy.player_publication,
        name="officer-player-publication",
    ),
    path("referent/reklamationen/", complaints.inbox, name="officer-complaints"),
    path("referent/reklamationen/<int:pk>/", complaints.detail, name="officer-complaint"),
    path("referent/dubletten/", merge.duplicates, name="officer-duplicates"),
    path("referent/zusammenfuehren/", merge.merge, name="officer-merge"),
    path("referent/abgleich/", official_comparison.comparison_imports, name="official-comparisons"),
    path("referent/abgleich/<int:pk>/", official_comparison.comparison_detail, name="official-comparison"),
    path(
        "referent/abgleich/<int:pk>/abgleich.csv",
        official_comparison.comparison_csv,
        name="official-comparison-csv",
    ),
    path("turniere/neu/", tournaments.tournament_create, name="tournament-create"),
    path("turniere/anmelden/", dsb_export.announce, name="tournament-announce"),
    path("turniere/<int:pk>/dsb-export/", dsb_export.dsb_export_page, name="tournament-dsb-export"),
    path(
        "turniere/<int:pk>/dsb-export/datei/",
        dsb_export.dsb_export_download,
        name="tournament-dsb-export-download",
    ),
    path("turniere/aus-datei/", trf_import.trf_upload, name="trf-upload"),
    path("turniere/aus-datei/<token:token>/", trf_import.trf_review, name="trf-review"),
    path("turniere/<int:pk>/bearbeiten/", tournaments.tournament_edit, name="tournament-edit"),
    # The old "Ergebnisse" page, moved for good: to the tab the tournament is at.
    path("turniere/<int:pk>/ergebnisse/", results.results_moved, name="tournament-results-moved"),
    path("turniere/<int:pk>/erfassen/", results.tournament_entry, name="tournament-entry"),
    path("turniere/<int:pk>/kreuztabelle/", results.tournament_grid, name="tournament-grid"),
    path("turniere/<int:pk>/vorschau/", results.tournament_preview, name="tournament-preview"),
    path("turniere/<int:pk>/teilnehmer/", participants.participants, name="tournament-participants"),
    path("turniere/<int:pk>/runden/", rounds.round_start, name="tournament-rounds"),
    path("turniere/<int:pk>/runden/<int:round_no>/", rounds.round_entry, name="tournament-round"),
    path("turniere/<int:pk>/entwurf/auswerten/", rounds.draft_publish, name="tournament-draft-publish"),
    path("turniere/<int:pk>/entwurf/verwerfen/", rounds.draft_discard, name="tournament-draft-discard"),
    path("listen/<slug:scope>/<slug:code>/<slug:fmt>/", dsb_list.dsb_list_download, name="dsb-list-download"),
    path("turniere/<int:pk>/loeschen/", tournaments.tournament_delete, name="tournament-delete"),
    path(
        "turniere/<int:pk>/fassung/<int:event>/wiederherstellen/",
        corrections.tournament_restore_version,
        name="tournament-restore-version",
    ),
]
