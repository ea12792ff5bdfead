"""The admin page of the DSB list: upload, background import, report, CSV download."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from ratings.models import ListImport, ListImportStatus, Membership, Player
from tests.dsb_lists import generate

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("chef", "chef@example.org", "geheim-123")
    client.force_login(user)
    return client


def _upload(client, data: bytes, name="LV-0-csv_20260301.zip", **fields):
    upload = SimpleUploadedFile(name, data, content_type="application/zip")
    return client.post(reverse("admin:ratings_listimport_add"), {"file": upload, **fields})


def test_upload_runs_the_import_and_shows_the_report(admin_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(admin_client, generate(60, seed=1).zip_bytes())
    list_import = ListImport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:ratings_listimport_change", args=[list_import.pk])
    assert list_import.status == ListImportStatus.DONE and list_import.exit_code == 0
    assert list_import.as_of == datetime.date(2026, 3, 1) and list_import.data is None
    assert Membership.objects.count() == 60
    page = admin_client.get(response["Location"])
    assert page.status_code == 200
    text = page.content.decode()
    assert "01.03.2026" in text and 'id="report-download"' in text and "refresh" not in text
    csv = admin_client.get(reverse("admin:ratings_listimport_report", args=[list_import.pk]))
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Ergebnis,Zeile,Schlüssel,Name,Hinweis" and len(lines) == 61
    listing = admin_client.get(reverse("admin:ratings_listimport_changelist"))
    assert "60 / 0 / 0 / 0" in listing.content.decode()


def test_rejected_rows_are_listed_with_line_and_reason(admin_client, django_capture_on_commit_callbacks):
    text = (
        b'ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,Geburtsjahr,'
        b'"Letzte Auswertung",DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,Vorname,Nachname\r\n'
    )
    text += 'NU1,C0505,1043,A,"Muster,Max",M,,1963,,abc,45,,,,,Max,Muster\r\n'.encode("cp1252")
    text += 'NU2,C0505,1044,A,"Weiß,Jürgen",M,,1963,,1500,45,,,,,Jürgen,Weiß\r\n'.encode("cp1252")
    with django_capture_on_commit_callbacks(execute=True):
        _upload(admin_client, text, name="spieler.csv")
    list_import = ListImport.objects.get()
    assert list_import.exit_code == 1
    page = admin_client.get(
        reverse("admin:ratings_listimport_change", args=[list_import.pk])
    ).content.decode()
    assert "DWZ „abc“ ist keine Zahl." in page and "abgelehnt" in page
    assert Player.objects.get().surname == "Weiß"


def test_a_list_that_cannot_be_used_is_refused_in_the_form(admin_client):
    response = _upload(admin_client, b"ID,ZPS,Name\r\nNU1,C0505,Muster\r\n", name="spieler.csv")
    assert response.status_code == 200
    assert "unbekannte Kopfzeile" in response.content.decode()
    assert not ListImport.objects.exists() and not Player.objects.exists()


def test_umstufung_needs_the_date_of_2026_06_08(admin_client):
    response = _upload(admin_client, generate(20).zip_bytes(), as_of="2026-07-01", umstufung="on")
    assert response.status_code == 200 and not ListImport.objects.exists()


def test_the_page_refreshes_while_the_import_runs(admin_client):
    list_import = ListImport.objects.create(file_name="x.zip", total=7, done=3)
    page = admin_client.get(
        reverse("admin:ratings_listimport_change", args=[list_import.pk])
    ).content.decode()
    assert 'http-equiv="refresh"' in page and "42 %" in page


def test_officers_without_admin_rights_cannot_upload(client, django_user_model):
    user = django_user_model.objects.create_user("referent", password="geheim-123", is_staff=True)
    client.force_login(user)
    assert _upload(client, generate(20).zip_bytes()).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_a_real_database_worker_runs_the_queued_import(admin_client):
    backend = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    with override_settings(TASKS=backend):
        response = _upload(admin_client, generate(40, seed=3).zip_bytes())
        assert response.status_code == 302
        list_import = ListImport.objects.get()
        assert list_import.status == ListImportStatus.QUEUED  # queued, not run in the request
        call_command("db_worker", "--batch", "--no-startup-delay", "--interval", "0.1")
    list_import.refresh_from_db()
    assert list_import.status == ListImportStatus.DONE and list_import.exit_code == 0
    assert Membership.objects.count() == 40


def test_admin_membership_edits_keep_the_player_status(admin_client):
    from tests.factories import ClubFactory, PlayerFactory

    player = PlayerFactory(status="A")
    club = ClubFactory()
    url = reverse("admin:ratings_membership_add")
    response = admin_client.post(
        url, {"player": player.pk, "club": club.pk, "member_number": "0042", "status": "P", "valid_from": ""}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    player.refresh_from_db()
    assert player.status == "P"
