"""URLs: read-only JSON API (docs/api.md)."""

from django.urls import path

from ratings.views import api

urlpatterns = [
    path("api/players/<player_key:key>", api.player, name="api-player"),
    path("api/clubs/<zps:zps>/players", api.club_players, name="api-club-players"),
    path("api/tournaments/<int:pk>", api.tournament, name="api-tournament"),
]
