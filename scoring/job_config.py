"""What a job installs on a tournament, and what the tournament will have once its jobs are through.

Terms: a job's *configuration* is the part of a tournament it installs (CONFIG_FIELDS),
carried whole in the job's `params` (scoring/jobs.py). Read by the jobs, which launch
and swap it, and by the season jobs (seasons/ranking.py), which queue one per tournament.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast

from scoring.models import Job
from tournaments.models import Tournament


class JobConfig(TypedDict, total=False):
    """What a job installs: the Tournament fields of the same names."""

    rule_options: dict[str, Any]  # the game's options, as the engine resolves them
    criteria: list[str]  # the ranking's criteria, in order (engine.standings keys)
    match_points: dict[str, Any]  # win, draw, loss: the match points' scheme
    bye_policy: str
    bye_points: int


class JobParams(JobConfig, total=False):
    """A Job's `params` (JSON): the configuration of a tournament's job, and the season's keys."""

    season_job: int  # the season's job that queued this tournament's job
    counted: bool  # that season job counted this one in its progress (once)
    rescore: bool  # a season job: re-score its tournaments' hands, or only rebuild


ConfigField = Literal["rule_options", "criteria", "match_points", "bye_policy", "bye_points"]
CONFIG_FIELDS: tuple[ConfigField, ...] = ("rule_options", "criteria", "match_points", "bye_policy", "bye_points")
ACTIVE = (Job.Status.QUEUED, Job.Status.RUNNING)


def tournament_config(tournament: Tournament) -> JobConfig:
    """The part of a tournament's configuration that a job installs."""
    return {
        "rule_options": tournament.rule_options,
        "criteria": tournament.criteria,
        "match_points": tournament.match_points,
        "bye_policy": tournament.bye_policy,
        "bye_points": tournament.bye_points,
    }


def config_of(values: Mapping[str, Any]) -> JobConfig:
    """The configuration keys of `values` (a job's params, a caller's changes), the others left."""
    return cast(JobConfig, {key: value for key, value in values.items() if key in CONFIG_FIELDS})


def pending_config(tournament: Tournament) -> JobConfig:
    """The configuration the tournament will have once its newest queued job is through."""
    job = (
        Job.objects.filter(tournament=tournament, status__in=ACTIVE, kind__in=(Job.Kind.RESCORE, Job.Kind.REBUILD))
        .order_by("-pk")
        .first()
    )
    config = tournament_config(tournament)
    if job is not None:
        config.update(config_of(job.params))
    return config
