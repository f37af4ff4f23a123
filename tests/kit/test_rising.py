"""Numbers in the shared cache that only go up (kit/rising.py), on the local-memory cache
of `./run` and the tests. Redis' own step is in tests/site/test_cache.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.core.cache import cache

from kit.rising import raise_to


def test_a_number_only_moves_up_and_what_is_beside_it_moves_with_it() -> None:
    cache.delete_many(["n", "n-at"])
    assert raise_to("n", 5, timeout=60, beside={"n-at": 100}) == 5
    assert raise_to("n", 3, timeout=60, beside={"n-at": 200}) == 5
    assert cache.get_many(["n", "n-at"]) == {"n": 5, "n-at": 100}
    assert raise_to("n", 8, timeout=60) == 8
    assert cache.get_many(["n", "n-at"]) == {"n": 8, "n-at": 100}
    cache.delete_many(["n", "n-at"])


def test_threads_raising_at_once_leave_the_largest() -> None:
    cache.delete("n")
    offered = [7, 3, 11, 2, 9, 11, 4, 10] * 4
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda number: raise_to("n", number, timeout=60), offered))
    assert cache.get("n") == 11
    assert all(answer >= number for answer, number in zip(answers, offered, strict=True))
    cache.delete("n")
