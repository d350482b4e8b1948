"""One table's actions in order, without a press waiting for another action's messages.

An action is applied under its table's lock, held only while the game changes. What it then
shows (a new board, the final message: sends a busy group's minute may hold back for seconds)
follows in the order the actions were applied, each once the one before is shown, while the
next action is already applied and its press answered. Before, a press waited behind every
message of the action before it, and Telegram drops a press not answered within seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar

from adapters.chat.pacing import pending
from core.identity import ChannelKey
from core.locks import ChannelLocks

QUIET_WAIT = 0.25  # seconds an action waits for its table before it is acknowledged

Ack = Callable[[], Awaitable[None]]


class _Place:
    """One action's place at its table: the lock while it acts, then its turn to show."""

    def __init__(self, order: Order, key: str, lock: asyncio.Lock, ack: Ack | None) -> None:
        self._order, self.key, self._lock, self._ack = order, key, lock, ack
        self._locked = True
        self._shown: asyncio.Future[None] | None = None

    async def show(self) -> None:
        """Let the next action at the table act, and wait until those before are shown."""
        if self._shown is not None:
            return
        before = self._order.tails.get(self.key)
        self._shown = asyncio.get_running_loop().create_future()
        self._order.tails[self.key] = self._shown
        self._locked = False
        self._lock.release()
        if before is not None and not before.done():
            await _wait(before, self._ack)

    def end(self) -> None:
        if self._locked:
            self._locked = False
            self._lock.release()
        shown = self._shown
        if shown is not None:
            shown.set_result(None)
            if self._order.tails.get(self.key) is shown:
                del self._order.tails[self.key]


class Order:
    """Every table's lock and the queue of what its actions show."""

    def __init__(self) -> None:
        self.locks = ChannelLocks()
        self.tails: dict[str, asyncio.Future[None]] = {}  # the last action waiting to show
        self._place: ContextVar[_Place | None] = ContextVar("place", default=None)

    @contextlib.asynccontextmanager
    async def turn(self, channel: ChannelKey, ack: Ack | None = None) -> AsyncIterator[None]:
        """One action at the table: it acts alone; `shown` queues what it shows. `ack`
        acknowledges an action that waits more than a moment for its turn."""
        with pending():
            async with self._turn(channel, ack):
                yield

    @contextlib.asynccontextmanager
    async def _turn(self, channel: ChannelKey, ack: Ack | None) -> AsyncIterator[None]:
        lock = self.locks[channel]
        if not lock.locked() or ack is None:
            await lock.acquire()
        else:
            try:
                await asyncio.wait_for(lock.acquire(), QUIET_WAIT)
            except TimeoutError:
                await ack()
                await lock.acquire()
        place = _Place(self, str(channel), lock, ack)
        token = self._place.set(place)
        try:
            yield  # an action that changed nothing (a refusal) shows nothing: it waits for none
        finally:
            self._place.reset(token)
            place.end()

    def showing(self, channel: ChannelKey) -> bool:
        """Whether an action at the table is still to be shown (it will draw the newest)."""
        return str(channel) in self.tails

    async def shown(self, channel: ChannelKey) -> None:
        """The action in hand has changed the game: the next may act, and this one shows what
        it did once the actions before it have (nothing to do outside a `turn`)."""
        place = self._place.get()
        if place is not None and place.key == str(channel):
            await place.show()


async def _wait(before: asyncio.Future[None], ack: Ack | None) -> None:
    """Wait for the action before to be shown; a wait of more than a moment is acknowledged
    first (a Discord deferral). Giving up the wait leaves the one before alone."""
    if ack is not None:
        done, _ = await asyncio.wait({before}, timeout=QUIET_WAIT)
        if not done:
            await ack()
    await asyncio.shield(before)
