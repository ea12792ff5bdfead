"""The captains' paths (German, stable)."""

from django.urls import path

from .views import match_report, my_matches

urlpatterns = [
    path("ligen/meine-kaempfe/", my_matches, name="my-matches"),
    path("ligen/kampf/<int:pk>/bericht/", match_report, name="match-report"),
]
