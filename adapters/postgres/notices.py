"""Saves heard across processes (LISTEN/NOTIFY): each save announces its channel, game and
version in its own transaction, so the announcement is delivered once it commits and never for
a save that failed; every process listens on one connection of its own and hands what the
others saved in the channels watched there to its service, which offers it to its watchers as
it offers its own outcomes (a channel nobody there watches costs its notice only).

PostgreSQL delivers a channel's notifications in commit order, and one task here reads each in
turn, so a watcher hears a table's saves in the order they were made. What is heard is read
back from the database: the save's events, and the game as it is stored when it is read (never
older than the save, newer where the table moved on meanwhile)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable

import asyncpg

from adapters.postgres.connections import PostgresConnections
from core.events import event_from_dict
from core.ports import Heard, Wanted
from core.table import Game

log = logging.getLogger(__name__)
CHANNEL = "general_saves"
ReadGame = Callable[[str], Awaitable[Game | None]]


class PostgresNotices:
    """Announcing this process's saves, and hearing the others'."""

    def __init__(self, pool: asyncpg.Pool, connections: PostgresConnections) -> None:
        self._pool = pool
        self._connections = connections
        self._origin = secrets.token_hex(8)  # this process: its own saves are not heard back
        self._listener: asyncpg.pool.PoolConnectionProxy | None = None
        self._queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None
        self._wanted: Wanted = lambda channel: False

    async def announce(
        self, connection: asyncpg.Connection, channel: str, game_id: str, version: int
    ) -> None:
        """In the save's transaction."""
        await connection.execute(
            "SELECT pg_notify($1, $2)", CHANNEL, f"{self._origin} {game_id} {version} {channel}"
        )

    async def listen(self, heard: Heard, wanted: Wanted, read_game: ReadGame) -> None:
        """Hear the other processes' saves from now on, those of the channels `wanted` says
        someone here watches (the others cost nothing but their notice); once, later calls
        change nothing."""
        if self._listener is not None:
            return
        self._wanted = wanted
        self._listener = await self._pool.acquire()
        await self._listener.add_listener(CHANNEL, self._notified)
        self._reader = asyncio.create_task(self._read(heard, read_game), name="saves heard")

    def _notified(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        try:
            origin, game_id, version, channel = payload.split(" ", 3)
            saved = int(version)
        except ValueError:
            return  # not one of ours (another program may use the channel's name)
        if origin != self._origin and self._wanted(channel):
            self._queue.put_nowait((game_id, saved))

    async def _read(self, heard: Heard, read_game: ReadGame) -> None:
        while True:
            game_id, version = await self._queue.get()
            try:
                game = await read_game(game_id)
                rows = await self._connections.fetch(
                    "SELECT data FROM events WHERE game_id = $1 AND version = $2 ORDER BY seq",
                    game_id,
                    version,
                )
                if game is not None:
                    heard(game, tuple(event_from_dict(json.loads(row[0])) for row in rows))
            except Exception:
                log.warning("reading a save heard from another process failed", exc_info=True)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._listener is not None:
            listener, self._listener = self._listener, None
            with contextlib.suppress(Exception):
                await listener.remove_listener(CHANNEL, self._notified)
            await self._pool.release(listener)
