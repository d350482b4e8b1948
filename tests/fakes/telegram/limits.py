"""Telegram's flood control in the fake Bot API, so a test or benchmark can show the bot stays
playable under the real server's limits. Off unless a test switches it on.

Switching it on: ``FakeTelegram(limits=Limits.STRICT)``, or set ``fake.limits`` at any time
(``None`` turns it off again). The numbers are a frozen :class:`Limits`:

=====================  ========  =========  ===============================================
limit                  STRICT    LENIENT    what it counts
=====================  ========  =========  ===============================================
per chat, burst        3         10         sends and edits in one chat (a token bucket)
per chat, refill       1/s       3/s
per group, per minute  20        60         sends and edits together in one group or supergroup
in all, per second     30        100        sends and edits in every chat together
=====================  ========  =========  ===============================================

Sends are sendMessage, sendPhoto, sendDocument and createForumTopic; edits are editMessageText,
editMessageCaption, editMessageMedia and editMessageReplyMarkup. In a group, sends and edits share
one window, as Telegram's developers state (tdlib/td issues 2592 and 3034): about 20 a minute,
whatever they are. ``group_window`` is that minute's length; the whole-game tests shrink it
(``Limits.GAME``: 20 in 2 s, the per-chat pace 30 times faster too) so that a game's worth of
writes is paced as in a real group without taking minutes. A text or caption over
``long_text`` (1,000) characters costs 2 everywhere (2 tokens, 2 places in each window), so long
messages hit the limits sooner. createForumTopic counts as a send: it posts a message in the
group (the "topic created" service message), and Telegram documents no limit of its own for it;
a bot opening many topics at once meets the group's limits as if it had written that many
messages, the cautious reading. Other methods are never limited: getUpdates, answerCallbackQuery
(whose only rule stays "answered once"), getChat, sendChatAction and the rest. A refused call
does nothing and costs nothing.

A refusal is what the real server answers: HTTP 429, ``{"ok": false, "error_code": 429,
"description": "Too Many Requests: retry after N", "parameters": {"retry_after": N}}``, with N
whole seconds (at least 1, the time until the call would pass), which python-telegram-bot raises
as ``telegram.error.RetryAfter(N)``.

``fake.storm(chat, seconds)`` answers every call naming that chat (any method with its
``chat_id``) with 429 and the storm's remaining seconds until it ends; storms work with the
limits off too. Every 429 answered by the limits or a storm is in ``fake.rate_limited``
(:class:`RateLimited`); ``fake.rate_limited_in(chat)`` counts one chat's. The limits read
``fake.limit_clock`` (``time.monotonic``), which a test may replace with a clock of its own.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from tests.fakes.base import FakeServer
from tests.fakes.telegram.model import FakeChat

SENDS = frozenset({"sendMessage", "sendPhoto", "sendDocument", "createForumTopic"})
EDITS = frozenset(
    {"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"}
)


@dataclass(frozen=True)
class Limits:
    """How much the fake lets through; see the module docstring."""

    chat_burst: int = 3
    chat_refill: float = 1.0  # tokens a second
    group_per_minute: int = 20
    global_per_second: int = 30
    long_text: int = 1000  # longer texts and captions cost 2
    group_window: float = 60.0  # seconds: Telegram's minute

    STRICT: ClassVar[Limits]
    LENIENT: ClassVar[Limits]
    GAME: ClassVar[Limits]


Limits.STRICT = Limits()
Limits.LENIENT = Limits(chat_burst=10, chat_refill=3.0, group_per_minute=60, global_per_second=100)
Limits.GAME = Limits(chat_burst=3, chat_refill=30.0, global_per_second=900, group_window=2.0)


@dataclass(frozen=True)
class RateLimited:
    """One 429 the fake answered: why (``"chat"``, ``"group"``, ``"global"``, ``"storm"``)."""

    method: str
    chat_id: int | str
    retry_after: int
    reason: str


class _Window:
    """Calls counted in a sliding window of ``span`` seconds."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def wait(self, now: float, limit: int, span: float, cost: int) -> float:
        """Seconds until ``cost`` more fit under ``limit``; 0 if they fit now."""
        while self.times and self.times[0] <= now - span:
            self.times.popleft()
        over = len(self.times) + min(cost, limit) - limit
        return 0.0 if over <= 0 else self.times[over - 1] + span - now

    def add(self, now: float, cost: int) -> None:
        self.times.extend([now] * cost)


class FloodControl(FakeServer):
    """Flood control, mixed into :class:`~tests.fakes.telegram.FakeTelegram`."""

    chats: dict[int, FakeChat]

    def _init_flood_control(self, limits: Limits | None) -> None:
        #: the limits in force; None answers no 429 of its own
        self.limits = limits
        #: what the limits read the time from (seconds)
        self.limit_clock: Callable[[], float] = time.monotonic
        #: every 429 the limits and storms answered, oldest first
        self.rate_limited: list[RateLimited] = []
        self._buckets: dict[int | str, tuple[float, float]] = {}  # chat → (tokens, when)
        self._group_windows: dict[int | str, _Window] = {}
        self._global_window = _Window()
        self._storms: dict[int | str, float] = {}  # chat → when the storm ends

    def storm(self, chat: FakeChat, seconds: float) -> None:
        """Answer every call for ``chat`` with 429 for the next ``seconds`` seconds."""
        self._storms[chat.id] = self.limit_clock() + seconds

    def rate_limited_in(self, chat: FakeChat) -> int:
        """How many 429s the limits and storms answered for ``chat``."""
        return sum(1 for r in self.rate_limited if r.chat_id == chat.id)

    def _flood_check(self, method: str, params: dict[str, Any]) -> int | None:
        """The retry_after to answer ``method`` with (and record), or None to let it through."""
        chat_id = params.get("chat_id")
        if not isinstance(chat_id, int | str):
            return None
        now = self.limit_clock()
        storm_end = self._storms.get(chat_id)
        if storm_end is not None and storm_end <= now:
            del self._storms[chat_id]
        elif storm_end is not None:
            return self._refuse(method, chat_id, storm_end - now, "storm")
        limits = self.limits
        if limits is None or (method not in SENDS and method not in EDITS):
            return None
        text = params.get("text") or params.get("caption") or ""
        cost = 2 if len(text) > limits.long_text else 1
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        in_group = chat is not None and chat.type in ("group", "supergroup")
        group = self._group_windows.setdefault(chat_id, _Window()) if in_group else None

        tokens, when = self._buckets.get(chat_id, (float(limits.chat_burst), now))
        tokens = min(float(limits.chat_burst), tokens + (now - when) * limits.chat_refill)
        need = min(cost, limits.chat_burst)
        waits = [
            ("chat", max(0.0, (need - tokens) / limits.chat_refill)),
            ("group", group.wait(now, limits.group_per_minute, limits.group_window, cost))
            if group
            else ("group", 0.0),
            ("global", self._global_window.wait(now, limits.global_per_second, 1.0, cost)),
        ]
        reason, wait = max(waits, key=lambda w: w[1])
        if wait > 0:
            self._buckets[chat_id] = (tokens, now)
            return self._refuse(method, chat_id, wait, reason)
        self._buckets[chat_id] = (tokens - need, now)
        if group is not None:
            group.add(now, cost)
        self._global_window.add(now, cost)
        return None

    def _refuse(self, method: str, chat_id: int | str, wait: float, reason: str) -> int:
        retry_after = max(1, math.ceil(wait - 1e-9))  # float noise is no extra second
        self.rate_limited.append(RateLimited(method, chat_id, retry_after, reason))
        self._notify()
        return retry_after
