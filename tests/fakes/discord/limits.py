"""Discord's rate limits in the fake REST API, so a test or benchmark can show the bot stays
playable under them, with discord.py's own rate-limit handling doing its real work. Off unless
a test switches it on.

Switching it on: ``FakeDiscord(limits=Limits.STRICT)``, or set ``fake.limits`` at any time
(``None`` turns it off again). The numbers are a frozen :class:`Limits` of :class:`Bucket` s,
``limit`` requests per ``per`` seconds in a fixed window that opens with its first request (as
Discord's buckets and discord.py's model of them work):

=================  ==========  ===========  =================================================
bucket             STRICT      LENIENT      what it counts, and per what
=================  ==========  ===========  =================================================
message_create     5 per 5 s   10 per 5 s   POST /channels/{id}/messages, per channel
message_edit       5 per 5 s   10 per 5 s   PATCH /channels/{id}/messages/{m}, per channel
followup           5 per 2 s   10 per 2 s   POST, PATCH and DELETE on /webhooks/{app}/{token}
                                            and its messages, per interaction token
everything         50 per 1 s  100 per 1 s  every request made with the bot token (the
                                            global limit; interaction routes are exempt)
=================  ==========  ===========  =================================================

Interaction callbacks have no bucket: one callback per interaction is the rule, and the fake
enforces it anyway (40060). Every response of a bucketed route carries the bucket's real
``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` and
``-Bucket``; discord.py reads them and waits out a window whose Remaining hit 0 before it sends
again, so a lone bot never trips a bucket. A request over a limit does nothing and costs nothing,
and is answered 429 ``{"message": "You are being rate limited.", "retry_after": <s>, "global":
<bool>}`` with ``Retry-After`` (whole seconds), ``Via`` (without it discord.py takes a 429 for a
ban) and ``X-RateLimit-Scope`` ``user`` or ``global`` (a global one also
``X-RateLimit-Global: true``). discord.py sleeps ``retry_after`` and retries (5 tries), or raises
``discord.RateLimited`` at once when ``retry_after`` is over the client's
``max_ratelimit_timeout``.

``fake.storm(channel, seconds)`` answers every request on that channel's routes, and on the
webhooks of interactions in it (not their callbacks), with a 429 whose ``retry_after`` is what is
left of the storm; storms work with the limits off too. Every 429 the limits and storms answered
is in ``fake.rate_limited`` (:class:`RateLimited`); ``fake.rate_limited_in(channel)`` counts one
channel's.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from aiohttp import web

from tests.fakes.base import FakeServer
from tests.fakes.discord.interaction import FakeInteraction
from tests.fakes.discord.model import FakeChannel, FakeDMChannel

_CHANNEL = r"/channels/(?P<cid>\d+)"
_HOOK = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"


@dataclass(frozen=True)
class Bucket:
    """``limit`` requests per ``per`` seconds."""

    limit: int
    per: float


@dataclass(frozen=True)
class Limits:
    """How much the fake lets through; see the module docstring."""

    message_create: Bucket = Bucket(5, 5.0)
    message_edit: Bucket = Bucket(5, 5.0)
    followup: Bucket = Bucket(5, 2.0)
    everything: Bucket = Bucket(50, 1.0)

    STRICT: ClassVar[Limits]
    LENIENT: ClassVar[Limits]


Limits.STRICT = Limits()
Limits.LENIENT = Limits(Bucket(10, 5.0), Bucket(10, 5.0), Bucket(10, 2.0), Bucket(100, 1.0))


@dataclass(frozen=True)
class RateLimited:
    """One 429 the fake answered: the request, its channel (if any) and why (a bucket's name,
    ``"global"`` or ``"storm"``)."""

    method: str
    path: str
    channel_id: str | None
    retry_after: float
    reason: str


class _Window:
    """A bucket's fixed window: how many it let through, and when it opens again."""

    def __init__(self) -> None:
        self.used = 0
        self.resets_at = 0.0

    def take(self, now: float, bucket: Bucket) -> float:
        """Count one request and return 0, or return the seconds until one may pass."""
        if now >= self.resets_at:
            self.used, self.resets_at = 0, now + bucket.per
        if self.used >= bucket.limit:
            return self.resets_at - now
        self.used += 1
        return 0.0


def _seconds(value: float) -> float:
    """Seconds rounded up to the millisecond, so a client never comes back early."""
    return math.ceil(value * 1000 - 1e-6) / 1000  # float noise is no extra millisecond


class RateLimits(FakeServer):
    """Rate limits, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    _by_token: dict[str, FakeInteraction]

    def _init_rate_limits(self, limits: Limits | None) -> None:
        #: the limits in force; None answers no 429 of its own
        self.limits = limits
        #: every 429 the limits and storms answered, oldest first
        self.rate_limited: list[RateLimited] = []
        self._windows: dict[tuple[str, str], _Window] = {}  # (bucket, channel or token)
        self._global_window = _Window()
        self._storms: dict[str, float] = {}  # channel id → when its storm ends (monotonic)

    def storm(self, channel: FakeChannel | FakeDMChannel, seconds: float) -> None:
        """Answer every request for ``channel`` with 429 for the next ``seconds`` seconds."""
        self._storms[channel.id] = time.monotonic() + seconds

    def rate_limited_in(self, channel: FakeChannel | FakeDMChannel) -> int:
        """How many 429s the limits and storms answered for ``channel``."""
        return sum(1 for r in self.rate_limited if r.channel_id == channel.id)

    def _rate_limit(
        self,
        method: str,
        path: str,
        pattern: str,
        params: dict[str, Any],
        auth: bool,
        bucket_hash: str,
    ) -> tuple[web.Response | None, dict[str, str]]:
        """A 429 to answer instead of carrying the request out (or None), and the rate-limit
        headers for the answer of a bucketed route (or none)."""
        now = time.monotonic()
        token = params.get("token") if pattern.startswith(_HOOK) else None
        inter = self._by_token.get(token) if token else None
        channel_id = params.get("cid") or (inter.channel.id if inter else None)
        storm_end = self._storms.get(channel_id, 0.0) if channel_id else 0.0
        if storm_end > now:
            record = RateLimited(method, path, channel_id, _seconds(storm_end - now), "storm")
            return self._refuse(record, {}), {}
        limits = self.limits
        if limits is None:
            return None, {}
        name, key = self._bucket_of(method, pattern, params)
        bucket = getattr(limits, name) if name else None
        window = self._windows.setdefault((name, key), _Window()) if bucket else None
        if window is not None and window.used >= bucket.limit and now < window.resets_at:
            wait = _seconds(window.resets_at - now)
            headers = self._bucket_headers(window, bucket, bucket_hash, now)
            return self._refuse(RateLimited(method, path, channel_id, wait, name), headers), {}
        if auth:
            wait = self._global_window.take(now, limits.everything)
            if wait:
                record = RateLimited(method, path, channel_id, _seconds(wait), "global")
                return self._refuse(record, {"X-RateLimit-Global": "true"}), {}
        if window is None:
            return None, {}
        window.take(now, bucket)
        return None, self._bucket_headers(window, bucket, bucket_hash, now)

    @staticmethod
    def _bucket_of(method: str, pattern: str, params: dict[str, Any]) -> tuple[str, str]:
        """The bucket a request draws on and its key; ("", "") for none."""
        if pattern == _CHANNEL + r"/messages" and method == "POST":
            return "message_create", params["cid"]
        if pattern == _CHANNEL + r"/messages/(?P<mid>\d+)" and method == "PATCH":
            return "message_edit", params["cid"]
        if pattern.startswith(_HOOK) and method in ("POST", "PATCH", "DELETE"):
            return "followup", params["token"]
        return "", ""

    @staticmethod
    def _bucket_headers(
        window: _Window, bucket: Bucket, bucket_hash: str, now: float
    ) -> dict[str, str]:
        reset_after = _seconds(window.resets_at - now)
        return {
            "X-RateLimit-Bucket": bucket_hash,
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(bucket.limit - window.used),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        }

    def _refuse(self, record: RateLimited, headers: dict[str, str]) -> web.Response:
        self.rate_limited.append(record)
        self._notify()
        is_global = record.reason == "global"
        body = {
            "message": "You are being rate limited.",
            "retry_after": record.retry_after,
            "global": is_global,
        }
        headers = {
            **headers,
            "Content-Type": "application/json",
            "Retry-After": str(max(1, math.ceil(record.retry_after))),
            "Via": "1.1 google",
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
