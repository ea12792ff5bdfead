"""URLs of the league's public pages, German and stable, in the namespace ``leagues`` (``leagues/urls.py``
composes them: ``leagues:season``, ``leagues:division``, ``leagues:team``, …). A part's DSB report is the
division's with ``?teil=<n>``."""

from django.urls import path

from leagues.web.public import views

urlpatterns = [
    path("ligen/", views.season_list, name="season-list"),
    path("ligen/saison/<int:pk>/", views.season_detail, name="season"),
    path("ligen/staffel/<int:pk>/", views.division_detail, name="division"),
    path("ligen/staffel/<int:pk>/runde/<int:round_no>/", views.division_round, name="division-round"),
    path("ligen/staffel/<int:pk>/tabelle.csv", views.table_csv, name="division-table-csv"),
    path("ligen/staffel/<int:pk>/staffel.trf", views.division_trf, name="division-trf"),
    path("ligen/staffel/<int:pk>/dsb.xml", views.division_xml, name="division-xml"),
    path("ligen/mannschaft/<int:pk>/", views.team_detail, name="team"),
]
