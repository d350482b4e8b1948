"""A per-person limit on how fast commands and presses are taken, so nobody floods a chat.

A token bucket per person: a burst of `burst` actions, then `rate` a second. Beyond it the action
is dropped and the person is told to slow down — once, until they are back under the limit.

Memory is bounded: past PRUNE_AT people, the buckets that have refilled (nobody who acted in the
last `burst / rate` seconds) are forgotten, and the next pruning waits until the map has doubled,
so the map holds at most max(PRUNE_AT, twice the people still refilling at the last pruning) + 1.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

PRUNE_AT = 10_000


class Verdict(Enum):
    ALLOW = "allow"
    WARN = "warn"  # refused; say "slow down"
    DROP = "drop"  # refused; already told


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    warned: bool = False


@dataclass
class RateLimiter:
    burst: float = 10.0
    rate: float = 3.0
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)
    _prune_at: int = PRUNE_AT

    def check(self, key: str) -> Verdict:
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.warned = False
            if len(self._buckets) > self._prune_at:
                self._forget_full(now)
            return Verdict.ALLOW
        if bucket.warned:
            return Verdict.DROP
        bucket.warned = True
        return Verdict.WARN

    def _forget_full(self, now: float) -> None:
        """Buckets that have refilled say nothing a fresh one would not: drop them."""
        full = [
            key
            for key, b in self._buckets.items()
            if b.tokens + (now - b.stamp) * self.rate >= self.burst
        ]
        for key in full:
            del self._buckets[key]
        # Those left are all recent: scanning them again on every new person would be quadratic.
        self._prune_at = max(PRUNE_AT, 2 * len(self._buckets))
