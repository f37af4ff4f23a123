"""Counting hits in a window, in the shared cache: the site's throttles.

A throttle counts what one client (kit.clients) or one address did lately and refuses
past a limit: the wrong table links of a phone (scoring.access), the password reset
requests of an address and of a client (accounts.views). The counts live in the cache
the web workers share (Redis in production), with atomic increments, so that several
workers, and many requests at once, count as one.

While the cache cannot be read (Redis away or frozen: atout.cache answers as an empty
cache), a count starts again at one and the request goes through: a throttle only slows
guessing down, and refusing instead would refuse every client (docs/operating.md).
"""

from __future__ import annotations

from django.core.cache import cache


def count_hit(key: str, *, window: int) -> int:
    """Count one hit under `key`; the number of hits in the current window (1 for the first).

    The window starts with the first hit and is not extended by the next ones.
    """
    # add() starts the window once; incr() then counts within it without extending it,
    # atomically in Redis (INCR) and within the process in local memory.
    cache.add(key, 0, timeout=window)
    try:
        count = int(cache.incr(key))
    except ValueError:
        # The key expired between add() and incr(): start again.
        cache.set(key, 1, timeout=window)
        return 1
    if count == 1:
        # Redis' INCR recreates, without an expiry, a key that expired just before it:
        # a count that starts here gets its window in any case.
        cache.touch(key, timeout=window)
    return count
