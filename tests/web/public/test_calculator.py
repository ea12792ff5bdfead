"""DWZ calculator: expected numbers are derived by hand from the rules (spec §4, §5, §14 E2)."""

import pytest
from django.urls import reverse

PREFIX = "opp"


def payload(*, dwz="", index="", birth_year="", end_date, opponents):
    data = {
        "dwz": dwz,
        "index": index,
        "birth_year": birth_year,
        "end_date": end_date,
        f"{PREFIX}-TOTAL_FORMS": str(len(opponents)),
        f"{PREFIX}-INITIAL_FORMS": "0",
        f"{PREFIX}-MIN_NUM_FORMS": "0",
        f"{PREFIX}-MAX_NUM_FORMS": "40",
    }
    for i, (rating, result) in enumerate(opponents):
        data[f"{PREFIX}-{i}-rating"] = rating
        data[f"{PREFIX}-{i}-result"] = result
    return data


# Spec §14 E2: 1850, adult (39), idx 3, 2019-05-12; W 3.0, We 2.776, E 15, Rn 1859, level 1808, perf 1886.
E2 = payload(
    dwz="1850",
    index="3",
    birth_year="1980",
    end_date="2019-05-12",
    opponents=[("1700", "1"), ("1780", "0.5"), ("1900", "1"), ("2010", "0"), ("1650", "0.5")],
)


def test_calculator_page_renders_form(client):
    response = client.get(reverse("ratings:calculator"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'hx-post="/rechner/vorschau/"' in html
    assert 'name="opp-0-rating"' in html
    assert '<label class="form-label" for="id_dwz">' in html


def test_calculator_preview_classic_spec_example_e2(client):
    response = client.post(reverse("ratings:calculator-preview"), E2)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html  # only the partial
    assert 'id="calc-we">2,776<' in html
    assert 'id="calc-coefficient">15<' in html
    assert 'id="calc-new">1859-4<' in html
    assert 'id="calc-performance">1886<' in html
    assert 'id="calc-level">1808<' in html
    assert "+9" in html
    assert "klassisch" in html


def test_calculator_preview_wo2026_one_win(client):
    # Adult 1600 (age 36), idx 20, beats 1600 on 2026-09-20: group B, column >10 -> K0 28; b = 1 (W >= We);
    # a = 0 (R0 is not < 1600); K 28.0; Rn = 1600 + 28 * 0.5 = 1614. n < 5: no performance.
    data = payload(
        dwz="1600", index="20", birth_year="1990", end_date="2026-09-20", opponents=[("1600", "1")]
    )
    html = client.post(reverse("ratings:calculator-preview"), data).content.decode()
    assert 'id="calc-we">0,500<' in html
    assert 'id="calc-coefficient">28,0<' in html
    assert 'id="calc-new">1614-21<' in html
    assert 'id="calc-performance">–<' in html
    assert "WO 2026" in html


def test_calculator_same_game_classic_before_the_switch(client):
    # 2025: E0 = 1.6^4 + 15 = 21.55 -> 22, cap 30; Rn = 1600 + 800 * 0.5 / 23 = 1617.39 -> 1617.
    data = payload(
        dwz="1600", index="20", birth_year="1990", end_date="2025-09-20", opponents=[("1600", "1")]
    )
    html = client.post(reverse("ratings:calculator-preview"), data).content.decode()
    assert 'id="calc-coefficient">22<' in html
    assert 'id="calc-new">1617-21<' in html


def test_calculator_full_post_without_javascript(client):
    response = client.post(reverse("ratings:calculator"), E2)
    html = response.content.decode()
    assert "<html" in html
    assert 'id="calc-new">1859-4<' in html


def test_calculator_add_rows_without_javascript(client):
    data = {**E2, "add_rows": "1"}
    html = client.post(reverse("ratings:calculator"), data).content.decode()
    assert 'name="opp-9-rating"' in html
    assert 'id="calc-new">1859-4<' in html  # the filled rows still count, the new ones are empty


def test_calculator_empty_rows_are_ignored(client):
    data = payload(dwz="1600", end_date="2025-01-01", opponents=[("", "1"), ("", "1")])
    html = client.post(reverse("ratings:calculator-preview"), data).content.decode()
    assert 'id="calc-empty"' in html


def test_calculator_unrated_with_few_games_gets_no_first_rating(client):
    data = payload(end_date="2025-01-01", opponents=[("1500", "1"), ("1400", "0")])
    html = client.post(reverse("ratings:calculator-preview"), data).content.decode()
    assert "Noch keine Erst-DWZ" in html


def test_calculator_unrated_first_rating(client):
    # Five games against 1500 with 2.5 points: start value 1500 + D(0.5) = 1500, f(1500) = 2.5 = W, so the
    # iteration stops at 1500 (>= 800: classic first rating = 1500, index 1).
    opponents = [("1500", "1"), ("1500", "0"), ("1500", "0.5"), ("1500", "1"), ("1500", "0")]
    data = payload(end_date="2025-01-01", opponents=opponents)
    html = client.post(reverse("ratings:calculator-preview"), data).content.decode()
    assert 'id="calc-new">1500-1<' in html


@pytest.mark.parametrize(
    "field,value",
    [("dwz", "abc"), ("dwz", "5000"), ("end_date", "2025-13-45"), ("birth_year", "x"), ("index", "-1")],
)
def test_calculator_garbage_shows_errors(client, field, value):
    data = {**E2, field: value}
    response = client.post(reverse("ratings:calculator-preview"), data)
    assert response.status_code == 200
    assert "alert-warning" in response.content.decode()


def test_calculator_garbage_management_form_never_raises(client):
    data = {**E2, f"{PREFIX}-TOTAL_FORMS": "x", f"{PREFIX}-2-result": "7"}
    assert client.post(reverse("ratings:calculator-preview"), data).status_code == 200
    assert client.post(reverse("ratings:calculator"), {**data, "add_rows": "1"}).status_code == 200
    assert client.post(reverse("ratings:calculator-preview"), {}).status_code == 200


def test_calculator_preview_rejects_get(client):
    assert client.get(reverse("ratings:calculator-preview")).status_code == 405


def test_calculator_without_index_assumes_more_than_ten_evaluations_and_says_so(client):
    """Issue 32: an empty index was taken as 0 (K 60, twice the usual change). The same game as above
    without an index: index 11 assumed (column >10, K 28 -> 1614), and the page names the assumption."""
    data = payload(dwz="1600", birth_year="1990", end_date="2026-09-20", opponents=[("1600", "1")])
    html = client.post(reverse("ratings:calculator-preview"), data).content.decode()
    assert 'id="calc-coefficient">28,0<' in html
    assert 'id="calc-new">1614<' in html  # no index shown as if it were known
    assert 'id="calc-assumed-index"' in html and "gerechnet mit Index 11" in html
    assert "Index angenommen: 11" in html
    # Classic: E0 = 21.55 -> 22 with the index cap min(30, 5 * 11) = 30 not reached: 1617 as with idx 20.
    data["end_date"] = "2025-09-20"
    html = client.post(reverse("ratings:calculator-preview"), data).content.decode()
    assert 'id="calc-coefficient">22<' in html and 'id="calc-new">1617<' in html


def test_calculator_keeps_an_index_typed_as_zero(client):
    """An index typed as 0 is the player's own value: K 60 (WO 2026 column 1), no assumption named."""
    data = payload(dwz="1600", index="0", birth_year="1990", end_date="2026-09-20", opponents=[("1600", "1")])
    html = client.post(reverse("ratings:calculator-preview"), data).content.decode()
    assert 'id="calc-coefficient">60,0<' in html and 'id="calc-new">1630-1<' in html
    assert "calc-assumed-index" not in html


def test_calculator_index_help_says_what_an_empty_index_means(client):
    html = client.get(reverse("ratings:calculator")).content.decode()
    assert "Leer: gerechnet wird mit mehr als 10 Auswertungen." in html
