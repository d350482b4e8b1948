"""The real terminal: lines read on the event loop, so that Ctrl-C ends a wait at once.

`input()` in a worker thread cannot be interrupted: Ctrl-C waited for Enter, and the loop's
shutdown then joined the thread. Here the loop watches standard input itself, and SIGINT or
SIGTERM only sets `stopped`, which the game checks at its next step, never mid-save."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from types import TracebackType
from typing import BinaryIO, TextIO

SIGNALS = (signal.SIGINT, signal.SIGTERM)
CHUNK = 65536


class Terminal:
    """Prompts on `out` and answers with lines of the file descriptor `fd`; None once input
    has ended (Ctrl-D) or a stop was asked for (Ctrl-C)."""

    def __init__(self, fd: int | None = None, out: TextIO | None = None) -> None:
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.out = out or sys.stdout
        self.stopped = asyncio.Event()
        self._buffer = b""
        self._ended = False
        self._waiter: asyncio.Future[None] | None = None
        self._watching = False  # the loop is watching `fd` now
        self._file: BinaryIO | None = None
        self._signals: list[signal.Signals] = []

    async def __aenter__(self) -> Terminal:
        loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.stop)
                self._signals.append(sig)
        # A pipe or a terminal can be watched; a regular file (`< moves.txt`) cannot, and never
        # blocks, so it is read in a thread instead.
        try:
            loop.add_reader(self.fd, self._readable)
            self._watching = True
        except (NotImplementedError, OSError):
            self._file = os.fdopen(self.fd, "rb", closefd=False)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        loop = asyncio.get_running_loop()
        if self._watching:
            loop.remove_reader(self.fd)
        if self._file is not None:
            self._file.close()
        for sig in self._signals:
            loop.remove_signal_handler(sig)

    def stop(self) -> None:
        """Ctrl-C: end the wait for a line now; the game stops at its next step."""
        self.stopped.set()
        self._wake()

    async def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = await (self._file_line(self._file) if self._file else self._watched_line())
        if line is None:
            self.out.write("\n")  # after "^C" or Ctrl-D, whatever is said next starts a line
            self.out.flush()
        return line

    async def _watched_line(self) -> str | None:
        while not self.stopped.is_set():
            if b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                return _decode(line)
            if self._ended:
                line, self._buffer = self._buffer, b""
                return _decode(line) if line else None
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return None

    async def _file_line(self, file: BinaryIO) -> str | None:
        if self.stopped.is_set():
            return None
        line = await asyncio.to_thread(file.readline)
        return _decode(line.removesuffix(b"\n")) if line else None

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, CHUNK)  # ready, so this does not block
        except OSError:  # the terminal went away
            data = b""
        if data:
            self._buffer += data
        else:
            self._ended = True
            asyncio.get_running_loop().remove_reader(self.fd)
            self._watching = False
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


def _decode(line: bytes) -> str:
    return line.decode("utf-8", errors="replace").removesuffix("\r")
