"""Who the client is behind proxies (kit.clients), and the settings that say which to trust."""

from __future__ import annotations

import re
import threading
from ipaddress import ip_network

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from kit.clients import client_address
from kit.env import env_networks
from scoring import access
from serving.gunicorn_conf import shared_cache_problem
from tests.conftest import require_redis

LOCMEM = "django.core.cache.backends.locmem.LocMemCache"
REDIS = "django.core.cache.backends.redis.RedisCache"


def request_from(peer: str, forwarded: str | None = None):
    headers = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **headers)


def test_without_a_trusted_proxy_the_connection_is_the_client_whatever_the_header_says(settings) -> None:
    settings.TRUSTED_PROXIES = ()
    assert client_address(request_from("198.51.100.4", "10.0.0.1")) == "198.51.100.4"


def test_from_a_trusted_proxy_the_client_is_the_last_address_it_did_not_add_itself(settings) -> None:
    settings.TRUSTED_PROXIES = (ip_network("127.0.0.1"), ip_network("10.0.0.0/8"))
    # The phone put a fake address first; the outer proxy (10.1.2.3) passed it on to the local one.
    assert client_address(request_from("127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.2.3")) == "203.0.113.9"
    assert client_address(request_from("127.0.0.1", "203.0.113.9:51000")) == "203.0.113.9"
    assert client_address(request_from("127.0.0.1", "[2001:db8::7]:443")) == "2001:db8::7"


def test_a_missing_or_broken_header_from_a_trusted_proxy_leaves_the_nearest_believable_address(settings) -> None:
    settings.TRUSTED_PROXIES = (ip_network("127.0.0.0/8"), ip_network("10.0.0.0/8"))
    assert client_address(request_from("127.0.0.1")) == "127.0.0.1"
    assert client_address(request_from("127.0.0.1", "not-an-address, 10.0.0.5")) == "10.0.0.5"
    assert client_address(request_from("127.0.0.1", "203.0.113.1, garbage")) == "127.0.0.1"


def test_the_trusted_proxies_setting_reads_addresses_and_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8, fd00::/8")
    assert env_networks("TRUSTED_PROXIES") == (
        ip_network("127.0.0.1/32"), ip_network("10.0.0.0/8"), ip_network("fd00::/8"),
    )  # fmt: skip
    monkeypatch.setenv("TRUSTED_PROXIES", "10.0.0.0/8, proxy.local")
    with pytest.raises(ImproperlyConfigured, match=re.escape("TRUSTED_PROXIES: 'proxy.local'")):
        env_networks("TRUSTED_PROXIES")
    monkeypatch.delenv("TRUSTED_PROXIES")
    assert env_networks("TRUSTED_PROXIES") == ()


def test_production_refuses_several_workers_on_a_cache_of_their_own() -> None:
    problem = shared_cache_problem(workers=3, debug=False, cache_backend=LOCMEM)
    assert problem is not None and "CACHE_URL" in problem and "WEB_CONCURRENCY=1" in problem
    assert shared_cache_problem(workers=1, debug=False, cache_backend=LOCMEM) is None
    assert shared_cache_problem(workers=3, debug=True, cache_backend=LOCMEM) is None
    assert shared_cache_problem(workers=3, debug=False, cache_backend=REDIS) is None


def test_wrong_links_are_counted_exactly_in_redis_however_many_arrive_at_once(settings) -> None:
    settings.CACHES = {"default": {"BACKEND": REDIS, "LOCATION": require_redis()}}
    address = "203.0.113.77"
    cache.delete(f"referee:misses:{address}")
    threads, per_thread = 8, 25

    def guess() -> None:
        for _ in range(per_thread):
            access._count_miss(address)

    workers = [threading.Thread(target=guess) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    try:
        assert cache.get(f"referee:misses:{address}") == threads * per_thread
        # The window was set once, by the first miss, and is running.
        assert 0 < cache._cache.get_client().ttl(cache.make_and_validate_key(f"referee:misses:{address}")) <= 600
    finally:
        cache.delete(f"referee:misses:{address}")


def test_a_request_without_an_address_has_an_empty_one(settings) -> None:
    settings.TRUSTED_PROXIES = (ip_network("127.0.0.1"),)
    request = RequestFactory().get("/")
    del request.META["REMOTE_ADDR"]
    assert client_address(request) == ""
    assert client_address(request_from("not an address")) == ""
