"""The organisation tree alone in the admin: offered on the federations' list, uploaded like a DSB list,
imported in the background, reported as a list import is (issue 32)."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import Club, ListImport, ListImportStatus, Organisation

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parent.parent / "data" / "dewis-organizations-2019-08-02.csv"


@pytest.fixture
def admin_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("chef", "chef@example.org", "geheim-123")
    client.force_login(user)
    return client


def _upload(client, data: bytes, name: str, **fields):
    upload = SimpleUploadedFile(name, data, content_type="text/csv")
    return client.post(reverse("admin:ratings_listimport_add"), {"file": upload, **fields})


def test_the_federations_list_offers_the_tree_import(admin_client):
    page = admin_client.get(reverse("admin:ratings_organisation_changelist")).content.decode()
    link = reverse("admin:ratings_listimport_add") + "?art=verbandsbaum"
    assert f'href="{link}"' in page and "Verbandsbaum importieren" in page
    upload = admin_client.get(link).content.decode()
    assert "<title>Verbandsbaum importieren" in upload and 'id="tree-intro"' in upload


def test_the_uploaded_tree_is_imported_and_reported(admin_client, django_capture_on_commit_callbacks):
    data = TREE.read_bytes().replace(b"3256,10102,SC Viernheim", b"3256,10_02,SC Viernheim")  # one bad row
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(admin_client, data, TREE.name)
    record = ListImport.objects.get()
    assert response.status_code == 302
    assert record.status == ListImportStatus.DONE and record.generation == "verbandsbaum"
    assert record.exit_code == 1 and record.summary["rejected"] == 1 and record.summary["created"] == 2348
    assert "abgleich" not in record.summary
    assert Organisation.objects.count() == 199 and Club.objects.count() == 2149
    page = admin_client.get(response["Location"]).content.decode()
    assert 'id="list-import-tree-counts">199 / 2149<' in page
    assert "Startwerte" not in page and "Geändert, abgelehnt, Warnungen" in page
    assert "VKZ „10_02“ ist weder ein Verband" in page
    csv = admin_client.get(reverse("admin:ratings_listimport_report", args=[record.pk]))
    assert len(csv.content.decode("utf-8-sig").splitlines()) == 1 + 2349
    listing = admin_client.get(reverse("admin:ratings_listimport_changelist")).content.decode()
    assert "2348 / 0 / 0 / 1" in listing


def test_umstufung_is_refused_for_a_tree(admin_client):
    response = _upload(admin_client, TREE.read_bytes(), TREE.name, umstufung="on")
    assert response.status_code == 200 and not ListImport.objects.exists()
    assert "nicht den Verbandsbaum" in response.content.decode()
