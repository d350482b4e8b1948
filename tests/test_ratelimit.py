"""The per-person flood limit."""

from __future__ import annotations

from adapters.ratelimit import RateLimiter, Verdict


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_burst_then_rate_and_one_warning() -> None:
    clock = Clock()
    limiter = RateLimiter(burst=3, rate=1, clock=clock)
    assert [limiter.check("ann") for _ in range(5)] == [
        Verdict.ALLOW,
        Verdict.ALLOW,
        Verdict.ALLOW,
        Verdict.WARN,
        Verdict.DROP,
    ]
    assert limiter.check("bob") is Verdict.ALLOW  # one person's flood is theirs alone
    clock.now = 1.0
    assert limiter.check("ann") is Verdict.ALLOW
    assert limiter.check("ann") is Verdict.WARN  # warned again after being let through
