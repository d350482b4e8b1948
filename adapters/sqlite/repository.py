"""The core's GameRepository on one SQLite file: WAL, one writer transaction at a time."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from adapters.sqlite.boards import SqliteBoards
from adapters.sqlite.files import FileWatch, ProcessLock
from adapters.sqlite.forget import SqliteForget
from adapters.sqlite.games import SqliteGames
from adapters.sqlite.moves import SqliteMoves
from adapters.sqlite.ratings import SqliteRatings
from adapters.sqlite.recent import LOGS_KEPT, Recent
from adapters.sqlite.records import SqliteRecords
from adapters.sqlite.saves import Ends, SqliteSaves, group_ends
from adapters.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from adapters.sqlite.seasons import SqliteSeasons
from adapters.sqlite.settings import SqliteSettings
from adapters.sqlite.subscriptions import SqliteSubscriptions
from adapters.sqlite.tournaments import SqliteTournaments
from adapters.sqlite.writer import GroupWriter
from adapters.storage_parts import RecordsByParts, SeasonsByParts, SubscriptionsByParts
from core.chat_settings import ChatSettings
from core.errors import StorageError
from core.events import Event
from core.forget import Forgotten
from core.identity import ChannelKey, PlayerRef
from core.ports import EventRecord, Heard, Wanted
from core.records import Weighed
from core.table import Game

log = logging.getLogger(__name__)


def _create_private(path: str | Path) -> None:
    """A new database file is readable by its owner only; SQLite gives -wal and -shm the same."""
    if str(path) != ":memory:" and not Path(path).exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


CHECKPOINT_EVERY = 1.0  # seconds between checkpoints of the WAL (see _checkpoint)
# Pages in the WAL past which a save checkpoints it itself: only if the checkpoints fall behind.
WAL_BACKSTOP = 20_000
# What channel_lock gives: a process owns its SQLite file, so there is nothing to lock.
_UNLOCKED: contextlib.nullcontext[None] = contextlib.nullcontext()


class SqliteRepository(RecordsByParts, SubscriptionsByParts, SeasonsByParts):
    """One connection per process. Every operation is a single statement (a save is one INSERT
    into the game_saves view, see schema 4), so each is its own transaction, no lock is held
    across awaits and aiosqlite's queue keeps its thread busy while the event loop goes on.
    Saves go through one writer (adapters.sqlite.writer) that commits those arriving together
    in one transaction, each its own savepoint, each answered after the commit.
    Statements go through execute_fetchall or a closed cursor: a sqlite3 cursor must not be
    dropped in the loop's thread, where its reset could meet the same cached statement running
    in the database's thread.

    The active games are kept in memory as they are saved (and the recent chats' settings and
    boards): the process owns the file, so the copy is what is stored, and reading it costs no
    trip to the database. The stored version check stays the authority; a save that fails for
    any reason drops the copy.

    The work is done by parts, each handed the connection and the copies it reads or keeps
    up to date; this class opens and closes them, and answers the port by delegating."""

    _records: SqliteRecords
    _ratings: SqliteRatings

    shared = False  # one process owns the file: no other process makes games it must watch

    def __init__(
        self,
        connection: aiosqlite.Connection,
        lock: ProcessLock | None = None,
        watch: FileWatch | None = None,
    ) -> None:
        self._db = connection
        self._lock = lock
        self._watch = watch
        self._checkpoints: asyncio.Task[None] | None = None
        # The active games by channel, as saved: the saves keep it, the reads use it.
        self._active: dict[str, Game] = {}
        logs: Recent[str] = Recent(LOGS_KEPT)  # as adapters.sqlite.saves.LOG read them
        # Every save (and each result's accuracy) goes through the one writer, which commits
        # those that arrive together in one transaction (see adapters.sqlite.writer), once it
        # has seen the file is still at its path; the games recorded in a group are rated and
        # their logs read there too (adapters.sqlite.saves.group_ends).
        self._writer: GroupWriter[Ends] = GroupWriter(connection, group_ends, self._writable)
        self._records = SqliteRecords(connection)
        self._ratings = SqliteRatings(connection, self._writable)
        self._games = SqliteGames(connection, self._active, logs)
        self._saves = SqliteSaves(self._writer, self._active, logs, self._ratings)
        self._boards = SqliteBoards(connection, self._writable)
        self._settings = SqliteSettings(connection, self._writable)
        self._subscriptions = SqliteSubscriptions(connection, self._writable)
        self._seasons = SqliteSeasons(connection, self._writable)
        self._tournaments = SqliteTournaments(connection, self._writable)
        self._moves = SqliteMoves(
            connection, self._writable, self._active, self._boards, self._settings
        )
        self._forget = SqliteForget(connection, self._writable, self._active, logs, self._moves)

    @classmethod
    async def open(
        cls, path: str | Path, checkpoint_every: float = CHECKPOINT_EVERY
    ) -> SqliteRepository:
        """Open (creating and migrating) the file, first taking its process lock: StorageError
        DATABASE_BUSY at once while another process has it."""
        in_memory = str(path) == ":memory:"
        lock = None if in_memory else ProcessLock.take(Path(path))
        connection: aiosqlite.Connection | None = None
        try:
            _create_private(path)
            connection = await aiosqlite.connect(str(path), isolation_level=None)
            await connection.execute_fetchall("PRAGMA journal_mode=WAL")
            await connection.execute_fetchall("PRAGMA synchronous=NORMAL")
            await connection.execute_fetchall("PRAGMA foreign_keys=ON")
            await connection.execute_fetchall("PRAGMA busy_timeout=5000")
            await connection.execute_fetchall(f"PRAGMA wal_autocheckpoint={WAL_BACKSTOP}")
            watch = None if in_memory else FileWatch(Path(path))
            repository = cls(connection, lock, watch)
            await repository._migrate()
            # Games recorded before ratings existed (or whose rating failed) are rated meanwhile.
            repository._ratings.catch_up()
            if watch is not None:
                checkpointer = await aiosqlite.connect(str(path), isolation_level=None)
                repository._checkpoints = asyncio.create_task(
                    _checkpoint(checkpointer, checkpoint_every, watch)
                )
        except BaseException:
            try:
                if connection is not None:
                    await connection.close()
            finally:
                if lock is not None:
                    lock.release()
            raise
        return repository

    async def _migrate(self) -> None:
        rows = list(await self._db.execute_fetchall("PRAGMA user_version"))
        current = int(rows[0][0])
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
        await self._writer.close()  # the saves queued are committed first
        await self._ratings.close()
        if self._checkpoints is not None:
            self._checkpoints.cancel()
            await asyncio.gather(self._checkpoints, return_exceptions=True)
        try:
            await self._db.close()
        finally:
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def _writable(self) -> None:
        """Refuse a write (StorageError DATABASE_GONE) once the file is no longer at its path."""
        if self._watch is not None:
            self._watch.check()

    async def listen(self, heard: Heard, wanted: Wanted) -> None:
        """One process owns a SQLite file: no other saves anything to hear."""

    def channel_lock(self, channel: ChannelKey) -> contextlib.nullcontext[None]:
        """One process owns a SQLite file, and the service already locks each channel: nothing
        to lock (one shared no-op, not a new context at every action)."""
        return _UNLOCKED

    async def claim_deadline(self, game_id: str, owner: str, lease_seconds: float) -> bool:
        """The only process holds every deadline."""
        return True

    async def release_deadline(self, game_id: str, owner: str) -> None:
        """Nothing to release: see claim_deadline."""

    # ------------------------------------------------------------------ games

    async def active_game(self, channel: ChannelKey) -> Game | None:
        return await self._games.active_game(channel)

    async def active_games(self, platform: str) -> list[Game]:
        return await self._games.active_games(platform)

    async def last_finished(self, channel: ChannelKey) -> Game | None:
        return await self._games.last_finished(channel)

    async def get_game(self, game_id: str) -> Game | None:
        return await self._games.get_game(game_id)

    async def quarantined(self, channel: ChannelKey) -> str | None:
        return await self._games.quarantined(channel)

    async def events(self, game_id: str) -> list[Event]:
        return await self._games.events(game_id)

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        await self._saves.save(game, events, previous_version)

    async def set_weighed(self, game_id: str, weighed: dict[str, Weighed]) -> None:
        await self._saves.set_weighed(game_id, weighed)

    async def results(self, game_id: str) -> list[dict[str, Any]]:
        return await self._records.results(game_id)

    # ------------------------------------------------------------------ chats and people

    async def board(self, game_id: str) -> str | None:
        return await self._boards.board(game_id)

    async def set_board(self, game_id: str, ref: str) -> None:
        await self._boards.set_board(game_id, ref)

    async def claim_board(self, game_id: str, expected: str, ref: str) -> bool:
        return await self._boards.claim_board(game_id, expected, ref)

    async def chat_settings(self, platform: str, chat: str) -> ChatSettings:
        return await self._settings.chat_settings(platform, chat)

    async def save_chat_settings(self, platform: str, chat: str, settings: ChatSettings) -> None:
        await self._settings.save_chat_settings(platform, chat, settings)

    async def save_tournament(self, record: EventRecord, previous_version: int | None) -> None:
        await self._tournaments.save_tournament(record, previous_version)

    async def tournament(self, event_id: str) -> EventRecord | None:
        return await self._tournaments.tournament(event_id)

    async def open_tournaments(self, platform: str, chat: str | None = None) -> list[EventRecord]:
        return await self._tournaments.open_tournaments(platform, chat)

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> None:
        await self._moves.move_chat(platform, old_chat, new_chat)

    async def forget_player(self, platform: str, player_id: str, alias: PlayerRef) -> Forgotten:
        return await self._forget.forget_player(platform, player_id, alias)


async def _checkpoint(connection: aiosqlite.Connection, every: float, watch: FileWatch) -> None:
    """Copy the WAL back into the database file every `every` seconds, from a connection (so a
    thread) of its own. Left to SQLite, the save that crosses the page threshold does it, and the
    checkpoint's fsync holds up every press queued behind that save. PASSIVE: it never waits
    for, nor blocks, the saves. Each round also looks whether the file is still at its path, so
    that its loss is logged within seconds, saves or not."""
    try:
        while True:
            await asyncio.sleep(every)
            with contextlib.suppress(StorageError):
                watch.check()
            try:
                await connection.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as error:  # the next one tries again; the backstop remains
                log.warning("checkpoint failed: %s", error)
    finally:
        await connection.close()
