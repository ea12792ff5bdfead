"""URLs of the league's JSON API (included by the root URLconf before ``ratings``' catch-all ``/api/``)."""

from django.urls import path

from leagues.api import views

app_name = "leagues-api"

urlpatterns = [
    path("api/divisions/<int:pk>", views.division, name="division"),
    path("api/divisions/<int:pk>/table", views.division_table, name="division-table"),
]
