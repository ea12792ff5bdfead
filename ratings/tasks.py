"""Background tasks (Django's task framework, ``django-tasks``): work too long for a request."""

from __future__ import annotations

from django_tasks import task


@task()
def list_import_task(list_import_id: int) -> int | None:
    """Run a stored DSB list upload (``ListImport``); returns its exit code (0, 1 or 2)."""
    from ratings.models import ListImport
    from ratings.services.dsb_list import list_import_run

    list_import = ListImport.objects.filter(pk=list_import_id).first()
    if list_import is None:
        return None
    return list_import_run(list_import=list_import).exit_code


@task()
def recalculation_task(job_id: int) -> str | None:
    """Run a background recalculation (``RecalculationJob``); returns its final status."""
    from ratings.services.background import job_run

    job = job_run(job_id=job_id)
    return None if job is None else job.status
