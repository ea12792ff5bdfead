"""URLs of the ratings app. German, stable paths; each area keeps its own module."""

from . import api, officer, pages, public

app_name = "ratings"

urlpatterns = [
    *pages.urlpatterns,
    *public.urlpatterns,
    *officer.urlpatterns,
    *api.urlpatterns,
]
