"""Celery's broker pools in the test process, reset safely."""

from __future__ import annotations

from typing import Any


def forget_broker_pools(app: Any) -> None:
    """Close every broker pool and make the app open new ones on its next send.

    Celery caches its connection pool (`app._pool`) and its producer pool
    (`app.amqp._producer_pool`, drawn from kombu's registry); closing one without
    dropping both leaves every later send, eager ones included, on a closed pool
    ("Acquire on closed pool").
    """
    from kombu import pools

    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None
