"""A cache that computes each key once, whichever thread asks first: functools.lru_cache lets
a second caller compute the same key while a first is still at it (the bot solves the default
rules in a thread at start-up, and a board may need them meanwhile on the event loop)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Once(Generic[K, V]):
    """`function` kept in an lru_cache of `size`; a caller whose key is being computed waits
    for that computation instead of starting another."""

    def __init__(self, function: Callable[[K], V], size: int) -> None:
        self._cached = functools.lru_cache(maxsize=size)(function)
        self._guard = threading.Lock()
        self._locks: dict[K, threading.Lock] = {}  # one per key ever asked: a rule set each
        functools.update_wrapper(self, function)

    def __call__(self, key: K) -> V:
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            return self._cached(key)

    def cache_info(self) -> functools._CacheInfo:
        return self._cached.cache_info()

    def cache_clear(self) -> None:
        self._cached.cache_clear()


def once(size: int) -> Callable[[Callable[[K], V]], Once[K, V]]:
    """@once(size): a decorator for Once."""
    return lambda function: Once(function, size)
