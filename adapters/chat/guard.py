"""The per-person flood limit of commands and presses, kept once for every chat."""

from __future__ import annotations

from adapters.chat import cards, metrics
from adapters.chat.surface import Exchange
from adapters.i18n import Translator
from adapters.ratelimit import RateLimiter, Verdict


class FloodGuard:
    """Beyond the limit "slow down" (once, unless saying it costs nothing), then silence; every
    press is still acknowledged."""

    def __init__(self, limiter: RateLimiter | None = None) -> None:
        self.limiter = limiter or RateLimiter()

    async def slowed(self, exchange: Exchange, own: Translator) -> bool:
        """Whether the person is over the limit (and has been told so where that is due)."""
        verdict = self.limiter.check(exchange.person.id)
        if verdict is not Verdict.ALLOW:
            metrics.flood_limited()
        if verdict is Verdict.WARN or (verdict is Verdict.DROP and exchange.quiet):
            await exchange.private(cards.Lines((own("error-slow-down"),)), own)
        elif verdict is Verdict.DROP:
            await exchange.ack()
        return verdict is not Verdict.ALLOW
