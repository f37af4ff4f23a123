"""PostgreSQL restarted while referees enter: "réessayez", nothing lost or doubled, no restart.

A private PostgreSQL server (tests.production.servers) under gunicorn with DEBUG off.
Four tables enter donnes through the API while the server is stopped and started again;
a fifth referee, on a phone's browser, sends a donne during the outage. Every request
the outage touches is answered 503 with the French "Réessayez" (no 500, no traceback);
every donne acknowledged is stored once, in its place; the phone keeps its donne and
sends it by itself once the database is back; gunicorn is never restarted.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.conftest import PHONE
from tests.production.faults import Referee, seed_tables, site_env, wait_until
from tests.production.processes import Process, free_port, gunicorn, http_get, manage
from tests.production.servers import PrivatePostgres, private_postgres

API_TABLES = 4
DONNES = 14
OUTAGE_SECONDS = 4
DATABASE = "atout_fault"


@dataclass
class Site:
    postgres: PrivatePostgres
    web: Process
    port: int
    tokens: list[str]

    def hands(self, token: str) -> list[tuple[int, object, str | None]]:
        return [
            (int(number), raw, key)  # type: ignore[call-overload]
            for number, raw, key in self.postgres.query(
                DATABASE,
                "SELECT h.number, h.raw, h.idempotency_key FROM scoring_hand h "
                "JOIN tournaments_table t ON t.id = h.table_id WHERE t.token = %s ORDER BY h.number",
                (token,),
            )
        ]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with private_postgres() as postgres:
        port = free_port()
        env = site_env(postgres.create_database(DATABASE), port, tmp_path / "static")
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        tokens = seed_tables(env, API_TABLES + 1)
        web = gunicorn(f"gunicorn-pg-fault-{port}", env).start()
        try:
            web.wait_for_http(port)
            yield Site(postgres, web, port, tokens)
        finally:
            web.stop()


@pytest.mark.browser
def test_postgresql_restarted_while_referees_enter(site: Site, browser) -> None:
    # The session's browser (tests/conftest.py): a second Playwright in this thread would
    # find the first one's event loop running.
    deadline = time.monotonic() + 240
    referees = [Referee(site.port, token, DONNES, deadline, pause=0.15) for token in site.tokens[:API_TABLES]]
    phone_token = site.tokens[API_TABLES]
    gunicorn_pid = site.web.process.pid if site.web.process else None
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"http://127.0.0.1:{site.port}/r/{phone_token}/")
        page.locator("#hand-form").wait_for()
        for referee in referees:
            referee.start()
        wait_until(lambda: all(len(r.acknowledged) >= 3 for r in referees), 90, "three donnes at every table")

        site.postgres.stop("fast")
        outage_started = time.monotonic()
        # The phone types a donne and sends it while the database is away.
        page.locator("#f-taker label.chip", has_text="C10").first.click()
        page.locator("#f-contract label.chip", has_text="cœur").first.click()
        page.locator("#id_points_taker").fill("100")
        page.locator("#hand-form button[type=submit]").click()
        page.get_by_text("Pas de connexion : cette donne est gardée sur le téléphone").wait_for()
        # A page of the site during the outage: 503 with "réessayez", no traceback.
        during = http_get(site.port, f"/r/{phone_token}/", {"Accept-Language": "fr"})
        time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - outage_started)))
        site.postgres.start()

        # referee.js sends the kept donne again by itself (every 8 s), under its key.
        page.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=60_000)
        for referee in referees:
            referee.join()
    finally:
        context.close()

    assert during.status == 503 and during.header("Retry-After") == "5"
    assert "Réessayez dans quelques secondes" in during.body.decode()
    assert b"Traceback" not in during.body

    for referee in referees:
        assert referee.failures == []
        assert [number for number, _, _ in referee.acknowledged] == list(range(1, DONNES + 1))
        # Every acknowledged donne is there once, in its place, as it was sent.
        assert site.hands(referee.token) == [(number, raw, key) for number, key, raw in referee.acknowledged]
    answers = [answer for referee in referees for answer in referee.unavailable]
    assert answers, "no entry met the outage: it was too short to test anything"
    for headers, body in answers:
        assert headers.get("Retry-After") == "5"
        assert body["errors"][0]["code"] == "unavailable"
        assert "Réessayez" in body["errors"][0]["message"]
    phone_hands = site.hands(phone_token)
    assert [(number, raw) for number, raw, _ in phone_hands] == [
        (1, {"taker": "B", "contract": "hearts", "points": {"A": 62, "B": 100}})
    ]

    # The same gunicorn serves on: the site recovered without a restart.
    assert site.web.alive() and site.web.process is not None and site.web.process.pid == gunicorn_pid
    assert http_get(site.port, "/healthz").status == 200
    assert "Internal Server Error" not in site.web.output()
