"""A DSB list over the size limit (a zip bomb) is refused by the command, the admin upload and the background
import alike, with the member and the limit named and nothing saved. The limit is lowered by setting, so a
small generated list stands for the bomb (the bomb itself: tests/formats/test_dsb_list_limits.py)."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse

from ratings.models import Club, ListImport, ListImportStatus, Player
from ratings.services.dsb_list import list_import_run
from tests.dsb_lists import bomb, generate

pytestmark = pytest.mark.django_db

SMALL = override_settings(DSB_LIST_MAX_UNCOMPRESSED_BYTES=100_000)  # the generated list unpacks to 260 kB
REFUSED = "spieler.csv in LV-0-csv.zip ist entpackt größer als erlaubt (höchstens 0,1 MB"


@pytest.fixture
def data() -> bytes:
    return generate(3000, seed=3).zip_bytes()


@SMALL
def test_the_command_exits_2_naming_member_and_limit(tmp_path, data):
    path = tmp_path / "LV-0-csv.zip"
    path.write_bytes(data)
    with pytest.raises(CommandError) as error:
        call_command("import_dsb_list", str(path), stdout=io.StringIO())
    assert error.value.returncode == 2
    assert REFUSED in str(error.value) and "Nichts importiert." in str(error.value)
    assert not Player.objects.exists() and not Club.objects.exists()


def test_the_ratio_is_a_setting_too(tmp_path):
    path = tmp_path / "LV-0-csv.zip"
    path.write_bytes(bomb(2))  # 2 MB of one row, packed some 300 times
    with pytest.raises(CommandError) as error:
        call_command("import_dsb_list", str(path), stdout=io.StringIO())
    assert error.value.returncode == 2
    assert "spieler.csv in LV-0-csv.zip ist mehr als 50-fach gepackt" in str(error.value)
    with override_settings(DSB_LIST_MAX_COMPRESSION_RATIO=1000), pytest.raises(CommandError) as error:
        call_command("import_dsb_list", str(path), stdout=io.StringIO())
    assert error.value.returncode == 1  # read: one row imported, its 32,000 copies rejected as duplicates


@SMALL
def test_the_admin_upload_answers_with_a_form_error(client, django_user_model, data):
    client.force_login(django_user_model.objects.create_superuser("chef", "chef@example.org", "geheim-123"))
    upload = SimpleUploadedFile("LV-0-csv.zip", data, content_type="application/zip")
    response = client.post(reverse("admin:ratings_listimport_add"), {"file": upload})
    assert response.status_code == 200
    assert REFUSED in response.content.decode()
    assert not ListImport.objects.exists() and not Player.objects.exists()


def test_the_background_import_fails_with_the_message(data):
    """An upload queued under a larger limit meets the worker's limit: it fails, nothing is imported."""
    list_import = ListImport.objects.create(file_name="LV-0-csv.zip", data=data, total=7)
    with SMALL:
        list_import_run(list_import=list_import)
    list_import.refresh_from_db()
    assert list_import.status == ListImportStatus.FAILED and list_import.exit_code == 2
    assert REFUSED in list_import.summary["error"]
    assert list_import.data is None
    assert not Player.objects.exists() and not Club.objects.exists()


def test_the_default_limits_take_the_list(tmp_path, data):
    path = tmp_path / "LV-0-csv.zip"
    path.write_bytes(data)
    out = io.StringIO()
    call_command("import_dsb_list", str(path), stdout=out)
    assert "3000 Zeilen" in out.getvalue() and Player.objects.exists()
