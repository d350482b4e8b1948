"""The repository's way to the server: a pool of connections, and within a channel's lock the
lock's own connection, so that what one task does to a channel runs in one transaction."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from core.identity import ChannelKey


def lock_key(name: str) -> int:
    """A stable signed 64-bit key for an advisory lock: the first 8 bytes of SHA-256 of `name`.

    The same in every process and every Python run (unlike `hash`), and PostgreSQL's bigint."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def dumps(data: Any) -> str:
    """JSON as the server is sent it: compact, and not escaped to ASCII."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass(eq=False)
class _Held:
    """A channel lock held by one task: its connection, with a transaction open on it."""

    connection: asyncpg.Connection
    task: asyncio.Task[Any] | None
    keys: set[int] = field(default_factory=set)
    active: bool = True
    failed: bool = False  # a statement failed outside a savepoint: the transaction is aborted


class PostgresConnections:
    """One asyncpg pool per process; each call takes a connection, or the held lock's."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        # Per repository: a task inside `channel_lock` of this repository uses its connection.
        self._holding: ContextVar[_Held | None] = ContextVar(
            f"general_postgres_lock_{id(self)}", default=None
        )

    async def fetch(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        async with self.connection() as connection:
            return list(await connection.fetch(sql, *params))

    def _held(self) -> _Held | None:
        """The channel lock this task holds on this repository, if any."""
        held = self._holding.get()
        if held is None or not held.active or held.task is not asyncio.current_task():
            return None  # none, or a context copied into another task or a later callback
        return held

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """The held lock's connection inside `channel_lock`, else one from the pool."""
        held = self._held()
        if held is None:
            async with self._pool.acquire() as connection:
                yield connection
            return
        try:
            yield held.connection
        except asyncpg.PostgresError:
            held.failed = True  # the server aborted the block's transaction
            raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A transaction of its own; inside `channel_lock` a savepoint in the lock's transaction,
        so that a refused save (STALE, GAME_EXISTS) undoes itself and leaves the block usable."""
        held = self._held()
        if held is None:
            async with self._pool.acquire() as connection, connection.transaction():
                yield connection
            return
        async with held.connection.transaction():
            yield held.connection

    @asynccontextmanager
    async def channel_lock(self, channel: ChannelKey | str) -> AsyncIterator[None]:
        """Serialise work on one channel across processes: hold the channel's advisory lock.

        Takes a connection from the pool, opens a transaction on it and waits in
        `pg_advisory_xact_lock(lock_key(str(channel)))` until no other session (another process,
        or another repository object) holds the same channel; the lock is released when the
        transaction ends, at the end of the block, or by the server when the holder's
        connection dies. Different channels do not wait for each other.

        Inside the block, this repository's methods called from the same task run on that
        connection, in that transaction (a ContextVar carries it); each save is a savepoint of
        its own, so a refused save undoes only itself. The block's writes are committed when
        it ends, also when it ends with an exception (each of them was whole when it returned,
        as with SQLite); they are visible to other connections only from then on. Should a
        statement have failed outside a savepoint (the server then aborts the transaction),
        everything is rolled back and, if the block itself raised nothing, RuntimeError says so.

        Tasks started inside the block, and callbacks scheduled from it, do not share the lock
        or its connection: they use the pool (a nested `channel_lock` of the same channel in
        such a task would wait for this block). A nested `channel_lock` in the same task reuses
        the connection; a different channel's lock is then also held until the outer block ends.

        Keep the per-process asyncio lock outside this one, so that one process waits for a
        channel on one pooled connection, not on one per waiting action.
        """
        key = lock_key(str(channel))
        held = self._held()
        if held is not None:  # nested in the same task: the transaction is already ours
            if key not in held.keys:
                try:
                    await held.connection.execute("SELECT pg_advisory_xact_lock($1)", key)
                except asyncpg.PostgresError:
                    held.failed = True
                    raise
                held.keys.add(key)
            yield
            return
        async with self._pool.acquire() as connection:
            transaction = connection.transaction()
            await transaction.start()
            try:
                await connection.execute("SELECT pg_advisory_xact_lock($1)", key)
            except BaseException:
                await _quietly(transaction.rollback)
                raise
            held = _Held(connection, asyncio.current_task(), {key})
            token = self._holding.set(held)
            try:
                yield
            except BaseException:
                held.active = False
                self._holding.reset(token)
                if held.failed or not await _quietly(transaction.commit):
                    await _quietly(transaction.rollback)
                raise
            held.active = False
            self._holding.reset(token)
            if held.failed:
                await transaction.rollback()
                raise RuntimeError(
                    f"a statement failed inside the lock of {channel}; its writes were rolled back"
                )
            await transaction.commit()


async def _quietly(step: Callable[[], Awaitable[Any]]) -> bool:
    """A commit or rollback on the way out of a failing block; False if it failed too (the
    pool resets or discards the connection when it comes back)."""
    try:
        await step()
    except Exception:
        return False
    return True
