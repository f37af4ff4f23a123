"""A worker outlives its Redis restarting while it holds a message not yet acknowledged.

Every task is acknowledged late (CELERY_TASK_ACKS_LATE), and a publication sent for later
(`scoring.live_files_publish` with a countdown, after a hand entered within
ATOUT_RANKING_PUBLISH_SECONDS of the last publication) is held by the worker, not yet
acknowledged, until its time. Celery 5.7.0's consumer died when the broker dropped then
("Unrecoverable error: AttributeError"), and with it the worker; atout.celery's
BrokerLossConsumer reconnects instead. A real worker on a private redis-server, killed and
started again empty.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from scoring.enqueue import LIVE_FILES_PUBLISH
from tests.production.faults import site_env, wait_until
from tests.production.processes import PostgresServer, celery_worker, free_port, manage, send_task
from tests.production.servers import private_redis


def test_a_worker_holding_a_message_outlives_redis_restarting_empty(tmp_path: Path) -> None:
    postgres = PostgresServer.required()
    tag = uuid.uuid4().hex[:8]
    database = f"atout_worker_broker_{tag}"
    queue = f"atout-broker-restart-{tag}"
    with private_redis() as redis:
        env = site_env(
            postgres.create_database(database), free_port(), tmp_path / "static",
            CELERY_BROKER_URL=redis.url(0), CACHE_URL=redis.url(1), CELERY_QUEUE=queue,
            CELERY_WORKER_CONCURRENCY="1",
        )  # fmt: skip
        worker = celery_worker(f"worker-broker-restart-{tag}", f"restart-{tag}", env)
        try:
            manage(env, "migrate", "--noinput")
            worker.start()
            worker.wait_for_output("ready.")
            # A publication for later (of no tournament: it does nothing when its time comes).
            held = send_task(redis.url(0), LIVE_FILES_PUBLISH, queue, countdown=600, tournament_id=0, due=1)
            wait_until(lambda: f"{held}] received" in worker.output(), 30, "the worker to hold the message")
            # The consumer waits for the next message meanwhile, as on any night.
            wait_until(lambda: worker.output().count("received") == 1, 5, "nothing else received")
            redis.kill()
            redis.start()

            # The worker reconnects to the new, empty Redis and runs what is sent next.
            ran = send_task(redis.url(0), LIVE_FILES_PUBLISH, queue, tournament_id=0)
            wait_until(
                lambda: f"{ran}] succeeded" in worker.output() or not worker.alive(), 60, "the next message, run"
            )
            assert worker.alive(), worker.output()[-3000:]
            assert "Unrecoverable error" not in worker.output()
            assert f"{ran}] succeeded" in worker.output()
            assert "Connection to broker lost" in worker.output()
        finally:
            worker.stop()
            postgres.drop_database(database)
