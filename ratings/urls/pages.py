from django.urls import path

from ratings.views import pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("bald/<slug:section>/", pages.coming_soon, name="coming-soon"),
]
