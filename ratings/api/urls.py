"""URLs: read-only JSON API (docs/api.md)."""

from django.urls import path, re_path

from ratings.api import views as api

urlpatterns = [
    path("api/players/<player_key:key>", api.player, name="api-player"),
    path("api/clubs/<zps:zps>/players", api.club_players, name="api-club-players"),
    path("api/tournaments/<int:pk>", api.tournament, name="api-tournament"),
    path("api/", api.index, name="api-index"),
    path("api/openapi.json", api.openapi_json, name="api-openapi"),
    re_path(r"^api/", api.not_found),  # last: any other /api/ path is a JSON 404
]
