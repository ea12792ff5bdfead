"""The directors' and rating officers' paths (German, stable)."""

from django.urls import path

from . import views

urlpatterns = [
    path("ligen/staffel/<int:pk>/leitung/", views.division_manage, name="division-manage"),
    path("ligen/staffel/<int:pk>/auswerten/", views.division_evaluate_view, name="division-evaluate"),
    path("ligen/staffel/<int:pk>/teile/", views.division_split_view, name="division-split"),
    path("ligen/kampf/<int:pk>/leitung/", views.match_manage, name="match-manage"),
    path("ligen/staffel/<int:pk>/einladen/", views.role_invite_view, name="role-invite"),
    path("ligen/mannschaft/<int:pk>/einladen/", views.captain_invite_view, name="captain-invite"),
]
