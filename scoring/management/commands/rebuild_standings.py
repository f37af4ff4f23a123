"""`manage.py rebuild_standings [--tournament SLUG | --all]`: the director's jobs from a shell.

By default each tournament gets the job the "Recalculate everything" button queues:
every hand re-scored from its raw entry with the tournament's rule options, then the
standings rebuilt and swapped in at once. `--standings-only` rebuilds the standings
from the stored scores. The jobs run here, one after the other, unless `--queue` sends
them to the Celery workers.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import jobs
from scoring.models import Job
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Re-score the hands and rebuild the standings of one tournament, or of all."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--tournament", metavar="SLUG", help="the tournament's public address")
        which.add_argument("--all", action="store_true", help="every tournament")
        parser.add_argument("--standings-only", action="store_true", help="keep the hands' scores as stored")
        parser.add_argument("--queue", action="store_true", help="send the jobs to the Celery workers")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["tournament"]:
            tournaments = list(Tournament.objects.filter(slug=options["tournament"]))
            if not tournaments:
                raise CommandError(f"no tournament at {options['tournament']!r}")
        else:
            tournaments = list(Tournament.objects.order_by("date", "pk"))
        failed = 0
        for tournament in tournaments:
            job = jobs.job_launch(
                tournament=tournament, rescore=not options["standings_only"], enqueue=options["queue"]
            )
            if options["queue"]:
                self.stdout.write(f"{tournament.slug}: job {job.pk} queued")
                continue
            started = time.perf_counter()
            done = jobs.job_run(job_id=job.pk) or job
            seconds = time.perf_counter() - started
            if done.status == Job.Status.DONE:
                self.stdout.write(
                    f"{tournament.slug}: {done.get_kind_display()} done, {done.total} hands, {seconds:.2f} s"
                )
            else:
                failed += 1
                self.stderr.write(f"{tournament.slug}: {done.get_status_display()}: {done.error}")
        if failed:
            raise CommandError(f"{failed} tournament(s) not rebuilt")
