"""The start page: the search box and the latest evaluated tournaments."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.selectors import tournaments
from ratings.web.public.forms import SearchForm


def home_context(request: HttpRequest) -> dict:
    """Context for the start page: the search form and the latest evaluated tournaments (one query)."""
    return {"search_form": SearchForm(), "latest_tournaments": tournaments.latest_evaluated()}


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/home.html", home_context(request))
