from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        # `tasks` is imported for its registration: the aggregation is queued by name
        # (seasons/ranking.py), and this process must find it to run it at once when
        # there is no broker.
        from scoring.jobs import job_kind_register
        from scoring.models import Job
        from scoring.signals import job_finished
        from seasons import ranking, receivers, tasks  # noqa: F401
        from tournaments.signals import names_erased

        # A season job is a scoring Job whose work is ours: scoring runs it through this.
        job_kind_register(Job.Kind.SEASON, lambda job: ranking.season_job_run(job=job))
        job_finished.connect(receivers.job_finished, dispatch_uid="seasons.job_finished")
        names_erased.connect(receivers.names_erased, dispatch_uid="seasons.names_erased")
