"""Every outcome offered to every watcher of its channel, whatever caused it (a press, a
command, a timer, a computer's move, a rematch, someone forgotten): so that any number of
viewers can follow a table, not only the front end that caused the move.

Offering never waits: each watcher has a queue of its own, bounded, which drops its oldest
outcome when full (and counts it) so that a watcher that stopped reading holds nothing up.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from core.identity import ChannelKey
from core.view import make_view

if TYPE_CHECKING:
    from core.outcome import Outcome

WATCH_LIMIT = 1024  # outcomes a watcher may fall behind before the oldest are dropped


class Watch:
    """One viewer's outcomes, in the order they were saved; `channel` None: every channel."""

    def __init__(self, broadcast: Broadcast, channel: ChannelKey | None, limit: int) -> None:
        self.channel = channel
        self.missed = 0  # outcomes dropped because this watcher fell `limit` behind
        self._broadcast = broadcast
        self._queue: asyncio.Queue[Outcome] = asyncio.Queue(limit)

    def put(self, outcome: Outcome) -> None:
        if self._queue.full():
            self._queue.get_nowait()
            self.missed += 1
        self._queue.put_nowait(outcome)

    async def next(self) -> Outcome:
        return await self._queue.get()

    def pending(self) -> list[Outcome]:
        """The outcomes offered and not yet read, taken at once."""
        taken: list[Outcome] = []
        while not self._queue.empty():
            taken.append(self._queue.get_nowait())
        return taken

    def close(self) -> None:
        self._broadcast.leave(self)


class Broadcast:
    """The watchers of the service's channels, by channel: an outcome is offered to its own
    channel's watchers without a look at every other table's (hundreds of open pages)."""

    def __init__(self) -> None:
        self._watchers: dict[ChannelKey | None, list[Watch]] = {}

    def watch(self, channel: ChannelKey | None = None, limit: int = WATCH_LIMIT) -> Watch:
        watch = Watch(self, channel, limit)
        self._watchers.setdefault(channel, []).append(watch)
        return watch

    def leave(self, watch: Watch) -> None:
        watchers = self._watchers.get(watch.channel, [])
        if watch in watchers:
            watchers.remove(watch)
            if not watchers:
                del self._watchers[watch.channel]

    def wanted(self, channel: str) -> bool:
        """Whether anyone watches this channel (its key as text)."""
        return any(key is None or str(key) == channel for key in self._watchers)

    def offer(self, outcome: Outcome) -> None:
        """Hand a saved outcome to its channel's watchers, as a spectator sees it (nobody's
        own view): the actor's view stays the caller's."""
        channel = outcome.game.channel
        watchers = self._watchers.get(None, []) + self._watchers.get(channel, [])
        if not watchers:
            return
        seen = outcome  # already a spectator's (the clock's, another process's), else made so
        if outcome.view.viewer_id is not None:
            seen = type(outcome)(
                outcome.game, outcome.events, make_view(outcome.game, None, outcome.events)
            )
        for watch in watchers:
            watch.put(seen)
