"""gunicorn's configuration, read from the environment.

    gunicorn -c python:serving.gunicorn_conf atout.wsgi

Every variable is listed in `.env.example`. The request lines come from Atout's own
middleware (with the request id and the tournament), so gunicorn's access log stays off;
gunicorn's own messages use the same format as the site's (`LOG_FORMAT`).
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn.glogging import Logger

from kit.env import env_int, env_list, env_str
from kit.logs import FILTERS, console_handler

# Sync workers: a request is short (a hand saved, a page of standings read from a
# snapshot), so processes, not threads, are the unit of scale. 2 x CPUs + 1 is gunicorn's
# advice; the cap keeps a laptop in venue mode from starting dozens of processes.
workers = env_int("WEB_CONCURRENCY", min(2 * (os.cpu_count() or 1) + 1, 8))
threads = env_int("GUNICORN_THREADS", 1)
bind = env_list("GUNICORN_BIND", [f"0.0.0.0:{env_int('PORT', 8000)}"])
timeout = env_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = env_int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = env_int("GUNICORN_KEEPALIVE", 5)
# Recycle workers now and then so a slow leak never takes a tournament night down; the
# jitter keeps them from all restarting at once. Not too often: a new worker starts cold
# (Django imported again, « Ma soirée »'s layers read again from the shared cache).
max_requests = env_int("GUNICORN_MAX_REQUESTS", 50_000)
max_requests_jitter = max_requests // 10
# Which proxies may tell gunicorn the original scheme and client (X-Forwarded-*).
forwarded_allow_ips = env_str("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Heartbeat files on tmpfs: a container's overlay /tmp can stall workers under load.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# gunicorn 24+ opens a control socket in $HOME by default: the image's user has no
# writable home, and two gunicorns on one machine (tests, venue mode) would share the
# path. Atout does not use it. (Older gunicorns ignore the unknown name.)
control_socket_disable = True
# Each worker imports the site itself, so no database connection is shared across a fork.
preload_app = False

# Caches that live inside one process: a count kept there (the wrong-table-link limit) is
# per worker, so with several workers it is several counts, each as lenient as the limit.
PER_PROCESS_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


def shared_cache_problem(*, workers: int, debug: bool, cache_backend: str) -> str | None:
    """Why the site must not start with this many workers on this cache, if it must not."""
    if debug or workers <= 1 or cache_backend not in PER_PROCESS_CACHES:
        return None
    return (
        f"{workers} gunicorn workers with DEBUG off need a cache they share: set CACHE_URL "
        f"(redis://host:6379/1), or run one worker (WEB_CONCURRENCY=1). The cache is {cache_backend}, "
        "one per process, so the limits counted in it would be counted once per worker."
    )


def on_starting(server: object) -> None:
    """gunicorn's hook before the workers start: refuse a per-process cache with several workers.

    A RuntimeError here is printed by gunicorn as "Error: ..." and it exits with status 1.
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atout.settings")
    from django.conf import settings

    problem = shared_cache_problem(
        workers=int(getattr(getattr(server, "cfg", None), "workers", workers)),
        debug=bool(settings.DEBUG),
        cache_backend=str(settings.CACHES["default"]["BACKEND"]),
    )
    if problem:
        raise RuntimeError(problem)


class SiteLogger(Logger):
    """gunicorn's logger, without its access log: Atout's middleware logs every request.

    gunicorn builds the access line's atoms (a dict of every header, its own and the
    response's) for each request whenever a logging configuration is given, as here,
    even when the access logger has nowhere to write. On a big night that is hundreds of
    dicts a second for nothing (py-spy at 1,000 teams: 5% of a web worker's samples).
    """

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        return None


logger_class = SiteLogger


accesslog = None
errorlog = "-"
loglevel = env_str("LOG_LEVEL", "INFO").lower()
_log_format = env_str("LOG_FORMAT", "kv")
# gunicorn's own lines go through the site's handler and its filters (kit.logs).
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": FILTERS,
    "formatters": {"atout": {"()": f"kit.logs.{'JsonFormatter' if _log_format == 'json' else 'KeyValueFormatter'}"}},
    "handlers": {"console": console_handler("atout", stream="ext://sys.stderr")},
    "loggers": {
        "gunicorn.error": {"handlers": ["console"], "level": loglevel.upper(), "propagate": False},
        "gunicorn.access": {"handlers": [], "propagate": False},
    },
}
