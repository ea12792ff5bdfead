"""URLs: accounts and the rating officers' pages. Stable German paths."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from ratings.views import (
    accounts,
    officer,
    officer_import,
    officer_merge,
    officer_participants,
    officer_results,
    officer_rounds,
)

urlpatterns = [
    path("anmelden/", accounts.LoginView.as_view(), name="login"),
    path("abmelden/", officer.logout_view, name="logout"),
    path(
        "passwort/",
        auth_views.PasswordChangeView.as_view(
            template_name="registration/password_change_form.html",
            success_url=reverse_lazy("ratings:password-change-done"),
        ),
        name="password-change",
    ),
    path(
        "passwort/geaendert/",
        auth_views.PasswordChangeDoneView.as_view(template_name="registration/password_change_done.html"),
        name="password-change-done",
    ),
    path("passwort/vergessen/", accounts.PasswordResetView.as_view(), name="password-reset"),
    path(
        "passwort/vergessen/gesendet/", accounts.PasswordResetDoneView.as_view(), name="password-reset-done"
    ),
    path(
        "passwort/neu/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path(
        "passwort/neu/fertig/", accounts.PasswordResetCompleteView.as_view(), name="password-reset-complete"
    ),
    path("referent/", officer.dashboard, name="officer-dashboard"),
    path("referent/bericht/", officer.report_view, name="officer-report"),
    path("referent/spielersuche/", officer_results.player_search, name="officer-player-search"),
    path("referent/dubletten/", officer_merge.duplicates, name="officer-duplicates"),
    path("referent/zusammenfuehren/", officer_merge.merge, name="officer-merge"),
    path("turniere/neu/", officer.tournament_create, name="tournament-create"),
    path("turniere/aus-datei/", officer_import.trf_upload, name="trf-upload"),
    path("turniere/aus-datei/<token:token>/", officer_import.trf_review, name="trf-review"),
    path("turniere/<int:pk>/bearbeiten/", officer.tournament_edit, name="tournament-edit"),
    path("turniere/<int:pk>/ergebnisse/", officer_results.tournament_results, name="tournament-results"),
    path("turniere/<int:pk>/vorschau/", officer_results.tournament_preview, name="tournament-preview"),
    path("turniere/<int:pk>/teilnehmer/", officer_participants.participants, name="tournament-participants"),
    path("turniere/<int:pk>/runden/", officer_rounds.round_start, name="tournament-rounds"),
    path("turniere/<int:pk>/runden/<int:round_no>/", officer_rounds.round_entry, name="tournament-round"),
    path(
        "turniere/<int:pk>/entwurf/auswerten/", officer_rounds.draft_publish, name="tournament-draft-publish"
    ),
    path(
        "turniere/<int:pk>/entwurf/verwerfen/", officer_rounds.draft_discard, name="tournament-draft-discard"
    ),
    path("turniere/<int:pk>/loeschen/", officer.tournament_delete, name="tournament-delete"),
]
