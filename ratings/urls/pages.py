from django.urls import path

from ratings.views import pages

urlpatterns = [
    path("", pages.home, name="home"),
]
