"""The core's GameRepository on one SQLite file: WAL, one writer transaction at a time."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

import aiosqlite
import orjson

from adapters.sqlite.files import FileWatch, ProcessLock
from adapters.sqlite.forget import SqliteForget
from adapters.sqlite.ratings import SqliteRatings
from adapters.sqlite.saves import SAVE, Ends, dumps, group_ends, read_log, save_row
from adapters.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from adapters.sqlite.writer import GroupWriter, Verdict
from core.chat_settings import ChatSettings
from core.errors import ErrorCode, GameError, StorageError
from core.events import Event, event_from_dict
from core.game import Game, Phase
from core.identity import ChannelKey
from core.invariants import check_row
from core.ports import read_snapshot

T = TypeVar("T")
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
RECENT = 4096  # chats' settings and games' boards kept in memory, the most recently used
LOGS_KEPT = 64  # logs of games just ended, read with their last save, kept until first asked for
# The phase of a game set aside because its snapshot cannot be read (see _readable).
QUARANTINED = "quarantined"
# A game that takes its channel: neither finished nor set aside (the unique index's condition).
ACTIVE = "phase NOT IN ('finished', 'quarantined')"
# A game's row as the reads take it: the snapshot, and the columns it must agree with.
GAME_ROW = "SELECT id, channel, phase, version, snapshot FROM games"


class Recent(Generic[T]):
    """A bounded map that forgets the least recently used entry first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[str, T] = OrderedDict()

    def get(self, key: str) -> T | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: str, item: T) -> T:
        self._items[key] = item
        self._items.move_to_end(key)
        if len(self._items) > self._size:
            self._items.popitem(last=False)
        return item

    def drop(self, key: str) -> None:
        self._items.pop(key, None)

    def take(self, key: str) -> T | None:
        return self._items.pop(key, None)


class SqliteRepository(SqliteRatings, SqliteForget):
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
    any reason drops the copy."""

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
        self._active: dict[str, Game] = {}
        # Read on every press: the recently used chats' settings and boards, written through.
        self._settings: Recent[ChatSettings] = Recent(RECENT)
        self._boards: Recent[str] = Recent(RECENT)
        self._rating = asyncio.Lock()
        self._catching_up: asyncio.Task[None] | None = None
        self._rating_later: set[asyncio.Task[None]] = set()
        self._rated: Recent[bool] = Recent(RECENT)  # rated for a saver still to look
        self._logs: Recent[str] = Recent(LOGS_KEPT)  # as adapters.sqlite.saves.LOG read them
        # Every save (and each result's accuracy) goes through the one writer, which commits
        # those that arrive together in one transaction (see adapters.sqlite.writer), once it
        # has seen the file is still at its path; the games recorded in a group are rated and
        # their logs read there too (adapters.sqlite.saves.group_ends).
        self._writer: GroupWriter[Ends] = GroupWriter(connection, group_ends, self._writable)

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
            repository._catching_up = asyncio.create_task(repository._rate_recorded())
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
        rating = [*self._rating_later, *([self._catching_up] if self._catching_up else [])]
        for task in rating:  # each game is rated in one statement: safe to stop
            task.cancel()
        await asyncio.gather(*rating, return_exceptions=True)
        if self._checkpoints is not None:
            self._checkpoints.cancel()
            await asyncio.gather(self._checkpoints, return_exceptions=True)
        try:
            await self._db.close()
        finally:
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def channel_lock(self, channel: ChannelKey) -> contextlib.nullcontext[None]:
        """One process owns a SQLite file, and the service already locks each channel: nothing
        to lock (one shared no-op, not a new context at every action)."""
        return _UNLOCKED

    async def claim_deadline(self, game_id: str, owner: str, lease_seconds: float) -> bool:
        """The only process holds every deadline."""
        return True

    async def release_deadline(self, game_id: str, owner: str) -> None:
        """Nothing to release: see claim_deadline."""

    async def active_game(self, channel: ChannelKey) -> Game | None:
        key = str(channel)
        game = self._active.get(key)
        if game is None:
            game = await self._one_game(
                f"{GAME_ROW} WHERE channel = ? AND {ACTIVE}",
                (key,),
            )
            if game is not None:
                self._active.setdefault(key, game)
        return game

    async def active_games(self, platform: str) -> list[Game]:
        """Every unfinished game of a platform (to resume computer turns and timers at start-up)."""
        sql = f"{GAME_ROW} WHERE {ACTIVE} AND substr(channel, 1, ?) = ?"
        prefix = f"{platform}:"
        return await self._readable(await self._db.execute_fetchall(sql, (len(prefix), prefix)))

    async def last_finished(self, channel: ChannelKey) -> Game | None:
        """The channel's most recently finished game."""
        return await self._one_game(
            f"{GAME_ROW} WHERE channel = ?"
            " AND phase = 'finished' ORDER BY finished_at DESC LIMIT 1",
            (str(channel),),
        )

    async def get_game(self, game_id: str) -> Game | None:
        return await self._one_game(
            f"{GAME_ROW} WHERE id = ? AND phase != ?",
            (game_id, QUARANTINED),
        )

    async def _one_game(self, sql: str, params: tuple[Any, ...]) -> Game | None:
        """The first readable game the query finds: one set aside no longer matches it."""
        while rows := list(await self._db.execute_fetchall(sql, params)):
            games = await self._readable(rows[:1])
            if games:
                return games[0]
        return None

    async def _readable(self, rows: Iterable[sqlite3.Row | tuple[Any, ...]]) -> list[Game]:
        """The games of GAME_ROW rows; a snapshot that cannot be read (bad JSON, a missing or
        unknown field) or holds a game the bot cannot play (one that breaks core.invariants,
        or not its row's) is quarantined and left out, so that one bad row stops neither the
        start-up nor the other tables."""
        games = []
        for game_id, channel, phase, version, snapshot in rows:
            try:
                game = read_snapshot(orjson.loads(snapshot))
                check_row(game, game_id, channel, phase, version)
                games.append(game)
            except Exception as error:
                await self._quarantine(game_id, phase, version, error)
        return games

    async def _quarantine(self, game_id: str, phase: str, version: int, error: Exception) -> None:
        """Set the row aside (kept for inspection, never deleted) and log it once."""
        reason = f"{type(error).__name__}: {error}"
        sql = (
            "UPDATE games SET quarantined_from = phase, phase = ?, quarantine_reason = ?,"
            " updated_at = ? WHERE id = ? AND phase = ? AND version = ? RETURNING channel"
        )
        rows = list(
            await self._db.execute_fetchall(
                sql, (QUARANTINED, reason, time.time(), game_id, phase, version)
            )
        )
        if rows:
            self._active.pop(str(rows[0][0]), None)
            log.error(
                "game %s in %s cannot be read and was quarantined (%s phase kept in the"
                " database): %s",
                game_id,
                rows[0][0],
                phase,
                reason,
            )

    async def quarantined(self, channel: ChannelKey) -> str | None:
        sql = (
            "SELECT id FROM games AS q WHERE channel = ? AND phase = ?"
            " AND quarantined_from != 'finished' AND NOT EXISTS (SELECT 1 FROM games AS n"
            " WHERE n.channel = q.channel AND n.phase != ? AND n.created_at >= q.updated_at)"
            " ORDER BY updated_at DESC LIMIT 1"
        )
        rows = list(await self._db.execute_fetchall(sql, (str(channel), QUARANTINED, QUARANTINED)))
        return str(rows[0][0]) if rows else None

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> None:
        """One INSERT into chat_moves (schema 5): one statement, so one transaction."""
        ChannelKey(platform, old_chat), ChannelKey(platform, new_chat)  # refuses a ':' in either
        old_prefix, new_prefix = f"{platform}:{old_chat}:", f"{platform}:{new_chat}:"
        moving = await self._db.execute_fetchall(
            "SELECT id FROM games WHERE substr(channel, 1, ?) = ?", (len(old_prefix), old_prefix)
        )
        self._writable()
        try:
            await self._db.execute_fetchall(
                "INSERT INTO chat_moves (old_prefix, new_prefix, old_key, new_key, old_chat,"
                " new_chat) VALUES (?, ?, ?, ?, ?, ?)",
                (old_prefix, new_prefix, old_prefix[:-1], new_prefix[:-1], old_chat, new_chat),
            )
        finally:  # the copies of either chat are read again from the file
            for key in [key for key in self._active if key.startswith((old_prefix, new_prefix))]:
                del self._active[key]
            for (game_id,) in moving:
                self._boards.drop(str(game_id))
            self._settings.drop(old_prefix[:-1])
            self._settings.drop(new_prefix[:-1])

    async def events(self, game_id: str) -> list[Event]:
        """The game's whole log in order; a game can be replayed from it. A game just recorded
        has it from its last save's group (its review asks at once): no trip."""
        log = self._logs.take(game_id)
        if log is not None:
            return read_log(log)
        sql = "SELECT data FROM events WHERE game_id = ? ORDER BY seq"
        rows = await self._db.execute_fetchall(sql, (game_id,))
        return [event_from_dict(orjson.loads(row[0])) for row in rows]

    async def board(self, game_id: str) -> str | None:
        """The front end's reference to the message that shows this game's board, if any."""
        ref = self._boards.get(game_id)
        if ref is None:
            sql = "SELECT ref FROM boards WHERE game_id = ?"
            rows = list(await self._db.execute_fetchall(sql, (game_id,)))
            if not rows:
                return None
            ref = self._boards.put(game_id, str(rows[0][0]))
        return ref

    async def set_board(self, game_id: str, ref: str) -> None:
        sql = "INSERT OR REPLACE INTO boards (game_id, ref) VALUES (?, ?)"
        self._writable()
        self._boards.drop(game_id)  # until the file has it (a failed write must not linger)
        await self._db.execute_fetchall(sql, (game_id, ref))
        self._boards.put(game_id, ref)

    async def claim_board(self, game_id: str, expected: str, ref: str) -> bool:
        sql = "UPDATE boards SET ref = ? WHERE game_id = ? AND ref = ? RETURNING game_id"
        self._writable()
        self._boards.drop(game_id)  # read again from the file, whoever won
        claimed = bool(list(await self._db.execute_fetchall(sql, (ref, game_id, expected))))
        if claimed:
            self._boards.put(game_id, ref)
        return claimed

    async def chat_settings(self, platform: str, chat: str) -> ChatSettings:
        """A chat's settings; the defaults where it never changed any."""
        key = f"{platform}:{chat}"
        settings = self._settings.get(key)
        if settings is None:
            sql = "SELECT data FROM chat_settings WHERE chat = ?"
            rows = list(await self._db.execute_fetchall(sql, (key,)))
            found = ChatSettings.from_dict(orjson.loads(rows[0][0])) if rows else ChatSettings()
            settings = self._settings.put(key, found)
        return settings

    async def save_chat_settings(self, platform: str, chat: str, settings: ChatSettings) -> None:
        sql = "INSERT OR REPLACE INTO chat_settings (chat, data, updated_at) VALUES (?, ?, ?)"
        key = f"{platform}:{chat}"
        self._writable()
        self._settings.drop(key)
        await self._db.execute_fetchall(sql, (key, dumps(settings.to_dict()), time.time()))
        self._settings.put(key, settings)

    async def results(self, game_id: str) -> list[dict[str, Any]]:
        return await self._rows("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        """Queue the save for the writer and wait until its group is committed (or the save
        refused: GameError STALE, GAME_EXISTS). Once called, the save is the writer's: a
        cancellation is raised only after the verdict. A recorded game is rated before this
        returns (the games before it too, in their order): by its group, or else here."""
        finished = game.phase is Phase.FINISHED
        row = save_row(game, events, previous_version)
        key = str(game.channel)
        recorded = row[-1] is not None
        rated_by_group = False

        def done(error: BaseException | None, ends: Ends | None) -> None:
            """Run by the writer once the group is committed or refused, waited for or not:
            the copy in memory follows the file (a save whose fate is unknown drops it)."""
            nonlocal rated_by_group
            if error is not None or finished:
                self._active.pop(key, None)
            else:
                self._active[key] = game
            if error is None and recorded and ends is not None:
                rated_by_group = game.id in ends.rated
                log = ends.logs.get(game.id)
                if log is not None:
                    self._logs.put(game.id, log)

        committed = self._writer.submit(SAVE, row, done)
        try:
            await committed  # a cancellation meanwhile is raised once the verdict is in
        except aiosqlite.IntegrityError as error:
            if str(error) == "stale":
                raise GameError(ErrorCode.STALE) from error
            if previous_version is None:
                raise GameError(ErrorCode.GAME_EXISTS) from error
            raise
        except asyncio.CancelledError:
            if recorded and _committed(committed):
                self._rate_later()  # recorded all the same: rated without this caller
            raise
        if recorded and not rated_by_group:
            await self._rate_recorded(game.id)

    async def set_accuracy(self, game_id: str, accuracy: dict[str, float]) -> None:
        """Written with the next group of saves: no trip nor commit of its own."""
        writes = [
            self._writer.submit(ACCURACY, (value, game_id, player_id), _nothing)
            for player_id, value in accuracy.items()
        ]
        await asyncio.gather(*writes)

    def _rate_later(self) -> None:
        """Rate in the background what a cancelled save recorded (close() stops it: a game
        not yet rated waits for the next, or the next start's catching up)."""
        task = asyncio.create_task(self._rate_recorded())
        self._rating_later.add(task)
        task.add_done_callback(self._rating_later.discard)

    async def _rate_recorded(self, game_id: str | None = None) -> None:
        """Rate the games recorded and not yet rated, in order, up to and including `game_id`
        (every one where None); should that fail, they wait for the next game's end."""
        try:
            if game_id is None:
                await self.rate_games()
            else:
                await self._rate_through(game_id)
        except (sqlite3.Error, StorageError):
            log.exception("rating the recorded games failed; they wait for the next")

    async def _rate_through(self, game_id: str) -> None:
        """Rate the waiting games in their order (as rate_games does) up to and including
        `game_id`, and no further: those recorded after it are rated by their own savers, and
        those before it that this rated are remembered, so that their savers, waiting for the
        lock meanwhile, find them rated without a trip to the database. (Rating every game
        waiting let one saver go on rating the games recorded after its own, without bound,
        while the others waited for the lock.)"""
        async with self._rating:
            if self._rated.take(game_id):
                return
            while rated := await self._rate_waiting(game_id):
                for waiting in rated:
                    if waiting != game_id:
                        self._rated.put(waiting, True)
                if rated[-1] == game_id:
                    return


def _committed(future: Verdict) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


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


ACCURACY = "UPDATE results SET accuracy = ? WHERE game_id = ? AND player_id = ?"


def _nothing(error: BaseException | None, ends: Ends | None) -> None:
    """An accuracy's write changes nothing kept in memory."""
