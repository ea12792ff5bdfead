"""General pages: the start page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.web.public.views.lists import home_context


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/home.html", home_context(request))
