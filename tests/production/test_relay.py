"""The relay between two real Atouts: a venue laptop and the club's hosted site.

Two gunicorn processes on two databases of their own (atout_relay_*), and the venue's
sender (`manage.py relay_push --loop`) as a third process. The night is played on the
venue through its API (draws, donnes at the tables, closes). The hosted site is stopped
for round 2 (the venue cannot reach it: connection refused), and started again for
round 3. The hosted site ends with every ranking version the venue wrote (every one its
pages could publish), its results file equal to the venue's, no item taken twice, no 500.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.production.faults import donne, post_json, run_python
from tests.production.processes import (
    PostgresServer,
    Process,
    clean_env,
    free_port,
    gunicorn,
    http_get,
    manage,
    random_secret,
)

pytestmark = pytest.mark.production

SEED = """
import json
from accounts.services import api_token_create
from tests.factories import ClubFactory, TournamentFactory, UserFactory, competitors_for
club = ClubFactory(name="Belote Club de Rodez", slug="bc-rodez", town="Rodez")
director = UserFactory(username="directrice")
club.organisers.add(director)
answer = {"token": api_token_create(by=director, name="relay").key}
if {venue}:
    night = TournamentFactory(club=club, status="running", end_value=2, rounds_planned=3, slug="concours-du-samedi")
    competitors_for(night, 8)
    answer["slug"] = night.slug
print(json.dumps(answer))
"""

RESULTS_DIGEST = """
from results.building import results_file
from results.checking import digest
from tournaments.models import Tournament
print(digest(results_file(tournament=Tournament.objects.get(slug="concours-du-samedi"))))
"""


def _wait(what: Callable[[], bool], timeout: float, message: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if what():
            return
        time.sleep(0.3)
    raise AssertionError(f"not within {timeout}s: {message}")


class Site:
    def __init__(self, name: str, postgres: PostgresServer, static_root: Path, **settings: str) -> None:
        self.database = f"atout_relay_{name}_{uuid.uuid4().hex[:8]}"
        self.port = free_port()
        self.postgres = postgres
        self.env = clean_env(
            DEBUG="false", SECRET_KEY=random_secret(), ALLOWED_HOSTS="127.0.0.1,localhost",
            DATABASE_URL=postgres.create_database(self.database), STATIC_ROOT=str(static_root),
            GUNICORN_BIND=f"127.0.0.1:{self.port}", WEB_CONCURRENCY="1", GUNICORN_THREADS="4",
            ATOUT_RANKING_PUBLISH_SECONDS="0", CELERY_BROKER_URL="", CACHE_URL="", SECURE_SSL_REDIRECT="false",
            **settings,
        )  # fmt: skip
        self.web = gunicorn(f"relay-{name}-{uuid.uuid4().hex[:6]}", self.env)

    def start(self) -> None:
        self.web.start()
        self.web.wait_for_http(self.port)

    def query(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        return self.postgres.query(self.database, sql, params)

    def seed(self, venue: bool) -> dict[str, str]:
        code = SEED.replace("{venue}", str(venue))
        env = {**self.env, "DJANGO_SETTINGS_MODULE": "atout.settings"}
        return dict(json.loads(run_python(env, code).strip().splitlines()[-1]))

    def python(self, code: str) -> str:
        return run_python({**self.env, "DJANGO_SETTINGS_MODULE": "atout.settings"}, code).strip().splitlines()[-1]


@pytest.fixture
def sites(tmp_path: Path) -> Iterator[tuple[Site, Site, list[Process]]]:
    postgres = PostgresServer.required()
    static_root = tmp_path / "static"
    hosted = Site("hosted", postgres, static_root)
    venue = Site("venue", postgres, static_root, RELAY_URL=f"http://127.0.0.1:{hosted.port}", RELAY_EVERY="1",
                 RELAY_TIMEOUT="3")  # fmt: skip
    extra: list[Process] = []
    try:
        for site in (hosted, venue):
            manage(site.env, "migrate", "--noinput")
        manage(hosted.env, "collectstatic", "--noinput")
        yield hosted, venue, extra
    finally:
        for process in (hosted.web, venue.web, *extra):
            process.stop()
        for site in (hosted, venue):
            postgres.drop_database(site.database)


def _post(site: Site, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    status, _headers, answer = post_json(site.port, f"/api/v1/{path}", body or {}, {"Authorization": f"Token {token}"})
    assert status in (200, 201), (path, status, answer)
    return answer


def _play_round(venue: Site, slug: str, token: str, number: int, seen: set[int]) -> None:
    """Draw round `number`, two donnes at every table, close it; note every version written."""

    def note() -> None:
        seen.update(v for (v,) in venue.query("SELECT version FROM scoring_standingssnapshot"))

    _post(venue, f"tournaments/{slug}/rounds/", token)
    note()
    tables = venue.query(
        "SELECT t.token FROM tournaments_table t JOIN tournaments_round r ON r.id = t.round_id "
        "WHERE r.number = %s ORDER BY t.number",
        number,
    )
    for n in (1, 2):
        for (table_token,) in tables:
            status, _headers, answer = post_json(
                venue.port, "/api/v1/table/hands/", {"raw": donne(n), "expected_number": n},
                {"X-Table-Token": table_token, "Idempotency-Key": f"r{number}-{table_token}-{n}"},
            )  # fmt: skip
            assert status == 201, answer
            note()
    _post(venue, f"tournaments/{slug}/rounds/{number}/close/", token)
    note()


def _hosted_versions(hosted: Site) -> set[int]:
    rows = hosted.query(
        "SELECT s.version FROM scoring_standingssnapshot s JOIN tournaments_tournament t ON t.id = s.tournament_id "
        "WHERE t.slug = 'concours-du-samedi'"
    )
    return {version for (version,) in rows}


def test_the_hosted_site_ends_with_every_version_and_the_venues_results_after_a_cut(sites: Any) -> None:
    hosted, venue, extra = sites
    hosted.start()
    hosted_token = hosted.seed(venue=False)["token"]
    seeded = venue.seed(venue=True)
    slug, token = seeded["slug"], seeded["token"]
    venue.env["RELAY_TOKEN"] = hosted_token
    venue.web.env = venue.env
    venue.start()
    sender = Process(
        f"relay-sender-{uuid.uuid4().hex[:6]}",
        [*gunicorn("x", venue.env).argv[:1], "manage.py", "relay_push", "--loop"],
        venue.env,
    )
    extra.append(sender.start())
    seen: set[int] = set()

    # Round 1, connected: the hosted site follows, and says where its ranking comes from.
    _play_round(venue, slug, token, 1, seen)
    _wait(lambda: seen <= _hosted_versions(hosted), 60, "round 1's versions on the hosted site")
    page = http_get(hosted.port, f"/t/{slug}/", {"Accept-Language": "fr"})
    assert page.status == 200
    assert "En direct depuis la salle, mis à jour il y a" in page.body.decode()
    # The draw is its own item, sent after the versions of the pass that found it changed.
    _wait(
        lambda: http_get(hosted.port, f"/t/{slug}/round/1/draw/", {"Accept-Language": "fr"}).status == 200,
        30,
        "round 1's draw on the hosted site",
    )

    # Round 2, cut off: the hosted site is away; the venue plays on and keeps its outbox.
    hosted.web.stop()
    before_cut = set(seen)
    _play_round(venue, slug, token, 2, seen)
    _wait(lambda: "out of reach" in sender.output(), 30, "the sender finds the hosted site away")
    assert seen - before_cut, "round 2 wrote ranking versions"

    # Restored for round 3; the tournament ends and its results file goes last.
    hosted.web = gunicorn(hosted.web.name + "-again", hosted.env)
    hosted.start()
    _play_round(venue, slug, token, 3, seen)
    _post(venue, f"tournaments/{slug}/status/", token, {"status": "finished"})
    venue_results = venue.python(RESULTS_DIGEST)

    def caught_up() -> bool:
        unsent = venue.query("SELECT count(*) FROM relay_outgoing WHERE sent_at IS NULL")[0][0]
        results = hosted.query("SELECT count(*) FROM relay_relayreceipt WHERE kind = 'results'")[0][0]
        return bool(unsent == 0 and results >= 1)

    _wait(caught_up, 120, "the venue's outbox sent, the results file taken")
    assert seen <= _hosted_versions(hosted), sorted(seen - _hosted_versions(hosted))
    assert hosted.python(RESULTS_DIGEST) == venue_results

    # Nothing taken twice, nothing set aside, no 500 at either end.
    sent = venue.query("SELECT kind, key FROM relay_outgoing ORDER BY id")
    taken = hosted.query("SELECT kind, key FROM relay_relayreceipt")
    assert len(taken) == len(set(taken)) == len(sent) == len(set(sent))
    assert set(taken) == set(sent)
    assert set(re.findall(r"(\d+) set aside", sender.output())) == {"0"}
    for process in (hosted.web, venue.web, sender):
        assert '" 500 ' not in process.output() and "Traceback" not in process.output(), process.log_path
