"""Keeping inside a platform's limits without making a table wait.

`Pace` holds back what the bot posts or edits in one chat just enough to stay inside the
limits (Telegram's Bot FAQ: about one message a second in a chat, short bursts tolerated, about
30 a second in all; and in a group 20 a minute, sends and edits together, as Telegram's
developers state in tdlib/td issues 2592 and 3034), instead of bouncing off them and waiting out
a 429. A group's minute is spent evenly (one slot every three seconds after a short burst), so
that a busy table's board is never more than a slot behind instead of a minute. Each limit is
kept with `slack` seconds to spare, since a call reaches the platform a little after it leaves,
and checked again against the calls that really went when a wait ends (a busy event loop wakes
late and would otherwise send a catch-up burst; a call counts in the windows until it is
answered, as it may arrive late).
`Redraws` lets the newest state of a board win: a board's drawer waits for the chat's turn
before it picks the state to draw, so a burst of presses costs one or two edits, and a press
never waits for an edit to be answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from adapters.chat.boards import BoardRef
from core.identity import ChannelKey

CHATS = 4096  # chats whose pace is remembered (one forgotten starts with a full burst)
MINUTE = 60.0
SIGN_AFTER = 1.0  # seconds of waiting beyond which a command's answer is announced (`turn`)
LANDING = 0.01  # seconds between looks while calls on their way take up the budget


@dataclass(frozen=True)
class Limits:
    """How fast the bot may write in one chat: `burst` at once, then `per_second`; in a group
    (as `group` tells from the chat's id) at most `group_writes` sends and edits together in
    any `group_window` seconds (Telegram's minute; tests and benchmarks may shrink it), spent
    evenly after `group_burst` at once; and in all chats together at most
    `overall_per_second` (0: no overall limit). `slack`: seconds kept to spare in every limit,
    for the time a call takes to arrive."""

    burst: int = 3
    per_second: float = 1.0
    group_writes: int = 20
    group: Callable[[str], bool] = lambda chat: False
    overall_per_second: float = 0
    slack: float = 0.1
    group_window: float = MINUTE
    group_burst: int = 4

    @property
    def interval(self) -> float:
        """One slot of a chat's bucket."""
        return 1 / self.per_second + self.slack

    @property
    def group_interval(self) -> float:
        """One slot of a group's window, spent evenly."""
        return self.group_window / self.group_writes

    @property
    def group_span(self) -> float:
        """The group's window with its slack."""
        return self.group_window + self.slack

    @property
    def spacing(self) -> float:
        """One slot of the overall budget: `overall_per_second` in every second and its slack."""
        return (1 + self.slack) / self.overall_per_second


_pending = 0  # what this process has still to show (see `pending`)


def unshown() -> int:
    """How many actions are being shown and writes wait for their chat's pace or are on their
    way, now (a metric; a test waits for none: the platform hears nothing meanwhile)."""
    return _pending


@contextlib.contextmanager
def pending() -> Iterator[None]:
    """Count what is done inside in `unshown()`."""
    global _pending
    _pending += 1
    try:
        yield
    finally:
        _pending -= 1


class _Bucket:
    """A generic cell rate (GCRA): `due` is when the bucket would be full again."""

    def __init__(self) -> None:
        self.due = 0.0

    def wait(self, now: float, interval: float, burst: int, cost: int = 1) -> float:
        """How long until `cost` more fit: a call of two needs two slots of the burst free."""
        return max(0.0, self.due - (burst - min(cost, burst)) * interval - now)

    def take(self, at: float, interval: float, cost: int) -> None:
        self.due = max(self.due, at) + interval * cost


class _Flights:
    """Calls of one scope (every chat, or one group's writes) for a sliding window:
    those still on their way, and when the others were answered. An answer is the latest a
    call can have reached the platform, so a window kept by answers holds wherever the
    platform counts, however long a call took on the way."""

    def __init__(self) -> None:
        self.flying = 0
        self.answered: deque[float] = deque()

    def wait(self, now: float, limit: int, span: float, cost: int) -> float:
        """How long until `cost` more fit under `limit` in every `span`; 0: now."""
        while self.answered and self.answered[0] <= now - span:
            self.answered.popleft()
        over = self.flying + len(self.answered) + min(cost, limit) - limit
        if over <= 0:
            return 0.0
        if over > len(self.answered):
            return LANDING  # calls on their way must be answered first
        return self.answered[over - 1] + span - now

    def land(self, now: float, cost: int) -> None:
        self.flying -= cost
        self.answered.extend([now] * cost)


class _Arrivals:
    """A chat's recent calls as the platform's bucket may have counted them: each at the
    latest moment it can have arrived (its answer; now, while it is on its way). Calls that
    left in good time may still arrive together (an earlier one slower on the way); judged by
    these moments, no run of calls overfills the bucket wherever the platform counted them."""

    KEPT = 16  # the recent calls looked at (a burst and more)

    def __init__(self) -> None:
        self.flying = 0
        self.answered: deque[tuple[float, int]] = deque(maxlen=self.KEPT)  # (when, cost)

    def wait(self, now: float, interval: float, burst: int, cost: int) -> float:
        """How long until `cost` more fit after every run of recent calls; 0: now."""
        run = self.flying + min(cost, burst)
        if run > burst:
            return LANDING  # calls on their way must be answered first
        wait = 0.0
        for answered, spent in reversed(self.answered):
            run += spent  # this call and all after it, and the new one
            wait = max(wait, answered + (run - burst) * interval - now)
        return wait

    def land(self, now: float, cost: int) -> None:
        self.flying -= cost
        self.answered.append((now, cost))


class _Chat:
    def __init__(self) -> None:
        self.planned, self.went = _Bucket(), _Bucket()  # slots reserved; calls really made
        self.arrivals = _Arrivals()
        self.group_planned = _Bucket()  # a group's slots, spent evenly
        self.planned_group: deque[float] = deque()  # when the group's writes are to go
        self.group = _Flights()


class Pace:
    """Waits for a chat's next slot. A slot is reserved before waiting, so callers that arrive
    together go out in order, each as soon as the limits allow; when the wait ends, the calls
    that really went are the judge (a late wake-up must not make a burst). Every write waiting
    or on its way is counted in `unshown()`."""

    def __init__(
        self,
        limits: Limits | None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.limits = limits
        self._clock, self._sleep = clock, sleep
        self._chats: OrderedDict[str, _Chat] = OrderedDict()
        self._planned, self._all = _Bucket(), _Flights()  # every chat's writes together

    @contextlib.asynccontextmanager
    async def turn(
        self,
        chat: str,
        *,
        cost: int = 1,
        sign: Callable[[], Awaitable[None]] | None = None,
    ) -> AsyncIterator[None]:
        """Hold the call made inside until the bot may send or edit a message in `chat` (both
        cost the same everywhere); a long message costs more (`cost` slots), as it does on
        Telegram. `sign` is awaited first when the wait is long (a chat action that tells the
        chat it was heard)."""
        limits = self.limits
        if limits is None:
            yield
            return
        wait = self.reserve(chat, cost=cost)
        if sign is not None and wait > SIGN_AFTER:
            await sign()
        with pending():
            await self._slot(limits, chat, cost, wait)
            state, group = self._state(chat), limits.group(chat)
            state.went.take(self._clock(), limits.interval, cost)
            self._all.flying += cost
            state.arrivals.flying += cost
            if group:
                state.group.flying += cost
            try:
                yield
            finally:
                now = self._clock()
                self._all.land(now, cost)
                state.arrivals.land(now, cost)
                if group:
                    state.group.land(now, cost)

    async def ready(self, chat: str) -> None:
        """Wait until an edit in `chat` could go now, taking no slot (a drawer picks the newest
        state to draw only then)."""
        with pending():
            while (wait := self._free(chat)) > 0:
                await self._sleep(wait)

    def reserve(self, chat: str, *, cost: int = 1) -> float:
        """Take the chat's next slot; how long until it comes."""
        limits = self.limits
        if limits is None:
            return 0.0
        now, state = self._clock(), self._state(chat)
        slot = now + state.planned.wait(now, limits.interval, limits.burst, cost)
        if limits.group(chat):
            slot = max(slot, now + self._group_wait(limits, state, now, cost))
        if limits.overall_per_second:  # the bot's writes everywhere share one budget too
            slot = max(slot, self._planned.due)
            self._planned.take(slot, limits.spacing, cost)
        state.planned.take(slot, limits.interval, cost)
        if limits.group(chat):
            state.group_planned.take(slot, limits.group_interval, cost)
            state.planned_group.extend([slot] * cost)
        return slot - now

    def hold(self, chat: str, seconds: float) -> None:
        """The platform refused a write in `chat` for `seconds` (a 429, retried after them):
        nothing more goes there until they have passed, then one slot at a time, so that the
        retried call does not meet a burst of the writes that queued meanwhile (each of which
        would be refused in turn)."""
        limits = self.limits
        if limits is None:
            return
        state, free = self._state(chat), self._clock() + seconds
        for bucket in (state.planned, state.went):
            bucket.due = max(bucket.due, free + limits.burst * limits.interval)
        if limits.group(chat):
            slots = limits.group_burst * limits.group_interval
            state.group_planned.due = max(state.group_planned.due, free + slots)

    async def again(self, chat: str, *, cost: int = 1) -> None:
        """Wait for a new slot of its own for a call the platform refused (after `hold`); the
        call is still counted where it was (`turn`), as the platform counts none refused."""
        limits = self.limits
        if limits is None:
            return
        state, group = self._state(chat), limits.group(chat)
        flights: list[_Flights | _Arrivals] = [self._all, state.arrivals]
        flights += [state.group] if group else []
        for flight in flights:  # refused, it is on its way no more while it waits
            flight.flying -= cost
        try:
            await self._slot(limits, chat, cost, self.reserve(chat, cost=cost))
        finally:
            for flight in flights:
                flight.flying += cost
        state.went.take(self._clock(), limits.interval, cost)

    async def _slot(self, limits: Limits, chat: str, cost: int, wait: float) -> None:
        """Wait out a reserved slot (`wait` seconds), and then as long as the calls that really
        went say (a late wake-up)."""
        while wait > 0 or (wait := self._late(limits, chat, cost=cost)) > 0:
            await self._sleep(wait)
            wait = 0

    def _group_wait(self, limits: Limits, state: _Chat, now: float, cost: int) -> float:
        """How long until the group's window has room for `cost` more, by the slots reserved:
        evenly spent, and never more than its writes in any window."""
        wait = state.group_planned.wait(now, limits.group_interval, limits.group_burst, cost)
        planned, most = state.planned_group, limits.group_writes
        while planned and planned[0] <= now - limits.group_span:
            planned.popleft()
        over = len(planned) + min(cost, most) - most
        if over > 0:
            wait = max(wait, planned[over - 1] + limits.group_span - now)
        return wait

    def _free(self, chat: str) -> float:
        """How long until an edit in `chat` would not wait, by the slots reserved."""
        limits = self.limits
        if limits is None:
            return 0.0
        now, state = self._clock(), self._state(chat)
        wait = state.planned.wait(now, limits.interval, limits.burst)
        if limits.group(chat):
            wait = max(wait, self._group_wait(limits, state, now, 1))
        if limits.overall_per_second:
            wait = max(wait, self._planned.due - now)
        return wait

    def _late(self, limits: Limits, chat: str, *, cost: int) -> float:
        """How much longer to wait, judged by the calls that really went."""
        now, state = self._clock(), self._state(chat)
        wait = state.went.wait(now, limits.interval, limits.burst, cost)
        wait = max(wait, state.arrivals.wait(now, limits.interval, limits.burst, cost))
        if limits.overall_per_second:
            most = max(1, int(limits.overall_per_second))  # in any second and its slack
            wait = max(wait, self._all.wait(now, most, 1 + limits.slack, cost))
        if limits.group(chat):
            most, span = limits.group_writes, limits.group_span
            wait = max(wait, state.group.wait(now, most, span, cost))
        return wait

    def _state(self, chat: str) -> _Chat:
        state = self._chats.get(chat)
        if state is None:
            state = self._chats[chat] = _Chat()
            if len(self._chats) > CHATS:
                self._chats.popitem(last=False)
        self._chats.move_to_end(chat)
        return state


Shown = TypeVar("Shown")  # what a board is to show: a card, in its language


class Redraws(Generic[Shown]):
    """One drawer per board message: it draws the newest state asked for, and again if a newer
    one came while it drew."""

    def __init__(
        self,
        draw: Callable[[ChannelKey, str, BoardRef, Shown, int], Awaitable[None]],
        ready: Callable[[BoardRef], Awaitable[None]] | None = None,
    ) -> None:
        self._draw = draw
        self._ready = ready  # waits until the board's chat may be written in
        self._pending: dict[BoardRef, tuple[ChannelKey, str, Shown, int]] = {}
        self._drawers: dict[BoardRef, asyncio.Task[None]] = {}

    def request(
        self, channel: ChannelKey, game_id: str, ref: BoardRef, card: Shown, version: int
    ) -> None:
        """Have `ref` show `card` (the game at `version`) as soon as it can; an older state
        waiting for it is dropped."""
        waiting = self._pending.get(ref)
        if waiting is not None and waiting[3] > version:
            return
        self._pending[ref] = (channel, game_id, card, version)
        drawer = self._drawers.get(ref)
        # A drawer that has ended is forgotten only a turn of the loop later (its done
        # callbacks): one asked for meanwhile would wait for a drawer that is no more.
        if drawer is None or drawer.done():
            task = asyncio.create_task(self._drain(ref))
            self._drawers[ref] = task
            task.add_done_callback(lambda done: self._forget(ref, done))

    def _forget(self, ref: BoardRef, drawer: asyncio.Task[None]) -> None:
        if self._drawers.get(ref) is drawer:  # not the next one, made meanwhile
            del self._drawers[ref]

    async def _drain(self, ref: BoardRef) -> None:
        while ref in self._pending:
            if self._ready is not None:
                await self._ready(ref)  # newer states that come meanwhile replace this one
            channel, game_id, card, version = self._pending.pop(ref)
            await self._draw(channel, game_id, ref, card, version)

    async def settled(self, chat: str, within: float | None = None) -> None:
        """Wait until every board of one chat (its key) shows the newest state asked for (an
        update is done with once its table is drawn: its answer went before), or `within` s."""
        loop = asyncio.get_running_loop()
        until = None if within is None else loop.time() + within
        while drawers := [task for ref, task in self._drawers.items() if ref.chat == chat]:
            if until is None:
                await asyncio.gather(*drawers, return_exceptions=True)
            elif (left := until - loop.time()) > 0:
                await asyncio.wait(drawers, timeout=left)
            else:
                return

    async def idle(self) -> None:
        """Wait until every board shows the newest state asked for (tests, shutdown)."""
        while self._drawers:
            await asyncio.gather(*self._drawers.values(), return_exceptions=True)
