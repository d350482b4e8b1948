"""What the bot does at a table by itself: the computers' turns, and what its deadlines do (a
reminder, an expired turn, a closed table), each shown in the table's language as it comes."""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import TYPE_CHECKING

from adapters.chat import metrics
from adapters.chat.boards import BoardRef
from adapters.chat.envelope import envelope
from adapters.chat.voices import Voices
from core.chat_settings import ChatSettings
from core.identity import ChannelKey
from core.outcome import Outcome

if TYPE_CHECKING:
    from adapters.chat.tables import Tables

FLUSH = 5.0  # seconds a stop waits for boards still to be redrawn


class Clock:
    """The computers' pace (`pause`, unless the chat chose its own) and the service's hooks."""

    def __init__(self, tables: Tables, log: logging.Logger, pause: float) -> None:
        self.tables = tables
        self.log = log
        self.pause = pause

    async def publish_in_turn(
        self, channel: ChannelKey, outcome: Outcome, patience: float | None = None
    ) -> None:
        """Show a move the service made by itself, in the chat's language; the platform failing
        is logged (once) and does not stop the game. What comes next (a computer's next step,
        the next deadline) waits for this move to be drawn, a computer's for its `patience`
        at most: in a busy group, where a slot comes every few seconds, a computer plays on
        at its pace and its board shows the newest step each slot."""
        tables = self.tables
        metrics.outcome(tables.platform.name, outcome.events)

        async def show(voices: Voices, settings: ChatSettings) -> None:
            await tables.publisher.publish(channel, outcome, voices.table, None)

        await envelope(tables, channel, show, doing=None, game=outcome.game, wake=False)
        await tables.drawer.redraws.settled(channel.chat, patience)

    async def wake_computers(self, channel: ChannelKey) -> None:
        """Let the computers of this table play their turns (if it is one of theirs)."""
        try:
            settings = await self.tables.languages.settings(channel)
        except Exception:
            self.log.exception("waking the computers of %s failed", channel)
            return
        pause = self.pause if settings.computer_pause is None else settings.computer_pause
        publish = partial(self.publish_in_turn, channel, patience=pause)
        self.tables.service.wake_computers(channel, publish, pause)

    async def on_deadline(self, channel: ChannelKey, outcome: Outcome) -> None:
        """The bot acted by itself (a reminder, an expired turn, a closed table): show it."""
        metrics.timer_fired(self.tables.platform.name, outcome.events)
        await self.publish_in_turn(channel, outcome)
        await self.wake_computers(channel)

    async def resume(self) -> None:
        """At start-up: re-arm the stored deadlines; boards lost before a restart are posted at
        the next chance; computers finish turns a restart cut short."""
        tables = self.tables
        service, key = tables.service, tables.platform.key
        service.on_deadline(key, self.on_deadline)
        await service.resume_deadlines(key)
        for game in await service.active_games(key):
            if BoardRef.loads(await tables.boards.board(game.id)) is None:
                tables.repair.lost(game.channel, game.id)
            await self.wake_computers(game.channel)

    async def flush(self, timeout: float = FLUSH) -> None:
        """At a stop: let the boards still waiting for their edit get it (a while at most)."""
        try:
            await asyncio.wait_for(self.tables.drawer.redraws.idle(), timeout)
        except TimeoutError:
            self.log.warning("stopping with boards not yet redrawn; the next press redraws them")
