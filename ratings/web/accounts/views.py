"""Accounts: login (officers land on "Meine Turniere"), logout, and password reset by mail, on Django's auth
views.

The reset mail goes through the configured mail backend: the console in development, SMTP from the
DJANGO_EMAIL_* variables in production (docs/operations.md).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ratings import permissions
from ratings.web.throttle import throttle


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        """Without a ``next``: officers to their tournaments, everybody else to the home page."""
        if permissions.is_officer(self.request.user):
            return reverse("ratings:officer-dashboard")
        return super().get_default_redirect_url()


class PasswordResetView(auth_views.PasswordResetView):
    """Each POST may send a mail: more than ``PASSWORD_RESET_LIMIT`` from one address in the window answer the
    form again (429, ``Retry-After``) and send nothing, so a known address cannot be mail-bombed."""

    template_name = "registration/password_reset_form.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("ratings:password-reset-done")

    def post(self, request, *args, **kwargs):
        wait = throttle(
            request,
            scope="password-reset",
            limit=settings.PASSWORD_RESET_LIMIT,
            window=settings.PASSWORD_RESET_WINDOW,
        )
        if wait is None:
            return super().post(request, *args, **kwargs)
        form = self.get_form()
        form.errors.clear()
        form.add_error(
            None,
            _("Zu viele Anfragen von Ihrer Adresse. Bitte in %(minutes)d Minuten noch einmal versuchen.")
            % {"minutes": -(-wait // 60)},
        )
        response = self.render_to_response(self.get_context_data(form=form), status=429)
        response["Retry-After"] = str(wait)
        return response


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "registration/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("ratings:password-reset-complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "registration/password_reset_complete.html"


@require_http_methods(["GET", "POST"])
def logout_view(request: HttpRequest) -> HttpResponse:
    """GET asks, POST logs out (Django's LogoutView accepts POST only)."""
    if request.method == "POST":
        logout(request)
        messages.success(request, _("Sie sind abgemeldet."))
        return redirect("ratings:home")
    return render(request, "registration/logout_confirm.html")
