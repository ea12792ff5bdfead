"""Paths of ``following``: the follow forms, the mails' links and the Atom feeds (namespace ``following``)."""

from django.urls import path

from . import feeds, views

app_name = "following"

urlpatterns = [
    path("spieler/<player_key:key>/folgen/", views.follow_player, name="follow-player"),
    path("vereine/<zps:zps>/folgen/", views.follow_club, name="follow-club"),
    path("spieler/<player_key:key>/feed.atom", feeds.PlayerFeed(), name="player-feed"),
    path("vereine/<zps:zps>/feed.atom", feeds.ClubFeed(), name="club-feed"),
    path("folgen/bestaetigen/<str:token>/", views.confirm, name="confirm"),
    path("folgen/abbestellen/<str:token>/", views.cancel, name="cancel"),
]
