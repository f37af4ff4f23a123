"""The Redis cache answers as an empty cache while Redis is away, and as Redis when it is there."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from atout.cache import TolerantRedisCache
from tests.conftest import require_redis
from tests.production.processes import free_port


def test_with_redis_away_every_read_misses_and_every_write_is_dropped() -> None:
    # A port nothing listens on: connections are refused at once.
    cache = TolerantRedisCache(f"redis://127.0.0.1:{free_port()}/0", {})
    assert cache.get("k") is None and cache.get("k", 7) == 7
    assert cache.get_many(["k", "l"]) == {}
    assert cache.add("k", 1) is False and cache.set("k", 1) is None
    assert cache.set_many({"k": 1, "l": 2}) == ["k", "l"]
    assert cache.delete("k") is False and cache.has_key("k") is False
    with pytest.raises(ValueError, match="not found"):
        cache.incr("k")
    assert cache.get_or_set("k", 3) == 3


def test_with_redis_there_it_is_redis() -> None:
    cache = TolerantRedisCache(require_redis(), {"KEY_PREFIX": "atout-cache-test"})
    cache.delete("k")
    assert cache.add("k", 1) is True
    assert cache.incr("k") == 2 and cache.get("k") == 2
    cache.delete("k")


def test_a_number_raised_in_redis_never_moves_back_whoever_raises_it() -> None:
    """kit.rising's step in Redis: many processes raise at once, the largest stays."""
    cache = TolerantRedisCache(require_redis(), {"KEY_PREFIX": "atout-cache-test"})
    cache.delete_many(["n", "n-at"])
    assert cache.raise_to("n", 5, timeout=60, beside={"n-at": 100}) == 5
    assert cache.get_many(["n", "n-at"]) == {"n": 5, "n-at": 100}
    # A smaller or equal number leaves it, and what is beside it, as they were.
    assert cache.raise_to("n", 4, timeout=60, beside={"n-at": 200}) == 5
    assert cache.raise_to("n", 5, timeout=60, beside={"n-at": 200}) == 5
    assert cache.get("n-at") == 100
    assert cache.raise_to("n", 9, timeout=60, beside={"n-at": 300}) == 9
    assert cache.get_many(["n", "n-at"]) == {"n": 9, "n-at": 300}
    # Twelve raisers at once, each with its own client, in any order: the largest stays.
    offered = list(range(10, 130, 10))
    random.shuffle(offered)
    clients = [TolerantRedisCache(require_redis(), {"KEY_PREFIX": "atout-cache-test"}) for _ in offered]
    with ThreadPoolExecutor(max_workers=len(offered)) as pool:
        raisers = zip(clients, offered, strict=True)
        answers = list(pool.map(lambda pair: pair[0].raise_to("n", pair[1], timeout=60, beside={}), raisers))
    assert cache.get("n") == 120 and max(answers) == 120
    assert all(answer >= number for answer, number in zip(answers, offered, strict=True))
    cache.delete_many(["n", "n-at"])


def test_with_redis_away_a_raise_keeps_nothing_and_answers_the_number_offered() -> None:
    cache = TolerantRedisCache(f"redis://127.0.0.1:{free_port()}/0", {})
    assert cache.raise_to("n", 7, timeout=60, beside={"n-at": 1}) == 7
