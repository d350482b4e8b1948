"""Keeping inside a platform's limits without making a table wait.

`Pace` holds back what the bot posts or edits in one chat just enough to stay inside the
limits (Telegram's Bot FAQ: about one message a second in a chat, short bursts tolerated, and
20 new messages a minute in a group), instead of bouncing off them and waiting out a 429.
`Redraws` lets the newest state of a board win: while its edit waits, a newer state replaces
the waiting one, so a burst of presses costs one or two edits, and a press never waits for an
edit to be answered.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from adapters.chat.boards import BoardRef
from adapters.chat.cards import Card
from core.identity import ChannelKey

CHATS = 4096  # chats whose pace is remembered (one forgotten starts with a full burst)


@dataclass(frozen=True)
class Limits:
    """How fast the bot may write in one chat: `burst` at once, then `per_second`; in a group
    (as `group` tells from the chat's id) at most `new_per_minute` new messages; and in all
    chats together at most `overall_per_second` (0: no overall limit)."""

    burst: int = 3
    per_second: float = 1.0
    new_per_minute: int = 20
    group: Callable[[str], bool] = lambda chat: False
    overall_per_second: float = 0


class _Chat:
    def __init__(self) -> None:
        self.due = 0.0  # when the bucket would be full again (GCRA's theoretical arrival)
        self.new: deque[float] = deque()  # when the last new messages went out


class Pace:
    """Waits for a chat's next slot. A slot is reserved before waiting, so callers that arrive
    together go out in order, each as soon as the limits allow."""

    def __init__(
        self,
        limits: Limits | None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.limits = limits
        self._clock, self._sleep = clock, sleep
        self._chats: OrderedDict[str, _Chat] = OrderedDict()
        self._overall = _Chat()  # every chat's writes together

    async def turn(self, chat: str, *, new: bool, cost: int = 1) -> None:
        """Wait until the bot may send (`new`) or edit a message in `chat`; a long message
        costs more (`cost` slots), as it does on Telegram."""
        wait = self.reserve(chat, new=new, cost=cost)
        if wait > 0:
            await self._sleep(wait)

    def reserve(self, chat: str, *, new: bool, cost: int = 1) -> float:
        """Take the chat's next slot; how long until it comes."""
        limits = self.limits
        if limits is None:
            return 0.0
        now, state = self._clock(), self._state(chat)
        interval = 1 / limits.per_second
        slot = max(now, state.due - (limits.burst - 1) * interval)
        if limits.overall_per_second:  # the bot's writes everywhere share one budget too
            spacing = 1 / limits.overall_per_second
            slot = max(slot, self._overall.due)
            self._overall.due = slot + spacing * cost
        state.due = max(state.due, slot) + interval * cost
        at = slot
        if new and limits.group(chat):  # held for the group's minute: edits may go before it
            while state.new and state.new[0] <= now - 60:
                state.new.popleft()
            if len(state.new) >= limits.new_per_minute:
                at = max(at, state.new[-limits.new_per_minute] + 60)
            state.new.append(at)
        return at - now

    def _state(self, chat: str) -> _Chat:
        state = self._chats.get(chat)
        if state is None:
            state = self._chats[chat] = _Chat()
            if len(self._chats) > CHATS:
                self._chats.popitem(last=False)
        self._chats.move_to_end(chat)
        return state


Draw = Callable[[ChannelKey, str, BoardRef, Card, int], Awaitable[None]]


class Redraws:
    """One drawer per board message: it draws the newest state asked for, and again if a newer
    one came while it drew."""

    def __init__(self, draw: Draw) -> None:
        self._draw = draw
        self._pending: dict[BoardRef, tuple[ChannelKey, str, Card, int]] = {}
        self._drawers: dict[BoardRef, asyncio.Task[None]] = {}

    def request(
        self, channel: ChannelKey, game_id: str, ref: BoardRef, card: Card, version: int
    ) -> None:
        """Have `ref` show `card` (the game at `version`) as soon as it can; an older state
        waiting for it is dropped."""
        waiting = self._pending.get(ref)
        if waiting is not None and waiting[3] > version:
            return
        self._pending[ref] = (channel, game_id, card, version)
        if ref not in self._drawers:
            task = asyncio.create_task(self._drain(ref))
            self._drawers[ref] = task
            task.add_done_callback(lambda _: self._drawers.pop(ref, None))

    async def _drain(self, ref: BoardRef) -> None:
        while ref in self._pending:
            channel, game_id, card, version = self._pending.pop(ref)
            await self._draw(channel, game_id, ref, card, version)

    async def settled(self, chat: int) -> None:
        """Wait until every board of one chat shows the newest state asked for: an update is
        done with once its table is drawn (its answer went before)."""
        while drawers := [task for ref, task in self._drawers.items() if ref.chat == chat]:
            await asyncio.gather(*drawers, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until every board shows the newest state asked for (tests, shutdown)."""
        while self._drawers:
            await asyncio.gather(*self._drawers.values(), return_exceptions=True)
