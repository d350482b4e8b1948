"""Group commit on SQLite: one writer task owns every save, and commits the saves that arrived
together in one transaction, each answered only after its commit.

A save is queued with a callback and a future. The writer takes everything queued (up to a cap)
and hands aiosqlite's thread ONE function: BEGIN IMMEDIATE; for each save a SAVEPOINT, its
statement, RELEASE (on an error ROLLBACK TO that savepoint only, the error kept for that save
alone, so that a stale or duplicate save fails alone and its neighbours commit); COMMIT. Being
one function, nothing else on the connection (reads, boards, settings, ratings) runs in the
middle of the group: aiosqlite runs the functions of its queue one after another. A group of
one is the statement alone, its own transaction, as before group commit.

Back in the event loop, each save's callback runs in the group's order (the repository updates
its copy of the game there), then its future is resolved: None, or that save's own error.
Nothing needs a timer: while the thread commits one group, the saves arriving meanwhile queue up
and become the next group, so a lone save waits for no one.

Durability is the statement's own: a group is acknowledged once COMMIT returned, which in WAL
with synchronous=NORMAL means its frames are in the WAL file (the kernel's page cache): a
SIGKILL of the process keeps every acknowledged save, as it did one save at a time."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import aiosqlite

log = logging.getLogger(__name__)

GROUP_CAP = 256  # saves per transaction at most; the rest wait for the next group

Done = Callable[[BaseException | None], None]


@dataclass(eq=False, slots=True)
class Pending:
    """One queued save: its statement's parameters, what to do once its fate is known (run in
    the loop, by the writer, whether or not anyone still waits), and who waits."""

    row: Sequence[Any]
    done: Done
    future: asyncio.Future[None]


class GroupWriter:
    """The one writer of a connection's saves (see the module's doc)."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        sql: str,
        check: Callable[[], None] | None = None,
        cap: int = GROUP_CAP,
    ) -> None:
        self._db = connection
        self._sql = sql
        self._check = check  # before each group: an error refuses the whole group
        self._cap = cap
        self._queue: deque[Pending] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        # For benchmarks and tests: how many groups were committed, and how many saves in them.
        self.groups = 0
        self.saves = 0
        self.largest = 0

    def submit(self, row: Sequence[Any], done: Done) -> asyncio.Future[None]:
        """Queue a save; the future is resolved once its group has committed (or failed). From
        here on the writer owns it: cancelling the future does not take it back."""
        if self._closing:
            raise ValueError("Connection closed")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(Pending(row, done, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="sqlite group writer")
        self._wake.set()
        return future

    async def close(self) -> None:
        """Refuse new saves, commit those queued, and stop."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _run(self) -> None:
        run = cast(Callable[..., Awaitable[list[BaseException | None]]], self._db._execute)
        group: list[Pending] = []
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    count = min(len(self._queue), self._cap)
                    group = [self._queue.popleft() for _ in range(count)]
                    rows = [pending.row for pending in group]
                    try:
                        if self._check is not None:
                            self._check()
                        outcomes = await run(_commit, self._db, self._sql, rows)
                    except Exception as error:  # the whole group: refused, BEGIN or COMMIT failed
                        outcomes = [error] * len(group)
                    else:
                        self.groups += 1
                        self.saves += len(group)
                        self.largest = max(self.largest, len(group))
                    done, group = group, []
                    _settle(done, outcomes)
                if self._closing:
                    return
        except BaseException as error:
            # Cancelled (the loop is going away): the group in the thread may still commit, so
            # its fate is unknown; those queued were never written. Nobody is left waiting.
            stranded = [*group, *self._queue]
            self._queue.clear()
            _settle(stranded, [error] * len(stranded))
            raise


def _settle(group: list[Pending], outcomes: list[BaseException | None]) -> None:
    for pending, error in zip(group, outcomes, strict=True):
        try:
            pending.done(error)
        except Exception:
            log.exception("after a save was committed or refused")
        if pending.future.done():  # a caller cancelled meanwhile waits no more
            continue
        if error is None:
            pending.future.set_result(None)
        elif isinstance(error, Exception):
            pending.future.set_exception(error)
        else:
            pending.future.cancel()


def _commit(
    db: aiosqlite.Connection, sql: str, rows: list[Sequence[Any]]
) -> list[BaseException | None]:
    """In the database's thread: the group as one transaction; each save's error or None.
    Raises (having rolled back) if the group as a whole failed: every save in it failed."""
    connection: sqlite3.Connection = db._conn
    if len(rows) == 1:  # its own transaction: nothing to share
        try:
            connection.execute(sql, rows[0]).close()
        except sqlite3.Error as error:
            return [error]
        return [None]
    outcomes: list[BaseException | None] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        for row in rows:
            connection.execute("SAVEPOINT save")
            try:
                connection.execute(sql, row).close()
            except sqlite3.Error as error:
                if not connection.in_transaction:
                    # SQLite gave up the whole transaction (a full disk, an I/O error): the
                    # saves before this one are undone too, and none after can be written.
                    raise
                connection.execute("ROLLBACK TO save")
                outcomes.append(error)
            else:
                outcomes.append(None)
            connection.execute("RELEASE save")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return outcomes
