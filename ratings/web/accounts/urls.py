"""URLs: login, logout, password change and reset. Stable German paths."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from ratings.web.accounts import views

urlpatterns = [
    path("anmelden/", views.LoginView.as_view(), name="login"),
    path("abmelden/", views.logout_view, name="logout"),
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
    path("passwort/vergessen/", views.PasswordResetView.as_view(), name="password-reset"),
    path("passwort/vergessen/gesendet/", views.PasswordResetDoneView.as_view(), name="password-reset-done"),
    path(
        "passwort/neu/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path("passwort/neu/fertig/", views.PasswordResetCompleteView.as_view(), name="password-reset-complete"),
]
