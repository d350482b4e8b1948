"""When each table's next deadline rings (reminders, expired turns, idle tables): one timer a
table, armed from its game, on the platforms that have said how to show what the bot does on
its own. What happens when it rings is the service's (core.service)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING

from core.identity import ChannelKey
from core.ports import GameRepository
from core.table import Game
from core.timeouts import next_deadline

if TYPE_CHECKING:
    from core.outcome import Outcome

log = logging.getLogger(__name__)
TimerPublish = Callable[[ChannelKey, "Outcome"], Awaitable[None]]
# How long a process's claim on a deadline lasts: another takes over this long after it died.
LEASE = 30.0
SWEEP = 60.0


class Clocks:
    """The tables' timers; `ring` is called (in a task of its own) when one is due."""

    def __init__(
        self,
        repository: GameRepository,
        ring: Callable[[ChannelKey], Coroutine[object, object, None]],
        clock: Callable[[], float],
    ) -> None:
        self._repository = repository
        self._ring = ring
        self._clock = clock
        self._publishers: dict[str, TimerPublish] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._firing: set[asyncio.Task[None]] = set()
        self._sweeps: dict[str, asyncio.Task[None]] = {}

    def on_deadline(self, platform: str, publish: TimerPublish) -> None:
        self._publishers[platform] = publish

    def publisher(self, platform: str) -> TimerPublish | None:
        """How the platform shows what the bot did on its own (None: stopped, or never said)."""
        return self._publishers.get(platform)

    async def resume(self, platform: str) -> None:
        """Arm every stored deadline of a platform; one that passed while down fires at once.

        With shared storage, look again every SWEEP seconds for the other processes' games, so
        that one of them dying leaves no deadline unwatched."""
        for game in await self._repository.active_games(platform):
            self.schedule(game)
        if self._repository.shared and platform not in self._sweeps:
            self._sweeps[platform] = asyncio.create_task(self._sweep(platform))

    async def _sweep(self, platform: str) -> None:
        while True:
            await asyncio.sleep(SWEEP)
            try:
                for game in await self._repository.active_games(platform):
                    if str(game.channel) not in self._timers:
                        self.schedule(game)
            except Exception:
                log.warning("looking for deadlines on %s failed", platform, exc_info=True)

    def schedule(self, game: Game) -> None:
        """Arm the table's clock for its next deadline. A clock already armed to ring no later
        is kept: ringing early, it finds the deadline moved on and arms again, which costs one
        wake, where re-arming at every action (each moves the idle deadline on) cost a handle,
        a cancel and the loop's heap of cancelled timers at every press."""
        key = str(game.channel)
        deadline = next_deadline(game) if game.channel.platform in self._publishers else None
        if deadline is None:
            self.stop(game.channel)
            return
        loop = asyncio.get_running_loop()
        when = loop.time() + max(0.0, deadline.at - self._clock())
        armed = self._timers.get(key)
        if armed is not None:
            if armed.when() <= when:
                return
            armed.cancel()
        self._timers[key] = loop.call_at(when, self._fire, game.channel)

    def retry(self, game: Game) -> None:
        """Look again once the other process's lease could have run out."""
        loop = asyncio.get_running_loop()
        self._timers[str(game.channel)] = loop.call_later(LEASE, self._fire, game.channel)

    def stop(self, channel: ChannelKey) -> None:
        armed = self._timers.pop(str(channel), None)
        if armed is not None:
            armed.cancel()

    def _fire(self, channel: ChannelKey) -> None:
        self._timers.pop(str(channel), None)
        task = asyncio.create_task(self._ring(channel))
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    def firing(self) -> list[asyncio.Task[None]]:
        """The deadlines being acted on now."""
        return list(self._firing)

    def close(self) -> list[asyncio.Task[None]]:
        """Disarm everything (no deadline is armed without a publisher); the tasks still
        running, for the caller to cancel and await."""
        self._publishers.clear()
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        return [*self._firing, *self._sweeps.values()]
