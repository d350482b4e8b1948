"""Group commit on SQLite: one writer task owns every write of the games' tables, and commits
those that arrived together in one transaction, each answered only after its commit.

A write (a statement and its parameters) is queued with a callback and a future. The writer
takes everything queued (up to a cap) and hands aiosqlite's thread ONE function: BEGIN
IMMEDIATE; for each write a SAVEPOINT, its statement, RELEASE (on an error ROLLBACK TO that
savepoint only, the error kept for that write alone, so that a stale or duplicate save fails
alone and its neighbours commit); then the group's `finish` (see below); COMMIT. Being one
function, nothing else on the connection (reads, boards, settings) runs in the middle of the
group: aiosqlite runs the functions of its queue one after another. A group of one is the
statement alone, its own transaction, as before group commit.

`finish` runs in the thread after the group's statements, inside its transaction: what the
writes that succeeded call for at once (the repository rates the games that ended and reads
their logs there, so that a game's end costs no trip of its own). Its result is handed to every
write's callback; it keeps its own failures to itself (a savepoint of its own): should it raise
all the same, the error is logged and the writes stand.

Back in the event loop, each write's callback runs in the group's order (the repository updates
its copy of the game there), then its future is resolved: None, or that write's own error.
Nothing needs a timer: while the thread commits one group, the writes arriving meanwhile queue
up and become the next group, so a lone write waits for no one.

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
from typing import Any, Generic, TypeVar, cast

import aiosqlite

log = logging.getLogger(__name__)

GROUP_CAP = 256  # writes per transaction at most; the rest wait for the next group

T = TypeVar("T")
# A write: its statement and that statement's parameters.
Statement = tuple[str, Sequence[Any]]
# In the database's thread, inside the group's transaction: the group's statements and each
# one's error (None: written); what it returns reaches every write's callback.
Finish = Callable[[sqlite3.Connection, Sequence[Statement], Sequence[BaseException | None]], T]
# Run in the loop once a write's fate is known: its error, and the group's finish (None where
# the group as a whole failed).
Done = Callable[[BaseException | None, T | None], None]


class Verdict(asyncio.Future[None]):
    """A write's fate, which its waiter's cancellation does not cancel: asked to, it says no,
    and the waiting task is cancelled once the verdict is in. So a caller (and the channel lock
    it holds) outlives its save, nothing else acting on the channel while the save's fate is
    unknown, without a shield and a second future for every save."""

    def cancel(self, msg: Any | None = None) -> bool:
        return False

    def abandon(self) -> None:
        """The writer itself was cancelled: this verdict will never come."""
        super().cancel()


@dataclass(eq=False, slots=True)
class Pending(Generic[T]):
    """One queued write: its statement, what to do once its fate is known (run in the loop, by
    the writer, whether or not anyone still waits), and who waits."""

    statement: Statement
    done: Done[T]
    future: Verdict


class GroupWriter(Generic[T]):
    """The one writer of a connection's games (see the module's doc)."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        finish: Finish[T],
        check: Callable[[], None] | None = None,
        cap: int = GROUP_CAP,
    ) -> None:
        self._db = connection
        self._finish = finish
        self._check = check  # before each group: an error refuses the whole group
        self._cap = cap
        self._queue: deque[Pending[T]] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        # For benchmarks and tests: how many groups were committed, and how many writes in them.
        self.groups = 0
        self.saves = 0
        self.largest = 0

    def submit(self, sql: str, row: Sequence[Any], done: Done[T]) -> Verdict:
        """Queue a write; its verdict is given once its group has committed (or failed). From
        here on the writer owns it: nothing takes it back."""
        if self._closing:
            raise ValueError("Connection closed")
        future = Verdict(loop=asyncio.get_running_loop())
        self._queue.append(Pending((sql, row), done, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="sqlite group writer")
        self._wake.set()
        return future

    async def close(self) -> None:
        """Refuse new writes, commit those queued, and stop."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _run(self) -> None:
        run = cast(
            Callable[..., Awaitable[tuple[list[BaseException | None], T | None]]],
            self._db._execute,
        )
        group: list[Pending[T]] = []
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    count = min(len(self._queue), self._cap)
                    group = [self._queue.popleft() for _ in range(count)]
                    statements = [pending.statement for pending in group]
                    finished: T | None = None
                    try:
                        if self._check is not None:
                            self._check()
                        outcomes, finished = await run(_commit, self._db, statements, self._finish)
                    except Exception as error:  # the whole group: refused, BEGIN or COMMIT failed
                        outcomes = [error] * len(group)
                    else:
                        self.groups += 1
                        self.saves += len(group)
                        self.largest = max(self.largest, len(group))
                    done, group = group, []
                    _settle(done, outcomes, finished)
                if self._closing:
                    return
        except BaseException as error:
            # Cancelled (the loop is going away): the group in the thread may still commit, so
            # its fate is unknown; those queued were never written. Nobody is left waiting.
            stranded = [*group, *self._queue]
            self._queue.clear()
            _settle(stranded, [error] * len(stranded), None)
            raise


def _settle(
    group: list[Pending[T]], outcomes: list[BaseException | None], finished: T | None
) -> None:
    for pending, error in zip(group, outcomes, strict=True):
        try:
            pending.done(error, finished)
        except Exception:
            log.exception("after a write was committed or refused")
        if error is None:
            pending.future.set_result(None)
        elif isinstance(error, Exception):
            pending.future.set_exception(error)
        else:
            pending.future.abandon()


def _commit(
    db: aiosqlite.Connection, statements: Sequence[Statement], finish: Finish[T]
) -> tuple[list[BaseException | None], T | None]:
    """In the database's thread: the group as one transaction; each write's error or None, and
    what `finish` made of them. Raises (having rolled back) if the group as a whole failed:
    every write in it failed."""
    connection: sqlite3.Connection = db._conn
    outcomes: list[BaseException | None] = []
    if len(statements) == 1:  # its own transaction: nothing to share
        sql, row = statements[0]
        try:
            connection.execute(sql, row).close()
        except sqlite3.Error as error:
            outcomes.append(error)
        else:
            outcomes.append(None)
        return outcomes, _finished(finish, connection, statements, outcomes)
    connection.execute("BEGIN IMMEDIATE")
    try:
        for sql, row in statements:
            connection.execute("SAVEPOINT save")
            try:
                connection.execute(sql, row).close()
            except sqlite3.Error as error:
                if not connection.in_transaction:
                    # SQLite gave up the whole transaction (a full disk, an I/O error): the
                    # writes before this one are undone too, and none after can be written.
                    raise
                connection.execute("ROLLBACK TO save")
                outcomes.append(error)
            else:
                outcomes.append(None)
            connection.execute("RELEASE save")
        finished = _finished(finish, connection, statements, outcomes)
        if not connection.in_transaction:  # SQLite gave up the transaction meanwhile
            raise sqlite3.OperationalError("the group's transaction was rolled back")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return outcomes, finished


def _finished(
    finish: Finish[T],
    connection: sqlite3.Connection,
    statements: Sequence[Statement],
    outcomes: Sequence[BaseException | None],
) -> T | None:
    """`finish`'s result; None, logged, should it raise: the writes stand without it."""
    try:
        return finish(connection, statements, outcomes)
    except Exception:
        log.exception("after a group of writes")
        return None
