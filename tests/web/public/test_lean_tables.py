"""The public tables render their body rows in Python (``LeanTable.body_html``): the same cells as
django-tables2's own template, compared on each list page."""

import re

import pytest

from ratings.enums import FideTitle
from tests.builders import make_player


def _tbody(html: str) -> str:
    body = re.search(r"<tbody[^>]*>(.*?)</tbody>", html, re.S)
    assert body is not None
    return re.sub(r"\s+", " ", body.group(1)).replace("> <", "><").strip()


def _both(client, url, params=None):
    response = client.get(url, params or {})
    assert response.status_code == 200
    table = response.context["table"]
    request = response.wsgi_request
    lean = table.as_html(request)
    table.template_name = "django_tables2/bootstrap5-responsive.html"
    return _tbody(lean), _tbody(table.as_html(request))


@pytest.fixture
def listed(populate, federation):
    made = populate(3)
    make_player(surname="Titel", first_name="Tim", dwz=2450, index=80, club=federation["club"],
                fide_title=FideTitle.GM, fide_elo=2500, fide_id=4600001)  # fmt: skip
    make_player(surname="Ohne", first_name="Verein & <Co>", birth_year=None)
    return made


@pytest.mark.parametrize(
    ("url", "params"),
    [
        ("/ranglisten/", {}),
        ("/ranglisten/", {"sort": "-name"}),
        ("/ranglisten/", {"q": "nichtda"}),
        ("/spieler/", {}),
        ("/vereine/", {}),
        ("/vereine/C0501/", {}),
        ("/verbaende/C00/", {}),
        ("/turniere/", {}),
    ],
)
def test_lean_body_equals_django_tables2(client, listed, url, params):
    lean, stock = _both(client, url, params)
    # Django's templates leave blank lines between some options: whitespace between tags does not count.
    assert re.sub(r">\s+<", "><", lean) == re.sub(r">\s+<", "><", stock)
    assert "<td" in lean


def test_choices_show_their_label_and_text_is_escaped(client, listed):
    lean, _stock = _both(client, "/ranglisten/")
    assert "<td" in lean and ">GM<" in lean
    assert "Ohne, Verein &amp; &lt;Co&gt;" in lean


def test_remembered_numbers_and_dates_follow_the_language():
    import datetime
    from decimal import Decimal

    from django.utils import translation

    from ratings.templatetags.public import number, short_date

    with translation.override("de"):
        assert number(Decimal("0.7025"), 3) == "0,703"
        assert short_date(datetime.date(2024, 3, 9)) == "09.03.2024"
    with translation.override("en"):
        assert number(Decimal("0.7025"), 3) == "0.703"
        assert short_date(datetime.date(2024, 3, 9)) != "09.03.2024"
    with translation.override("de"):
        assert number(Decimal("4.50"), -1) == number(Decimal("4.5"), -1) == "4,5"


@pytest.mark.parametrize("value", ["", "b", "x"])
def test_select_widget_equals_djangos_select(value):
    from django import forms

    from ratings.filters import SelectWidget

    choices = [("", "alle"), ("a", "A & <B>"), ("Gruppe", [("b", "B"), ("c", "C")])]
    attrs = {"class": "form-select", "id": "id_f", "aria-invalid": "true"}
    lean = SelectWidget(choices=choices).render("f", value, attrs=attrs)
    stock = forms.Select(choices=choices).render("f", value, attrs=attrs)
    # Django's templates leave blank lines between some options: whitespace between tags does not count.
    assert re.sub(r">\s+<", "><", lean) == re.sub(r">\s+<", "><", stock)
