"""Admin of the background recalculations: a read-only list, the progress page as "view on site", and the
resume action of ``manage.py resume_recalculations``."""

import datetime

import pytest
from django.urls import reverse

from ratings.models import RecalculationJob, RecalculationJobStatus

pytestmark = pytest.mark.django_db


def test_list_detail_and_resume(admin_client, django_capture_on_commit_callbacks):
    job = RecalculationJob.objects.create(
        since=datetime.date(2024, 1, 1), status=RecalculationJobStatus.RUNNING
    )
    assert admin_client.get(reverse("admin:ratings_recalculationjob_changelist")).status_code == 200
    assert (
        admin_client.get(reverse("admin:ratings_recalculationjob_change", args=[job.pk])).status_code == 200
    )
    assert job.get_absolute_url() == reverse("ratings:recalculation-progress", args=[job.pk])
    response = admin_client.post(
        reverse("admin:ratings_recalculationjob_changelist"),
        {"action": "resume", "_selected_action": [job.pk]},
        follow=True,
    )
    assert "1 Neuberechnung(en) erneut eingereiht." in response.content.decode()
    job.refresh_from_db()
    assert job.status == RecalculationJobStatus.DONE  # the immediate backend ran it (nothing to replay)
