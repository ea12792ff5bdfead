"""The public tables render their body rows in Python (``LeanTable.body_html``): the same cells as
django-tables2's own template, compared on each list page."""

import re

import pytest

from ratings.enums import FideTitle
from tests.builders import make_player


def _normalised(html: str) -> str:
    """Whitespace aside: runs of it as one space, none between tags or just inside them."""
    html = re.sub(r"\s+", " ", html)
    return re.sub(r"\s*(<[^>]*>)\s*", r"\1", html).strip()


def _both(client, url, params=None):
    response = client.get(url, params or {})
    assert response.status_code == 200
    table = response.context["table"]
    request = response.wsgi_request
    lean = table.as_html(request)
    table.template_name = "django_tables2/bootstrap5-responsive.html"
    return _normalised(lean), _normalised(table.as_html(request))


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
        # Paging links keep the other parameters (and escape them); first, middle and last page.
        ("/ranglisten/", {"per_page": "1", "q": "a&b", "mit_dwz": "on"}),
        ("/ranglisten/", {"per_page": "1", "page": "3", "sort": "-dwz"}),
        ("/spieler/", {"per_page": "2", "page": "3"}),
        ("/turniere/", {"per_page": "1", "page": "2"}),
    ],
)
@pytest.mark.parametrize("language", ["de", "en"])
def test_lean_table_equals_django_tables2(client, listed, url, params, language):
    client.cookies["django_language"] = language
    lean, stock = _both(client, url, params)
    assert lean == stock
    assert "<td" in lean and "<th" in lean


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

    from ratings.web.public.filters import SelectWidget

    choices = [("", "alle"), ("a", "A & <B>"), ("Gruppe", [("b", "B"), ("c", "C")])]
    attrs = {"class": "form-select", "id": "id_f", "aria-invalid": "true"}
    lean = SelectWidget(choices=choices).render("f", value, attrs=attrs)
    stock = forms.Select(choices=choices).render("f", value, attrs=attrs)
    # Django's templates leave blank lines between some options: whitespace between tags does not count.
    assert re.sub(r">\s+<", "><", lean) == re.sub(r">\s+<", "><", stock)
