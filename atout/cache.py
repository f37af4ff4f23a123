"""The site's Redis cache, which a Redis restarting, gone or frozen never turns into errors.

The cache only ever holds what can be rebuilt or lost: rendered documents, counts of
wrong table links. So while Redis is away (restarting, gone for a moment, or frozen and
answering nothing) the cache answers as an empty one (every read a miss, every write
dropped) instead of failing or holding up the request it serves: referees go on
entering. Each call gives up after kit.redis_guard's short timeout, and once one has
failed the calls to that server are skipped for a few seconds (the failure is logged once).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from kit import redis_guard

T = TypeVar("T")


def _or_missing(missing: Callable[..., Any]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Run the cache operation; with Redis away, answer what `missing(*args)` gives at once."""

    def decorate(operation: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(operation)
        def tolerant(self: TolerantRedisCache, *args: Any, **kwargs: Any) -> Any:
            if redis_guard.away(self.redis_server):
                return missing(*args, **kwargs)
            try:
                return operation(self, *args, **kwargs)
            except (RedisConnectionError, RedisTimeoutError) as error:
                redis_guard.failed(self.redis_server, error, what="cache")
                return missing(*args, **kwargs)

        return tolerant

    return decorate


# kit.rising.raise_to in Redis: KEYS[1] the number, KEYS[2..] the keys set beside it when
# it moves; ARGV[1] the number offered, ARGV[2] the expiry in seconds, ARGV[3..] the values
# beside it. Django stores integers unpickled (RedisSerializer), so the script reads them.
_RAISE_TO = """
local current = tonumber(redis.call('GET', KEYS[1]))
local offered = tonumber(ARGV[1])
if current ~= nil and current >= offered then
  return current
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
for i = 2, #KEYS do
  redis.call('SET', KEYS[i], ARGV[i + 1], 'EX', ARGV[2])
end
return offered
"""


def _missing_key(key: Any, *args: Any, **kwargs: Any) -> Any:
    # What incr() and decr() raise for a key that is not there.
    raise ValueError(f"Key {key!r} not found.")


class TolerantRedisCache(RedisCache):
    """Django's Redis cache, answering as an empty cache while Redis is away."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", redis_guard.TIMEOUT)
        options.setdefault("socket_timeout", redis_guard.TIMEOUT)
        # One try per call: redis-py's own retries would each wait out the timeout again.
        options.setdefault("retry", None)
        super().__init__(server, {**params, "OPTIONS": options})
        # The server the calls go to (Django writes to the first one listed).
        self.redis_server = redis_guard.server_of(re.split("[;,]", server)[0])

    @_or_missing(lambda key, default=None, *args, **kwargs: default)
    def get(self, *args: Any, **kwargs: Any) -> Any:
        return super().get(*args, **kwargs)

    @_or_missing(lambda *args, **kwargs: {})
    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return super().get_many(*args, **kwargs)

    @_or_missing(lambda *args, **kwargs: False)
    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return super().has_key(*args, **kwargs)

    @_or_missing(lambda *args, **kwargs: False)
    def add(self, *args: Any, **kwargs: Any) -> Any:
        return super().add(*args, **kwargs)

    @_or_missing(lambda *args, **kwargs: None)
    def set(self, *args: Any, **kwargs: Any) -> Any:
        return super().set(*args, **kwargs)

    @_or_missing(lambda data, *args, **kwargs: list(data))
    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return super().set_many(*args, **kwargs)

    @_or_missing(lambda *args, **kwargs: False)
    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return super().touch(*args, **kwargs)

    @_or_missing(lambda *args, **kwargs: False)
    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return super().delete(*args, **kwargs)

    @_or_missing(lambda *args, **kwargs: None)
    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return super().delete_many(*args, **kwargs)

    @_or_missing(_missing_key)
    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return super().incr(*args, **kwargs)

    @_or_missing(lambda key, value, *args, **kwargs: value)
    def raise_to(self, key: str, value: int, *, timeout: float, beside: dict[str, int]) -> int:
        """`value` stored under `key` unless a number at least as large is, in one step on
        the server; the number stored now (kit.rising, which says why)."""
        names = [self.make_and_validate_key(name) for name in (key, *beside)]
        seconds = max(1, int(timeout))
        # Django's client for this cache (no public name): the server keys are written to.
        client = cast(Any, self)._cache.get_client(names[0], write=True)
        stored: Any = client.eval(_RAISE_TO, len(names), *names, int(value), seconds, *map(int, beside.values()))
        return int(stored)

    @_or_missing(lambda *args, **kwargs: False)
    def clear(self) -> Any:
        return super().clear()
