from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language

from ratings.web.health import health


class FaviconView(RedirectView):
    # Resolved per request: the manifest (production) is only read once static files are collected.
    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.svg")


admin.site.site_header = _("dwzsite – DWZ-Verwaltung")
admin.site.site_title = _("dwzsite")
admin.site.index_title = _("Daten verwalten")

urlpatterns = [
    # Browsers and the admin ask for /favicon.ico regardless of the <link rel="icon"> of our pages.
    path("favicon.ico", FaviconView.as_view()),
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    # Without a CSRF check: the language form is part of pages shared from the page cache (no token in
    # them); a forged request can only switch the visitor's language.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    # The leagues before ratings: ratings' URLs end in a catch-all JSON 404 for /api/.
    path("", include("leagues.api.urls")),
    path("", include("leagues.urls")),
    path("", include("ratings.urls")),
    path("", include("following.urls")),
]
