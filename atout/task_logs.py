"""One log line per Celery job: task name, id, tournament, duration, outcome.

Connected to Celery's signals when the `atout` app is ready, so it works the same in a
worker process and for tasks run eagerly inside a web process. The request id of the
request that enqueued a task travels in the message headers and is logged with the job.

A failing task's traceback is logged by Celery itself; that line carries the job's and
the request's ids too, since the context still holds them when Celery writes it.

The tournament is named from the task's keyword arguments: `tournament_id` outright, or
`job_id` (a `scoring.Job` row, which knows its tournament).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import signals

from kit.logs import request_id_var, task_id_var

logger = logging.getLogger("atout.job")

# task id -> (start time, context tokens): the prerun and postrun signals of one task
# run in the same thread, one after the other.
_running: dict[str, tuple[float, Any, Any]] = {}


def tournament_id_of(kwargs: dict[str, Any] | None) -> int | None:
    """The tournament a task works on, from its keyword arguments, if it says."""
    kwargs = kwargs or {}
    if kwargs.get("tournament_id") is not None:
        return int(kwargs["tournament_id"])
    if kwargs.get("job_id") is not None:
        from scoring.models import Job

        return Job.objects.filter(pk=kwargs["job_id"]).values_list("tournament_id", flat=True).first()
    return None


@signals.before_task_publish.connect
def _attach_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    request_id = request_id_var.get()
    if headers is not None and request_id and "request_id" not in headers:
        headers["request_id"] = request_id


@signals.task_prerun.connect
def _job_started(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    if task_id is None:
        return
    # A worker has no request: it takes the id the enqueuing request sent along. An eager
    # task keeps the request id already set in this thread.
    request_id = getattr(task.request, "request_id", None) if task is not None else None
    request_token = request_id_var.set(request_id) if request_id else None
    _running[task_id] = (time.perf_counter(), task_id_var.set(task_id), request_token)


@signals.task_postrun.connect
def _job_finished(
    task_id: str | None = None,
    task: Any = None,
    kwargs: dict[str, Any] | None = None,
    state: str | None = None,
    **_: Any,
) -> None:
    if task_id is None or task_id not in _running:
        return
    started, task_token, request_token = _running.pop(task_id)
    try:
        try:
            tournament_id = tournament_id_of(kwargs)
        except Exception:  # the line must be written even if the lookup fails
            tournament_id = None
        # No state means the task raised and Celery let the exception through (an eager
        # task that propagates): a failure, reported to the caller rather than logged.
        state = state or "FAILURE"
        fields = {
            "task": getattr(task, "name", None),
            "tournament_id": tournament_id,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            "outcome": state.lower(),
        }
        level = logging.ERROR if state == "FAILURE" else logging.INFO
        logger.log(level, "job", extra={"fields": fields})
    finally:
        _reset(task_id_var, task_token)
        if request_token is not None:
            _reset(request_id_var, request_token)


def _reset(var: Any, token: Any) -> None:
    try:
        var.reset(token)
    except ValueError:
        # Set in another context (a pool that hops threads between signals): just clear it.
        var.set(None)
