"""The core's GameRepository on one SQLite file: WAL, one writer transaction at a time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from adapters.sqlite.records import SqliteRecords
from adapters.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from core.chat_settings import ChatSettings
from core.errors import ErrorCode, GameError
from core.events import EndReason, Event, event_from_dict, event_to_dict
from core.game import Game, Phase, game_from_dict, game_to_dict
from core.identity import ChannelKey

RECORDED_ENDS = (EndReason.COMPLETED, EndReason.BIG_GENERAL)


def _create_private(path: str | Path) -> None:
    """A new database file is readable by its owner only; SQLite gives -wal and -shm the same."""
    if str(path) != ":memory:" and not Path(path).exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class SqliteRepository(SqliteRecords):
    """One connection per process; a lock keeps each transaction whole across coroutines."""

    shared = False  # one process owns the file: no other process makes games it must watch

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteRepository:
        _create_private(path)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        repository = cls(connection)
        try:
            await repository._migrate()
        except BaseException:
            await connection.close()
            raise
        return repository

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        current = int(row[0]) if row else 0
        if current > SCHEMA_VERSION:
            raise RuntimeError(
                f"database schema {current} is newer than this bot ({SCHEMA_VERSION})"
            )
        for number in range(current, SCHEMA_VERSION):
            # Each step and its version bump in one transaction: a crash leaves none of it.
            script = f"BEGIN;\n{MIGRATIONS[number]}\nPRAGMA user_version={number + 1};\nCOMMIT;"
            try:
                await self._db.executescript(script)
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise

    async def close(self) -> None:
        await self._db.close()

    @contextlib.asynccontextmanager
    async def channel_lock(self, channel: ChannelKey) -> AsyncIterator[None]:
        """One process owns a SQLite file, and the service already locks each channel."""
        yield

    async def claim_deadline(self, game_id: str, owner: str, lease_seconds: float) -> bool:
        """The only process holds every deadline."""
        return True

    async def release_deadline(self, game_id: str, owner: str) -> None:
        """Nothing to release: see claim_deadline."""

    async def active_game(self, channel: ChannelKey) -> Game | None:
        return await self._one_game(
            "SELECT snapshot FROM games WHERE channel = ? AND phase != 'finished'", (str(channel),)
        )

    async def active_games(self, platform: str) -> list[Game]:
        """Every unfinished game of a platform (to resume computer turns and timers at start-up)."""
        sql = "SELECT snapshot FROM games WHERE phase != 'finished' AND substr(channel, 1, ?) = ?"
        prefix = f"{platform}:"
        async with self._lock, self._db.execute(sql, (len(prefix), prefix)) as cursor:
            rows = await cursor.fetchall()
        return [game_from_dict(json.loads(row[0])) for row in rows]

    async def last_finished(self, channel: ChannelKey) -> Game | None:
        """The channel's most recently finished game."""
        return await self._one_game(
            "SELECT snapshot FROM games WHERE channel = ? AND phase = 'finished'"
            " ORDER BY finished_at DESC LIMIT 1",
            (str(channel),),
        )

    async def get_game(self, game_id: str) -> Game | None:
        return await self._one_game("SELECT snapshot FROM games WHERE id = ?", (game_id,))

    async def _one_game(self, sql: str, params: tuple[Any, ...]) -> Game | None:
        async with self._lock, self._db.execute(sql, params) as cursor:
            row = await cursor.fetchone()
        return None if row is None else game_from_dict(json.loads(row[0]))

    async def events(self, game_id: str) -> list[Event]:
        """The game's whole log in order; a game can be replayed from it."""
        sql = "SELECT data FROM events WHERE game_id = ? ORDER BY seq"
        async with self._lock, self._db.execute(sql, (game_id,)) as cursor:
            rows = await cursor.fetchall()
        return [event_from_dict(json.loads(row[0])) for row in rows]

    async def board(self, game_id: str) -> str | None:
        """The front end's reference to the message that shows this game's board, if any."""
        sql = "SELECT ref FROM boards WHERE game_id = ?"
        async with self._lock, self._db.execute(sql, (game_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def set_board(self, game_id: str, ref: str) -> None:
        sql = "INSERT OR REPLACE INTO boards (game_id, ref) VALUES (?, ?)"
        async with self._lock:
            await self._db.execute(sql, (game_id, ref))

    async def chat_settings(self, platform: str, chat: str) -> ChatSettings:
        """A chat's settings; the defaults where it never changed any."""
        sql = "SELECT data FROM chat_settings WHERE chat = ?"
        async with self._lock, self._db.execute(sql, (f"{platform}:{chat}",)) as cursor:
            row = await cursor.fetchone()
        return ChatSettings() if row is None else ChatSettings.from_dict(json.loads(row[0]))

    async def save_chat_settings(self, platform: str, chat: str, settings: ChatSettings) -> None:
        sql = "INSERT OR REPLACE INTO chat_settings (chat, data, updated_at) VALUES (?, ?, ?)"
        data = _dumps(settings.to_dict())
        async with self._lock:
            await self._db.execute(sql, (f"{platform}:{chat}", data, time.time()))

    async def results(self, game_id: str) -> list[dict[str, Any]]:
        sql = "SELECT * FROM results WHERE game_id = ? ORDER BY seat"
        async with self._lock:
            self._db.row_factory = aiosqlite.Row
            try:
                async with self._db.execute(sql, (game_id,)) as cursor:
                    rows = await cursor.fetchall()
            finally:
                self._db.row_factory = None
        return [dict(row) for row in rows]

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        now = time.time()
        snapshot = _dumps(game_to_dict(game))
        finished_at = now if game.phase is Phase.FINISHED else None
        reason = game.end_reason.value if game.end_reason else None
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                if previous_version is None:
                    try:
                        await self._db.execute(
                            "INSERT INTO games (id, channel, phase, version, snapshot, created_at,"
                            " updated_at, finished_at, end_reason) VALUES (?,?,?,?,?,?,?,?,?)",
                            (game.id, str(game.channel), game.phase.value, game.version,
                             snapshot, now, now, finished_at, reason),
                        )  # fmt: skip
                    except aiosqlite.IntegrityError as error:
                        raise GameError(ErrorCode.GAME_EXISTS) from error
                    seq = 0
                else:
                    cursor = await self._db.execute(
                        "UPDATE games SET phase = ?, version = ?, snapshot = ?, updated_at = ?,"
                        " finished_at = ?, end_reason = ? WHERE id = ? AND version = ?",
                        (game.phase.value, game.version, snapshot, now, finished_at, reason,
                         game.id, previous_version),
                    )  # fmt: skip
                    if cursor.rowcount != 1:
                        raise GameError(ErrorCode.STALE)
                    async with self._db.execute(
                        "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game.id,)
                    ) as seq_cursor:
                        row = await seq_cursor.fetchone()
                    seq = int(row[0]) if row else 0
                await self._db.executemany(
                    "INSERT INTO events (game_id, seq, version, kind, data, at)"
                    " VALUES (?,?,?,?,?,?)",
                    [
                        (game.id, seq + n, game.version, e.kind, _dumps(event_to_dict(e)), now)
                        for n, e in enumerate(events, start=1)
                    ],
                )
                if game.end_reason in RECORDED_ENDS:
                    await self._record_results(game, now)
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

    async def _record_results(self, game: Game, now: float) -> None:
        big_general = {game.winners[0]} if game.end_reason is EndReason.BIG_GENERAL else set()
        await self._db.executemany(
            "INSERT INTO results (game_id, player_id, platform, channel, name, seat, total, boxes,"
            " winner, left_table, big_general, end_reason, finished_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    game.id,
                    seat.player.id,
                    game.channel.platform,
                    str(game.channel),
                    seat.player.name,
                    index,
                    seat.total,
                    _dumps(list(seat.scores)),
                    seat.player.id in game.winners,
                    not seat.active,
                    seat.player.id in big_general,
                    game.end_reason.value if game.end_reason else "",
                    now,
                )
                for index, seat in enumerate(game.seats)
            ],
        )
