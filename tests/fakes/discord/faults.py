"""Failures a test injects into the fake Discord: REST errors (429 with retry_after, 5xx...),
connections dropped mid-request, requests carried out but answered with a failure (answered in
:mod:`tests.fakes.discord.http`); and gateway connections cut, told to reconnect, or their
sessions invalidated."""

from __future__ import annotations

import contextlib
import fnmatch
from dataclasses import dataclass

from tests.fakes.base import FakeServer, FaultQueue, abort_connection


@dataclass
class _Fault:
    method: str
    pattern: str
    status: int | str
    retry_after: float
    is_global: bool
    code: int | None
    message: str | None
    applied: bool


class Faults(FakeServer):
    """Fault injection, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    _faults: FaultQueue[_Fault]

    def fail_next(
        self,
        method: str,
        path: str,
        status: int | str = 429,
        *,
        retry_after: float = 0.2,
        times: int = 1,
        is_global: bool = False,
        code: int | None = None,
        message: str | None = None,
        applied: bool = False,
    ) -> None:
        """Fail the next ``times`` REST requests matching ``method`` and the glob ``path`` (relative
        to the API base, e.g. ``/channels/*/messages/*``).

        ``status``: 429 (with ``retry_after``), any HTTP error status, or ``"drop"`` (the
        connection is closed mid-request).  ``applied=True`` carries the request out first
        (the client never learns it worked).
        """
        if status != "drop" and not isinstance(status, int):
            raise ValueError("status must be an int or 'drop'")
        fault = _Fault(method.upper(), path, status, retry_after, is_global, code, message, applied)
        self._faults.add(fault, times)

    def _take_fault(self, method: str, path: str) -> _Fault | None:
        return self._faults.take(
            lambda f: f.method in ("*", method) and fnmatch.fnmatchcase(path, f.pattern)
        )

    async def drop_gateway(self, code: int | None = None) -> None:
        """Cut every gateway connection: abruptly (no close frame) or with close ``code``.
        The sessions stay resumable; events meanwhile are replayed on RESUME."""
        conns = [c for c in self._conns if not c.closed]
        if not conns:
            raise AssertionError("no gateway connection to drop")
        for conn in conns:
            conn.dropped = True
            conn.closed = True
            conn.queue.put_nowait(None)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            if code is None:
                abort_connection(conn.request)
            else:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=code, message=b"fake drop")
        self._notify()

    def reconnect_gateway(self) -> None:
        """Send op 7 RECONNECT (the bot should reconnect and resume)."""
        for conn in self._conns:
            if not conn.closed and conn.session is not None:
                conn.send({"op": 7, "d": None, "s": None, "t": None})

    def invalidate_sessions(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION to every connected session."""
        for conn in self._conns:
            if not conn.closed and conn.session is not None:
                if not resumable:
                    conn.session.alive = False
                conn.send({"op": 9, "d": resumable, "s": None, "t": None})
