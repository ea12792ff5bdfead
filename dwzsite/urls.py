from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

admin.site.site_header = _("dwzsite – DWZ-Verwaltung")
admin.site.site_title = _("dwzsite")
admin.site.index_title = _("Daten verwalten")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("ratings.urls")),
]
