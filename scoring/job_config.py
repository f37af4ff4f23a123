"""What a job installs on a tournament, and what the tournament will have once its jobs are through.

Terms: a job's *configuration* is the part of a tournament it installs (CONFIG_FIELDS),
carried whole in the job's `params` (scoring/jobs.py). Read by the jobs, which launch
and swap it, and by the season jobs (scoring/seasons.py), which queue one per tournament.
"""

from __future__ import annotations

from typing import Any

from scoring.models import Job
from tournaments.models import Tournament

CONFIG_FIELDS = ("rule_options", "criteria", "match_points", "bye_policy", "bye_points")
ACTIVE = (Job.Status.QUEUED, Job.Status.RUNNING)


def tournament_config(tournament: Tournament) -> dict[str, Any]:
    """The part of a tournament's configuration that a job installs."""
    return {name: getattr(tournament, name) for name in CONFIG_FIELDS}


def pending_config(tournament: Tournament) -> dict[str, Any]:
    """The configuration the tournament will have once its newest queued job is through."""
    job = (
        Job.objects.filter(tournament=tournament, status__in=ACTIVE, kind__in=(Job.Kind.RESCORE, Job.Kind.REBUILD))
        .order_by("-pk")
        .first()
    )
    config = tournament_config(tournament)
    if job is not None:
        config.update({key: value for key, value in job.params.items() if key in CONFIG_FIELDS})
    return config
