"""``manage.py resume_recalculations``: enqueue the unfinished background recalculations again.

Run it when the task workers start (``make run`` does; a service unit's ``ExecStartPre``): a job whose
worker died stays ``running`` with its replay rolled back. Safe while a worker still runs it: the runs
queue on the rating lock and the later one finds the job done.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ratings.services.background import jobs_resume


class Command(BaseCommand):
    help = "Stellt unfertige Neuberechnungen im Hintergrund erneut in die Warteschlange."

    def handle(self, *args, **options) -> None:
        ids = jobs_resume()
        if options["verbosity"]:
            self.stdout.write(
                f"{len(ids)} Neuberechnung(en) erneut eingereiht: {ids}"
                if ids
                else "Keine unfertige Neuberechnung."
            )
