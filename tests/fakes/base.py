"""What the fake Telegram and Discord servers have alike.

Both are aiohttp servers on a port of their own, in the test's event loop; both let a test wait
on what they saw (every change wakes the waiters, so a wait ends as soon as it can) and on a
quiet moment (nothing in flight, nothing happened for a while); and both can be made to fail
requests on purpose, answering with an error or dropping the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any, Generic, Self, TypeVar

from aiohttp import web

F = TypeVar("F")


async def wait_until(
    predicate: Callable[[], Any],
    timeout: float,
    wake: Callable[[], asyncio.Event],
    *,
    poll: float = float("inf"),
) -> Any:
    """``predicate()``'s first truthy value, checked again whenever the event ``wake()`` gives is
    set, and at least every ``poll`` seconds; None once ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake().wait(), min(remaining, poll))


class FaultQueue(Generic[F]):
    """Injected failures waiting for the requests they match, oldest first."""

    def __init__(self) -> None:
        self._pending: list[list[Any]] = []  # [fault, how many more requests it fails]

    def add(self, fault: F, times: int) -> None:
        """``fault`` fails the next ``times`` matching requests (at least one)."""
        self._pending.append([fault, times])

    def take(self, matches: Callable[[F], bool]) -> F | None:
        """The oldest pending fault that ``matches``, counted as used once; None if none."""
        for entry in self._pending:
            if matches(entry[0]):
                entry[1] -= 1
                if entry[1] <= 0:
                    self._pending.remove(entry)
                return entry[0]  # type: ignore[no-any-return]
        return None


def abort_connection(request: web.Request) -> None:
    """Cut the request's connection at once: no answer, no close handshake."""
    transport = request.transport
    if transport is not None:
        transport.abort()


class FakeServer:
    """The server and waiting machinery both fakes are built on."""

    def __init__(self) -> None:
        #: requests the fake did not understand (a test asserts it is empty)
        self.unhandled: list[str] = []
        self._runner: web.AppRunner | None = None
        self._inflight = 0  # requests being handled now
        self._last_activity = time.monotonic()
        self._changed: asyncio.Event | None = None  # set (and replaced) on every change

    # ---- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        raise NotImplementedError

    async def stop(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _serve(
        self, app: web.Application, host: str, port: int = 0, **runner_options: Any
    ) -> int:
        """Serve ``app`` on ``host``, on ``port`` (0: a free one); returns the port."""
        self._runner = web.AppRunner(app, access_log=None, **runner_options)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        return int(self._runner.addresses[0][1])

    async def _close_server(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- activity and waiting --------------------------------------------------------------

    def _changed_event(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    def _notify(self) -> None:
        """Something changed: note the time and wake everyone waiting."""
        self._last_activity = time.monotonic()
        event = self._changed_event()
        self._changed = asyncio.Event()
        event.set()

    @contextlib.contextmanager
    def _handling_request(self) -> Iterator[None]:
        """Count a request as in flight (for settling) while it is handled."""
        self._inflight += 1
        self._notify()
        try:
            yield
        finally:
            self._inflight -= 1
            self._notify()

    async def _wait_until(
        self,
        predicate: Callable[[], Any],
        timeout: float,
        *,
        poll: float,
        failure: Callable[[], str],
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value; it is checked again on
        every change, and at least every ``poll`` seconds (for state that changes silently).
        After ``timeout`` seconds fail with ``failure()``."""
        value = await wait_until(predicate, timeout, self._changed_event, poll=poll)
        if value is None:
            raise AssertionError(failure())
        return value

    async def handled(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no request is in flight and none came for ``quiet`` seconds: after the bot
        process died, what it sent has been heard, and nothing more will come."""
        await self._settle_until(
            lambda: self._inflight > 0,
            quiet,
            timeout,
            pause=min(quiet / 4, 0.01),
            failure=lambda: f"requests still in flight after {timeout}s",
        )

    async def _settle_until(
        self,
        busy: Callable[[], bool],
        quiet: float,
        timeout: float,
        *,
        pause: float,
        failure: Callable[[], str],
    ) -> None:
        """Wait until not ``busy()`` and nothing happened for ``quiet`` seconds, looking every
        ``pause`` seconds. After ``timeout`` seconds fail with ``failure()``."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if not busy() and now - self._last_activity >= quiet:
                return
            if now >= deadline:
                raise AssertionError(failure())
            await asyncio.sleep(pause)
