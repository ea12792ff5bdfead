"""The admin's DSB list upload with mutated generated lists (tests/fuzzing.py): the upload answers a form or
a redirect, the background import ends done (exit 0, 1) or refused (2) with its report page, never a 500 or
a crashed task. Derandomized, so deterministic."""

from __future__ import annotations

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.models import ListImport
from tests.conftest import examples
from tests.fuzzing import dsb_sources, mutate_zip

pytestmark = pytest.mark.django_db
SOURCES = dsb_sources()


@settings(
    max_examples=examples(15),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32))
def test_a_mutated_list_upload_is_answered_not_crashed(
    client, django_user_model, django_capture_on_commit_callbacks, seed
):
    user = django_user_model.objects.filter(username="chef").first()
    user = user or django_user_model.objects.create_superuser("chef", "chef@example.org", "geheim-123")
    client.force_login(user)
    rng = random.Random(seed)
    upload = SimpleUploadedFile("LV-0-csv_20260301.zip", mutate_zip(rng.choice(SOURCES), rng))
    before = ListImport.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("admin:ratings_listimport_add"), {"file": upload})
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        list_import = ListImport.objects.order_by("pk").last()
        assert ListImport.objects.count() == before + 1
        assert list_import.exit_code in (0, 1, 2), list_import.status
        assert client.get(response["Location"]).status_code == 200
        report = reverse("admin:ratings_listimport_report", args=[list_import.pk])
        assert client.get(report).status_code == 200
