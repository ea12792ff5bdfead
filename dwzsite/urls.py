from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.generic import RedirectView

admin.site.site_header = _("dwzsite – DWZ-Verwaltung")
admin.site.site_title = _("dwzsite")
admin.site.index_title = _("Daten verwalten")

urlpatterns = [
    # Browsers and the admin ask for /favicon.ico regardless of the <link rel="icon"> of our pages.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=False)),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("ratings.urls")),
]
