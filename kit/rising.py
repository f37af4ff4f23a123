"""Numbers in the shared cache that only go up: the live ranking's published version.

Several web processes, on one machine or many, publish the live ranking's versions in
the shared cache (scoring/live_ranking.py). Two of them may decide at the same moment to
publish, one knowing of version 9, the other, which read the tournament a moment
earlier, of version 8: with a plain `cache.set` the later write wins, and the
publication would move back from 9 to 8, so that a phone polling the room's ranking would
see it go back. Django's cache has no compare-and-set; `raise_to` is one: it keeps the
larger of the number stored and the one given, and sets the values beside it only when
it moved, in one step for every process.

- With Redis (atout.cache.TolerantRedisCache, CACHE_URL), the backend's `raise_to` runs
  one Lua script: atomic on the server, for every process of every machine. While Redis
  is away it answers the number given (nothing is kept, as every write then).
- With any other cache (local memory: `./run`, venue mode without Redis, the tests),
  a lock of this process: such a cache belongs to one process anyway.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from django.core.cache import cache

_lock = threading.Lock()


def raise_to(key: str, value: int, *, timeout: float, beside: Mapping[str, int] | None = None) -> int:
    """Store `value` under `key` unless a larger or equal number is stored there; return the
    number stored now. `beside` (other keys, with numbers) is stored only when `key` moved;
    everything written expires after `timeout` seconds."""
    shared = getattr(cache, "raise_to", None)
    if shared is not None:
        return int(shared(key, value, timeout=timeout, beside=dict(beside or {})))
    with _lock:
        current = cache.get(key)
        if isinstance(current, int) and current >= value:
            return current
        cache.set_many({key: value, **(beside or {})}, timeout)
        return value
