"""Venue mode (`./run --venue`): the LAN address, the settings it generates, and the
processes it starts, served on loopback here (the tests never bind a real network)."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import lan, venue
from tests.conftest import ROOT, require_redis
from tests.production.processes import Process, clean_env, free_port, http_get, send_task

IP_ADDR = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: enp3s0    inet 82.64.10.40/24 brd 82.64.10.255 scope global enp3s0\\       valid_lft forever
3: wlp2s0    inet 192.168.1.23/24 brd 192.168.1.255 scope global dynamic wlp2s0\\       valid_lft 86000sec
4: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\       valid_lft forever
5: br-5f2a9c1d    inet 172.18.0.1/16 brd 172.18.255.255 scope global br-5f2a9c1d\\       valid_lft forever
6: eth1    inet 169.254.12.7/16 brd 169.254.255.255 scope link eth1\\       valid_lft forever
7: eth2    inet 10.0.0.5/8 brd 10.255.255.255 scope global eth2\\       valid_lft forever
"""


def test_the_wifi_address_comes_first_and_bridges_loopback_and_link_local_never_do() -> None:
    ranked = sorted(lan.parse_ip_addr(IP_ADDR), key=lan.rank)
    assert [c.address for c in ranked] == ["192.168.1.23", "10.0.0.5", "82.64.10.40"]
    assert ranked[0].interface == "wlp2s0"


def test_hostname_i_output_is_read_too_without_ipv6_or_loopback() -> None:
    found = lan.parse_hostname_i("127.0.1.1 192.168.0.12 fd00::2 169.254.3.3 10.1.2.3\n")
    assert [c.address for c in found] == ["192.168.0.12", "10.1.2.3"]


def test_interfaces_fall_back_to_hostname_when_ip_is_missing() -> None:
    outputs = {"ip": "", "hostname": "192.168.0.12 10.1.2.3"}
    found = lan.interface_addresses(run=lambda argv: outputs[argv[0]])
    assert [c.address for c in found] == ["192.168.0.12", "10.1.2.3"]


def test_the_default_route_wins_and_the_other_addresses_are_offered_too() -> None:
    interfaces = [lan.Candidate("192.168.1.23", "wlp2s0"), lan.Candidate("10.0.0.5", "eth2")]
    chosen, others = lan.detect(route=lambda: "10.0.0.5", interfaces=lambda: interfaces)
    assert (chosen, others) == ("10.0.0.5", ["192.168.1.23"])


def test_a_room_without_internet_still_finds_the_wifi_address() -> None:
    # No default route: the UDP probe finds nothing, the interfaces do.
    chosen, _ = lan.detect(route=lambda: None, interfaces=lambda: sorted(lan.parse_ip_addr(IP_ADDR), key=lan.rank))
    assert chosen == "192.168.1.23"


def test_no_network_at_all_says_what_to_do() -> None:
    with pytest.raises(lan.NoLanAddress, match="--host"):
        lan.detect(route=lambda: None, interfaces=lambda: [])


def test_the_route_probe_never_answers_loopback() -> None:
    # connect() on a UDP socket sends nothing; on this machine it names an interface or nothing.
    address = lan.route_address()
    assert address is None or lan.usable(address)


def test_the_venue_takes_secret_key_from_the_environment_else_the_key_run_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / ".secret-key"))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    kept = venue.venue_secret()
    assert kept == (tmp_path / ".secret-key").read_text().strip() and len(kept) >= 50
    monkeypatch.setenv("SECRET_KEY", "given-" * 10)
    assert venue.venue_secret() == "given-" * 10


@pytest.mark.parametrize("name", [".venue-secret", ".venue.log"])
def test_the_venue_s_old_secret_and_its_log_are_ignored_by_git(name: str) -> None:
    result = subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT, check=False)
    assert result.returncode == 0


def test_the_environment_chooses_the_database_and_broker_over_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(venue, "postgres_answers", lambda url: pytest.fail("must not probe"))
    services = venue.choose_services(
        {"DATABASE_URL": "postgres://club@db/atout", "CELERY_BROKER_URL": "redis://r:6379/0"}, probe=True
    )
    assert services == venue.Services("postgres://club@db/atout", "redis://r:6379/0", "")


def test_local_postgresql_and_redis_are_used_when_they_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(venue, "postgres_answers", lambda url: True)
    monkeypatch.setattr(venue, "redis_answers", lambda url: True)
    services = venue.choose_services({}, probe=True)
    assert services.database_url == venue.LOCAL_POSTGRES
    assert services.broker_url == "redis://127.0.0.1:6379/0" and services.cache_url == "redis://127.0.0.1:6379/1"
    assert services.worker and services.describe() == "PostgreSQL, a Celery worker on Redis"


def test_without_them_the_venue_runs_on_sqlite_with_tasks_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(venue, "postgres_answers", lambda url: False)
    monkeypatch.setattr(venue, "redis_answers", lambda url: False)
    for probe in (True, False):
        services = venue.choose_services({}, probe=probe)
        assert services == venue.Services("sqlite:///db.sqlite3", "", "")
        assert services.describe() == "SQLite, tasks run in the web process"


def test_the_generated_settings_are_production_over_plain_http_on_the_lan() -> None:
    env = venue.venue_environment(
        host="192.168.1.23", port=8000, secret="s" * 40 + "abcdefghijklmnop",
        services=venue.Services("sqlite:///db.sqlite3"),
    )  # fmt: skip
    assert env["GUNICORN_BIND"] == "192.168.1.23:8000,127.0.0.1:8000"
    probe = (
        "import json, django; django.setup(); from django.conf import settings as s;"
        "print(json.dumps([s.DEBUG, s.ALLOWED_HOSTS, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS,"
        " s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.CELERY_TASK_ALWAYS_EAGER,"
        " s.STORAGES['staticfiles']['BACKEND']]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean_env(**env), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    debug, hosts, redirect, hsts, session_secure, csrf_secure, eager, storage = json.loads(result.stdout)
    assert debug is False
    assert {"192.168.1.23", "127.0.0.1", "localhost"} <= set(hosts)
    assert (redirect, hsts, session_secure, csrf_secure) == (False, 0, False, False)
    assert eager is True
    assert storage == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_the_venue_s_codes_carry_the_room_s_address_unless_the_environment_names_one() -> None:
    services = venue.Services("sqlite:///db.sqlite3")
    secret = "s" * 40 + "abcdefghijklmnop"
    found = venue.venue_environment(host="192.168.1.23", port=8000, secret=secret, services=services)
    assert found["ATOUT_PUBLIC_URL"] == "http://192.168.1.23:8000"
    chosen = venue.venue_environment(
        host="192.168.1.23", port=8000, secret=secret, services=services, public_url="http://atout.local:8000"
    )
    assert chosen["ATOUT_PUBLIC_URL"] == "http://atout.local:8000"
    probe = "import django; django.setup(); from django.conf import settings as s; print(s.ATOUT_PUBLIC_URL)"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean_env(**found), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "http://192.168.1.23:8000"


def test_the_banner_prints_the_address_and_a_qr_code() -> None:
    out = io.StringIO()
    services = venue.Services("sqlite:///db.sqlite3")
    venue.print_banner("http://192.168.1.23:8000/", ["10.0.0.5"], services, Path(".venue.log"), out)
    text = out.getvalue()
    assert "http://192.168.1.23:8000/" in text
    assert "Also reachable at: http://10.0.0.5:8000/" in text
    qr_rows = [line for line in text.splitlines() if "█" in line]
    assert len(qr_rows) >= 10  # a QR code of version 2+ in half-height rows


# -- the real processes, on loopback ---------------------------------------------------


def _start_venue(tmp_path: Path, **env: str) -> tuple[Process, int]:
    port = free_port()
    database = tmp_path / "venue.sqlite3"
    process = Process(
        f"venue-{uuid.uuid4().hex[:8]}",
        [sys.executable, "-m", "serving.venue", "--host", "127.0.0.1", "--port", str(port), "--embedded",
         "--secret-file", str(tmp_path / ".venue-secret"), "--log-file", str(tmp_path / "venue.log")],
        clean_env(DATABASE_URL=f"sqlite:///{database}", STATIC_ROOT=str(tmp_path / "static"),
                  WEB_CONCURRENCY="2", **env),
    ).start()  # fmt: skip
    process.wait_for_output("Stop with Ctrl+C.", timeout=120)
    return process, port


@pytest.fixture
def embedded_venue(tmp_path: Path) -> Iterator[tuple[Process, int]]:
    process, port = _start_venue(tmp_path)
    try:
        yield process, port
    finally:
        process.stop()


def test_a_venue_serves_the_site_production_like_over_plain_http(
    embedded_venue: tuple[Process, int], tmp_path: Path
) -> None:
    process, port = embedded_venue
    output = process.output()
    assert f"Atout is open on this room's network: http://127.0.0.1:{port}/" in output
    assert "█" in output
    assert "No organiser account yet" in output
    # The servers log to the venue's log file, leaving the QR code on the screen.
    assert "Starting gunicorn" not in output
    assert "atout.request" in (tmp_path / "venue.log").read_text()
    health = http_get(port, "/healthz")
    assert health.status == 200
    assert json.loads(health.body)["checks"] == {"database": {"ok": True, "detail": "sqlite"}}
    home = http_get(port, "/")
    assert home.status == 200  # no redirect to https on the room's network
    assert home.header("Strict-Transport-Security") is None
    assert home.header("X-Frame-Options") == "DENY" and home.header("X-Content-Type-Options") == "nosniff"
    # No account yet: the login leads to the first administrator's form, in the browser.
    login = http_get(port, "/login/")
    assert login.status == 302 and login.header("Location") == "/setup/"
    cookie = http_get(port, "/setup/").header("Set-Cookie") or ""
    assert "csrftoken=" in cookie and "Secure" not in cookie
    missing = http_get(port, "/no-such-page/")
    assert missing.status == 404 and b"URLconf" not in missing.body


def test_a_venue_serves_its_collected_static_files(embedded_venue: tuple[Process, int], tmp_path: Path) -> None:
    _, port = embedded_venue
    manifest = json.loads((tmp_path / "static" / "staticfiles.json").read_text())
    response = http_get(port, f"/static/{manifest['paths']['css/atout.css']}", {"Accept-Encoding": "gzip"})
    assert response.status == 200 and response.header("Content-Encoding") == "gzip"


def test_stopping_the_venue_stops_every_process(tmp_path: Path) -> None:
    process, port = _start_venue(tmp_path)
    assert process.process is not None
    try:
        process.process.send_signal(signal.SIGTERM)
        assert process.process.wait(30) == 0
        with pytest.raises(OSError):
            http_get(port, "/healthz", timeout=2)
        # Nothing of the venue's process group is left behind.
        with pytest.raises(ProcessLookupError):
            os.killpg(process.process.pid, 0)
    finally:
        process.stop()


def test_with_redis_a_venue_starts_a_worker_that_runs_the_jobs(tmp_path: Path) -> None:
    broker = require_redis()
    queue = f"atout-venue-{uuid.uuid4().hex[:8]}"
    process, port = _start_venue(tmp_path, CELERY_BROKER_URL=broker, CELERY_QUEUE=queue)
    try:
        assert "SQLite, a Celery worker on Redis" in process.output()
        assert json.loads(http_get(port, "/healthz").body)["checks"]["broker"]["ok"] is True
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "ready." not in (tmp_path / "venue.log").read_text():
            time.sleep(0.2)
        send_task(broker, "atout.heartbeat", queue)
        deadline, rows = time.monotonic() + 30, []
        while time.monotonic() < deadline and not rows:
            with sqlite3.connect(tmp_path / "venue.sqlite3") as db:
                rows = db.execute("SELECT runs FROM atout_workerheartbeat").fetchall()
            time.sleep(0.3)
        assert rows == [(1,)]
    finally:
        process.stop()


def test_the_relay_is_configured_by_both_its_address_and_its_token() -> None:
    assert venue.relay_configured({"RELAY_URL": "https://concours.example", "RELAY_TOKEN": "abc"})
    assert not venue.relay_configured({"RELAY_URL": "https://concours.example"})
    assert not venue.relay_configured({"RELAY_URL": " ", "RELAY_TOKEN": "abc"})
    assert not venue.relay_configured({})


def test_with_a_relay_set_the_venue_starts_its_sender_which_waits_for_the_network(tmp_path: Path) -> None:
    """A venue laptop without Internet: the hosted site answers nowhere (a closed port);
    the sender runs beside gunicorn, says so in the log, and the room is served as ever."""
    hosted = f"http://127.0.0.1:{free_port()}"
    process, port = _start_venue(tmp_path, RELAY_URL=hosted, RELAY_TOKEN="not-a-real-token", RELAY_EVERY="1")
    try:
        assert f"Relay: the night goes to {hosted} whenever the network lets it." in process.output()
        deadline = time.monotonic() + 60
        log = tmp_path / "venue.log"
        while time.monotonic() < deadline and "relay: 0 sent" not in log.read_text():
            time.sleep(0.3)
        assert "relay: 0 sent" in log.read_text()
        assert http_get(port, "/healthz").status == 200
        assert process.process is not None and process.process.poll() is None
    finally:
        process.stop()
