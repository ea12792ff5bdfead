import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_page_is_german_by_default(client):
    response = client.get(reverse("ratings:home"))
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "de"
    assert "Die DWZ für Vereine und Verbände" in response.content.decode()


def test_home_page_follows_browser_language(client):
    response = client.get(reverse("ratings:home"), headers={"accept-language": "en"})
    assert "DWZ for clubs and federations" in response.content.decode()


def test_language_switch_sets_english(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"}, follow=True)
    assert "DWZ for clubs and federations" in response.content.decode()


def test_navbar_lists_the_sections(client):
    html = client.get(reverse("ratings:home")).content.decode()
    for label in ("Ranglisten", "Spieler", "Turniere", "Vereine", "DWZ-Rechner", "Spielstärke"):
        assert label in html


def test_unknown_page_is_a_friendly_404(client):
    response = client.get("/gibt-es-nicht/")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.content.decode()


def test_admin_is_titled_for_the_product(admin_client):
    response = admin_client.get("/admin/")
    assert response.status_code == 200
    assert "dwzsite – DWZ-Verwaltung" in response.content.decode()


def test_static_files_are_vendored(client):
    from django.contrib.staticfiles import finders

    for path in (
        "vendor/bootstrap/bootstrap.min.css",
        "vendor/bootstrap/bootstrap.bundle.min.js",
        "vendor/bootstrap-icons/bootstrap-icons.min.css",
        "vendor/chart.js/chart.umd.min.js",
    ):
        assert finders.find(path), path


def test_favicon_ico_points_to_the_vendored_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("favicon.svg")
