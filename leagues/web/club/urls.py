"""The club officers' paths (German, stable)."""

from django.urls import path

from .views import ranking_list

urlpatterns = [
    path("ligen/rangliste/<int:pk>/", ranking_list, name="ranking-list"),
]
