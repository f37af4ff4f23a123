"""The site's Redis cache, which a Redis restart never turns into errors.

The cache only ever holds what can be rebuilt or lost: rendered documents, counts of
wrong table links. So while Redis is away (restarting, or gone for a moment) the cache
answers as an empty one (every read a miss, every write dropped, each failure logged)
instead of failing the request it serves: referees go on entering. Short socket
timeouts keep a Redis that does not answer from holding a request up.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
T = TypeVar("T")
# Seconds to connect to Redis, and to wait for an answer, before counting it away.
SOCKET_TIMEOUT = 1.0


def _or_missing(missing: Callable[..., Any]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Run the cache operation; with Redis away, log it and answer what `missing(*args)` gives."""

    def decorate(operation: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(operation)
        def tolerant(self: TolerantRedisCache, *args: Any, **kwargs: Any) -> Any:
            try:
                return operation(self, *args, **kwargs)
            except (RedisConnectionError, RedisTimeoutError) as error:
                log.warning("cache unavailable, %s answered as a miss: %s", operation.__name__, error)
                return missing(*args, **kwargs)

        return tolerant

    return decorate


def _missing_key(key: Any, *args: Any, **kwargs: Any) -> Any:
    # What incr() and decr() raise for a key that is not there.
    raise ValueError(f"Key {key!r} not found.")


class TolerantRedisCache(RedisCache):
    """Django's Redis cache, answering as an empty cache while Redis is away."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT)
        super().__init__(server, {**params, "OPTIONS": options})

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

    @_or_missing(lambda *args, **kwargs: False)
    def clear(self) -> Any:
        return super().clear()
