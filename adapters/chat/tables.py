"""The tables of one chat platform, wired once for every front end: the parts each do one
thing (see their modules), and what a front end starts, stops and hands its updates to.

A game lives in a chat as boards (see plan.py). Discord or Telegram failing never undoes a
game: it was saved before anything is shown; the log says so once (faults.py), and a board that
could not be posted is posted again at the next command or press at that table (repair.py).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from adapters.chat.clock import FLUSH, Clock
from adapters.chat.drawer import Drawer, Inked
from adapters.chat.endings import Endings, Scores
from adapters.chat.faults import Troubles
from adapters.chat.guard import FloodGuard
from adapters.chat.notify import Notifier
from adapters.chat.order import Order
from adapters.chat.pacing import Redraws
from adapters.chat.publisher import Publisher
from adapters.chat.repair import Repair
from adapters.chat.seasons import Herald
from adapters.chat.surface import Exchange, Platform
from adapters.chat.tournaments import Director
from adapters.chat.voices import Languages, Voices
from adapters.ratelimit import RateLimiter
from core.identity import ChannelKey
from core.service import GameService

if TYPE_CHECKING:  # the live table's signing comes with its settings only
    from adapters.chat.weblinks import WebLinks


class Tables:
    """Everything a platform's tables share; the front end gives it `platform` to draw and call."""

    def __init__(
        self,
        service: GameService,
        platform: Platform,
        log: logging.Logger,
        *,
        locale: str = "en",
        pause: float = 1.0,
        limiter: RateLimiter | None = None,
        links: WebLinks | None = None,
    ) -> None:
        self.service = service
        self.links = links  # the live table's (None: not set up)
        self.boards = boards = service.boards
        self.platform = platform
        self.log = log
        self.languages = Languages(service, platform, locale)
        self.guard = FloodGuard(limiter)
        self.troubles = Troubles(log, platform.name, platform.forbidden, platform.chat_word)
        self.order = Order()  # one table's actions in order, and what they show
        self.drawer = Drawer(platform, boards, self.troubles, log)
        self.repair = Repair(service, boards, platform, self.drawer, log)
        self.scores = Scores(self.languages)
        self.endings = Endings(service, boards, platform, self.order, self.scores, log)
        self.notifier = Notifier(service.subscriptions, platform, log)
        self.publisher = Publisher(
            boards, platform, self.order, self.drawer, self.endings, self.repair, self.notifier
        )
        self.clock = Clock(self, log, pause)
        self.herald = Herald(self, log)
        self.director = Director(self, log)
        self.publisher.table_over = self.director.nudge

    @property
    def redraws(self) -> Redraws[Inked]:
        """The boards' edits still to make (a stop, or a test, waits for them)."""
        return self.drawer.redraws

    @contextlib.asynccontextmanager
    async def serial(
        self, channel: ChannelKey, exchange: Exchange, voices: Voices
    ) -> AsyncIterator[None]:
        """One action at a time per table, shown in order (see order.py); a lost board comes
        back after it. An action that waits more than a moment is acknowledged first; one that
        waits less is answered by what it does (on Discord, the pressed board redrawn: one
        call, not a deferral and an edit)."""
        async with self.order.turn(channel, exchange.ack):
            yield
            await self.repair.heal(channel, voices.table)

    async def resume(self) -> None:
        """At start-up (see Clock.resume); the seasons' ends are looked for from then on, and
        the tournaments moved on."""
        await self.clock.resume()
        self.herald.start()
        self.director.start()

    async def flush(self, timeout: float = FLUSH) -> None:
        """At a stop (see Clock.flush)."""
        await self.herald.stop()
        await self.director.stop()
        await self.clock.flush(timeout)
