"""Start-page pieces: home_context and its two includes."""

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from ratings.web.public.views.home import home_context


def test_home_context_and_includes(e2, e1):
    request = RequestFactory().get("/")
    context = home_context(request)
    assert [t.name for t in context["latest_tournaments"]] == ["Maiturnier", "Jugendduell"]
    html = render_to_string("ratings/public/_home_search.html", context, request=request)
    assert 'action="/suche/"' in html and '<label class="form-label" for="id_q">' in html
    html = render_to_string("ratings/public/_latest_tournaments.html", context, request=request)
    assert "Maiturnier" in html and "12.05.2019" in html


@pytest.mark.parametrize("item_count", [1, 3])
def test_home_context_query_count(populate, django_assert_num_queries, item_count):
    populate(item_count)
    with django_assert_num_queries(1):
        context = home_context(RequestFactory().get("/"))
    assert len(context["latest_tournaments"]) == item_count + 1
