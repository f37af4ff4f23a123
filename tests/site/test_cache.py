"""The Redis cache answers as an empty cache while Redis is away, and as Redis when it is there."""

from __future__ import annotations

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
