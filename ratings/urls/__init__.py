"""URLs of the ratings app. German, stable paths; each area keeps its own module."""

from . import pages

app_name = "ratings"

urlpatterns = [
    *pages.urlpatterns,
]
