"""The core's GameRepository on PostgreSQL (asyncpg): a connection pool, one transaction per save.

Several bot processes may share one database. Three things keep them correct together:

- the version check in `save` (an UPDATE … WHERE version = previous) refuses a stale action
  whichever process sent it, and the partial unique index on unfinished games refuses a second
  table in a channel;
- `channel_lock(channel)` serialises what processes do to one channel (an advisory lock held in
  a transaction), as the service's in-process lock does within one process;
- `claim_deadline` / `release_deadline` lease a game's turn timer to one process at a time, so a
  deadline fires once, and fires even when the process that held it has died.

Snapshots and events are stored as explicit JSON (jsonb) through `game_to_dict` / `event_to_dict`;
nothing is pickled, and every value goes to the server as a query parameter.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from adapters.postgres.forget import PostgresForget
from adapters.postgres.ratings import PostgresRatings
from adapters.postgres.schema import MIGRATIONS, MIGRATIONS_TABLE, SCHEMA_VERSION
from core.chat_settings import ChatSettings
from core.errors import ErrorCode, GameError
from core.events import RECORDED_ENDS, EndReason, Event, event_from_dict, event_to_dict
from core.game import Game, Phase
from core.identity import ChannelKey
from core.invariants import check_row
from core.ports import read_snapshot
from core.snapshot import game_to_dict

log = logging.getLogger(__name__)

# Pool sizes unless `open` is told otherwise: one connection per channel being acted on at once.
POOL_MIN, POOL_MAX = 1, 20


def lock_key(name: str) -> int:
    """A stable signed 64-bit key for an advisory lock: the first 8 bytes of SHA-256 of `name`.

    The same in every process and every Python run (unlike `hash`), and PostgreSQL's bigint."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


# The phase of a game set aside because its snapshot cannot be read (see _readable).
QUARANTINED = "quarantined"
# A game that takes its channel: neither finished nor set aside (the unique index's condition).
ACTIVE = "phase NOT IN ('finished', 'quarantined')"
GAME_ROW = "SELECT id, channel, phase, version, snapshot FROM games"

# Held while migrating, so that processes starting together apply each step once.
MIGRATION_LOCK = lock_key("general:migrations")


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass(eq=False)
class _Held:
    """A channel lock held by one task: its connection, with a transaction open on it."""

    connection: asyncpg.Connection
    task: asyncio.Task[Any] | None
    keys: set[int] = field(default_factory=set)
    active: bool = True
    failed: bool = False  # a statement failed outside a savepoint: the transaction is aborted


class PostgresRepository(PostgresRatings, PostgresForget):
    shared = True  # several processes: each looks now and then for games the others made
    _rating_lock = lock_key("general:ratings")  # held while rating: one game at a time

    """One asyncpg pool per process; each call takes a connection (or the held lock's)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._closed = False
        self._catching_up: asyncio.Task[None] | None = None
        # Per repository: a task inside `channel_lock` of this repository uses its connection.
        self._holding: ContextVar[_Held | None] = ContextVar(
            f"general_postgres_lock_{id(self)}", default=None
        )

    @classmethod
    async def open(cls, url: str, **pool_options: Any) -> PostgresRepository:
        """Connect to `url` (postgresql://user:password@host:port/database) and migrate.

        `pool_options` go to `asyncpg.create_pool` (min_size, max_size, server_settings such as
        {"search_path": "general"} to keep the tables in a schema of their own, …)."""
        pool_options.setdefault("min_size", POOL_MIN)
        pool_options.setdefault("max_size", max(POOL_MAX, pool_options["min_size"]))
        pool = await asyncpg.create_pool(url, **pool_options)
        repository = cls(pool)
        try:
            await repository._migrate()
        except BaseException:
            await pool.close()
            raise
        # Games recorded before ratings existed (or whose rating failed) are rated meanwhile.
        repository._catching_up = asyncio.create_task(repository._catch_up())
        return repository

    async def _migrate(self) -> None:
        """Apply the missing migrations, each with its row in general_migrations, in one
        transaction each; refuse a database that a newer bot has migrated further."""
        async with self._pool.acquire() as connection:
            while True:
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    found = await connection.fetchval("SELECT to_regclass('general_migrations')")
                    if found is None:
                        await connection.execute(MIGRATIONS_TABLE)
                    current = await connection.fetchval(
                        "SELECT COALESCE(MAX(version), 0) FROM general_migrations"
                    )
                    if current > SCHEMA_VERSION:
                        raise RuntimeError(
                            f"database schema {current} is newer than this bot ({SCHEMA_VERSION})"
                        )
                    if current == SCHEMA_VERSION:
                        return
                    await connection.execute(MIGRATIONS[current])
                    await connection.execute(
                        "INSERT INTO general_migrations (version) VALUES ($1)", current + 1
                    )

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._catching_up is not None:  # each game is rated in a transaction: safe
                self._catching_up.cancel()
                await asyncio.gather(self._catching_up, return_exceptions=True)
            await self._pool.close()

    # ------------------------------------------------------------------ connections

    def _held(self) -> _Held | None:
        """The channel lock this task holds on this repository, if any."""
        held = self._holding.get()
        if held is None or not held.active or held.task is not asyncio.current_task():
            return None  # none, or a context copied into another task or a later callback
        return held

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
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
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
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

    # ------------------------------------------------------------------ games

    async def active_game(self, channel: ChannelKey) -> Game | None:
        return await self._one_game(f"{GAME_ROW} WHERE channel = $1 AND {ACTIVE}", str(channel))

    async def active_games(self, platform: str) -> list[Game]:
        """Every unfinished game of a platform (to resume computer turns and timers at start-up)."""
        rows = await self._fetch(
            f"{GAME_ROW} WHERE {ACTIVE} AND starts_with(channel, $1) ORDER BY created_at, id",
            f"{platform}:",
        )
        return [game for row in rows if (game := await self._read(row)) is not None]

    async def last_finished(self, channel: ChannelKey) -> Game | None:
        """The channel's most recently finished game."""
        return await self._one_game(
            f"{GAME_ROW} WHERE channel = $1 AND phase = 'finished'"
            " ORDER BY finished_at DESC LIMIT 1",
            str(channel),
        )

    async def get_game(self, game_id: str) -> Game | None:
        return await self._one_game(
            f"{GAME_ROW} WHERE id = $1 AND phase <> $2", game_id, QUARANTINED
        )

    async def _one_game(self, sql: str, *params: Any) -> Game | None:
        """The first readable game the query finds: one set aside no longer matches it."""
        while True:
            async with self._connection() as connection:
                row = await connection.fetchrow(sql, *params)
            if row is None:
                return None
            game = await self._read(row)
            if game is not None:
                return game

    async def _read(self, row: asyncpg.Record) -> Game | None:
        """The game of a GAME_ROW row; a snapshot that cannot be read (a missing or unknown
        field, a bad value) or holds a game the bot cannot play (one that breaks
        core.invariants, or not its row's) is quarantined and None returned, so that one bad
        row stops neither the start-up nor the other tables."""
        try:
            game = read_snapshot(json.loads(row["snapshot"]))
            check_row(game, row["id"], row["channel"], row["phase"], row["version"])
        except Exception as error:
            await self._quarantine(row["id"], row["phase"], row["version"], error)
            return None
        return game

    async def _quarantine(self, game_id: str, phase: str, version: int, error: Exception) -> None:
        """Set the row aside (kept for inspection, never deleted); the process whose update
        took logs it, so it is logged once whichever processes read it."""
        reason = f"{type(error).__name__}: {error}"
        async with self._connection() as connection:
            channel = await connection.fetchval(
                "UPDATE games SET quarantined_from = phase, phase = $1, quarantine_reason = $2,"
                " updated_at = clock_timestamp() WHERE id = $3 AND phase = $4 AND version = $5"
                " RETURNING channel",
                QUARANTINED, reason, game_id, phase, version,
            )  # fmt: skip
        if channel is not None:
            log.error(
                "game %s in %s cannot be read and was quarantined (%s phase kept in the"
                " database): %s",
                game_id,
                channel,
                phase,
                reason,
            )

    async def quarantined(self, channel: ChannelKey) -> str | None:
        async with self._connection() as connection:
            found = await connection.fetchval(
                "SELECT id FROM games AS q WHERE channel = $1 AND phase = $2"
                " AND quarantined_from <> 'finished' AND NOT EXISTS (SELECT 1 FROM games AS n"
                " WHERE n.channel = q.channel AND n.phase <> $2 AND n.created_at >= q.updated_at)"
                " ORDER BY updated_at DESC LIMIT 1",
                str(channel),
                QUARANTINED,
            )
        return None if found is None else str(found)

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> None:
        """In one transaction; the moving games' rows are locked, so a move racing another
        process's finds nothing left to move."""
        ChannelKey(platform, old_chat), ChannelKey(platform, new_chat)  # refuses a ':' in either
        old_prefix, new_prefix = f"{platform}:{old_chat}:", f"{platform}:{new_chat}:"
        async with self._transaction() as connection:
            moving = [
                row["id"]
                for row in await connection.fetch(
                    "SELECT id FROM games AS g WHERE starts_with(channel, $1)"
                    f" AND NOT ({ACTIVE} AND EXISTS (SELECT 1 FROM games AS t"
                    " WHERE t.phase NOT IN ('finished', 'quarantined')"
                    " AND t.channel = $2 || substr(g.channel, length($1) + 1)))"
                    " FOR UPDATE",
                    old_prefix,
                    new_prefix,
                )
            ]
            boards = await connection.fetch(
                "SELECT game_id, ref FROM boards WHERE game_id = ANY($1::text[]) FOR UPDATE", moving
            )
            await connection.executemany(
                "UPDATE boards SET ref = $2 WHERE game_id = $1",
                [
                    (row["game_id"], ref)
                    for row in boards
                    if (ref := _moved_ref(row["ref"], old_chat, new_chat)) is not None
                ],
            )
            await connection.execute(
                "UPDATE games SET channel = $2 || substr(channel, length($1) + 1),"
                " snapshot = CASE WHEN jsonb_typeof(snapshot -> 'channel') = 'object'"
                " THEN jsonb_set(snapshot, '{channel,chat}', to_jsonb($3::text)) ELSE snapshot END"
                " WHERE id = ANY($4::text[])",
                old_prefix, new_prefix, new_chat, moving,
            )  # fmt: skip
            await connection.execute(
                "UPDATE results SET channel = $2 || substr(channel, length($1) + 1)"
                " WHERE starts_with(channel, $1)",
                old_prefix,
                new_prefix,
            )
            for table, key in (("ratings", "platform"), ("rating_changes", "game_id")):
                await connection.execute(  # a rating the new chat has already stays behind
                    f"UPDATE {table} AS r SET scope = $2 || substr(scope, length($1) + 1)"
                    f" WHERE starts_with(scope, $1) AND NOT EXISTS (SELECT 1 FROM {table} AS n"
                    f" WHERE n.{key} = r.{key} AND n.player_id = r.player_id"
                    " AND n.scope = $2 || substr(r.scope, length($1) + 1))",
                    old_prefix,
                    new_prefix,
                )
            await connection.execute(
                "UPDATE chat_settings SET chat = $2 WHERE chat = $1"
                " AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat = $2)",
                old_prefix[:-1],
                new_prefix[:-1],
            )

    async def events(self, game_id: str) -> list[Event]:
        """The game's whole log in order; a game can be replayed from it."""
        rows = await self._fetch("SELECT data FROM events WHERE game_id = $1 ORDER BY seq", game_id)
        return [event_from_dict(json.loads(row[0])) for row in rows]

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        """Snapshot, events and (for a completed game) results in one transaction.

        A new game (previous_version None) in a channel that has an unfinished one, or with a
        taken id, is GameError GAME_EXISTS; a stored version other than `previous_version` is
        GameError STALE. Either way nothing is written."""
        now = time.time()
        snapshot = _dumps(game_to_dict(game))
        logged = [(e.kind, _dumps(event_to_dict(e))) for e in events]  # fails before any write
        finished_at = now if game.phase is Phase.FINISHED else None
        reason = game.end_reason.value if game.end_reason else None
        async with self._transaction() as connection:
            if previous_version is None:
                try:
                    await connection.execute(
                        "INSERT INTO games (id, channel, phase, version, snapshot, created_at,"
                        " updated_at, finished_at, end_reason) VALUES ($1, $2, $3, $4, $5::jsonb,"
                        " to_timestamp($6::float8), to_timestamp($6::float8),"
                        " to_timestamp($7::float8), $8)",
                        game.id, str(game.channel), game.phase.value, game.version, snapshot,
                        now, finished_at, reason,
                    )  # fmt: skip
                except asyncpg.UniqueViolationError as error:
                    raise GameError(ErrorCode.GAME_EXISTS) from error
                seq = 0
            else:
                updated = await connection.fetchval(
                    "UPDATE games SET phase = $1, version = $2, snapshot = $3::jsonb,"
                    " updated_at = to_timestamp($4::float8),"
                    " finished_at = to_timestamp($5::float8), end_reason = $6"
                    " WHERE id = $7 AND version = $8 RETURNING true",
                    game.phase.value, game.version, snapshot, now, finished_at, reason,
                    game.id, previous_version,
                )  # fmt: skip
                if not updated:
                    raise GameError(ErrorCode.STALE)
                # The game's row is locked by the update: no other save appends meanwhile.
                seq = await connection.fetchval(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1", game.id
                )
            await connection.executemany(
                "INSERT INTO events (game_id, seq, version, kind, data, at)"
                " VALUES ($1, $2, $3, $4, $5::jsonb, to_timestamp($6::float8))",
                [
                    (game.id, seq + n, game.version, kind, data, now)
                    for n, (kind, data) in enumerate(logged, start=1)
                ],
            )
            if game.end_reason in RECORDED_ENDS:
                await self._record_results(connection, game, now)
                await self._rate_recorded(connection)

    async def _catch_up(self) -> None:
        try:
            await self.rate_games()
        except asyncpg.PostgresError:
            log.exception("rating the recorded games failed; they wait for the next")

    async def _rate_recorded(self, connection: asyncpg.Connection) -> None:
        """Rate the game just recorded with it; should that fail, the game is recorded all the
        same and waits to be rated with the next."""
        try:
            async with connection.transaction():
                await self._rate_waiting(connection)
        except asyncpg.PostgresError:
            log.exception("rating the recorded games failed; they wait for the next")

    async def _record_results(self, connection: asyncpg.Connection, game: Game, now: float) -> None:
        big_general = {game.winners[0]} if game.end_reason is EndReason.BIG_GENERAL else set()
        await connection.executemany(
            "INSERT INTO results (game_id, player_id, platform, channel, name, seat, total, boxes,"
            " winner, left_table, big_general, end_reason, finished_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,"
            " to_timestamp($13::float8))",
            [
                (
                    game.id,
                    seat.player.id,
                    game.channel.platform,
                    str(game.channel),
                    seat.player.name,
                    index,
                    seat.total,
                    list(seat.scores),
                    seat.player.id in game.winners,
                    not seat.active,
                    seat.player.id in big_general,
                    game.end_reason.value if game.end_reason else "",
                    now,
                )
                for index, seat in enumerate(game.seats)
            ],
        )
        await connection.execute(
            "INSERT INTO unrated (game_id, queued) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            game.id,
            now,
        )

    async def results(self, game_id: str) -> list[dict[str, Any]]:
        """A game's results rows in seating order, shaped as SQLite's: the same keys, boxes as
        JSON text, the flags as 0/1 and finished_at in Unix seconds."""
        rows = await self._fetch(
            "SELECT game_id, player_id, platform, channel, name, seat, total, boxes,"
            " winner::int AS winner, left_table::int AS left_table,"
            " big_general::int AS big_general, end_reason,"
            " extract(epoch FROM finished_at)::float8 AS finished_at, accuracy"
            " FROM results WHERE game_id = $1 ORDER BY seat",
            game_id,
        )
        return [{**dict(row), "boxes": _dumps(list(row["boxes"]))} for row in rows]

    # ------------------------------------------------------------------ boards and settings

    async def board(self, game_id: str) -> str | None:
        """The front end's reference to the message that shows this game's board, if any."""
        async with self._connection() as connection:
            ref = await connection.fetchval("SELECT ref FROM boards WHERE game_id = $1", game_id)
        return None if ref is None else str(ref)

    async def set_board(self, game_id: str, ref: str) -> None:
        async with self._connection() as connection:
            await connection.execute(
                "INSERT INTO boards (game_id, ref) VALUES ($1, $2)"
                " ON CONFLICT (game_id) DO UPDATE SET ref = excluded.ref",
                game_id,
                ref,
            )

    async def claim_board(self, game_id: str, expected: str, ref: str) -> bool:
        async with self._connection() as connection:
            claimed = await connection.fetchval(
                "UPDATE boards SET ref = $3 WHERE game_id = $1 AND ref = $2 RETURNING game_id",
                game_id,
                expected,
                ref,
            )
        return claimed is not None

    async def chat_settings(self, platform: str, chat: str) -> ChatSettings:
        """A chat's settings; the defaults where it never changed any."""
        async with self._connection() as connection:
            data = await connection.fetchval(
                "SELECT data FROM chat_settings WHERE chat = $1", f"{platform}:{chat}"
            )
        return ChatSettings() if data is None else ChatSettings.from_dict(json.loads(data))

    async def save_chat_settings(self, platform: str, chat: str, settings: ChatSettings) -> None:
        async with self._connection() as connection:
            await connection.execute(
                "INSERT INTO chat_settings (chat, data, updated_at)"
                " VALUES ($1, $2::jsonb, to_timestamp($3::float8))"
                " ON CONFLICT (chat) DO UPDATE SET data = excluded.data,"
                " updated_at = excluded.updated_at",
                f"{platform}:{chat}",
                _dumps(settings.to_dict()),
                time.time(),
            )

    # ------------------------------------------------------------------ timer leases

    async def claim_deadline(self, game_id: str, owner: str, lease_seconds: float) -> bool:
        """Claim (or renew) the right to fire this game's deadline for `lease_seconds`.

        True when no one held it, the holder's lease has expired (say the process died), or
        `owner` already held it (its lease then runs `lease_seconds` from now); False while
        another owner's lease runs. The server's clock decides, so processes on machines whose
        clocks differ still agree. Concurrent claims: exactly one wins."""
        async with self._connection() as connection:
            won = await connection.fetchval(
                "INSERT INTO deadline_leases AS lease (game_id, owner, expires_at)"
                " VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::float8))"
                " ON CONFLICT (game_id) DO UPDATE"
                " SET owner = excluded.owner, expires_at = excluded.expires_at"
                " WHERE lease.expires_at < clock_timestamp() OR lease.owner = excluded.owner"
                " RETURNING true",
                game_id,
                owner,
                float(lease_seconds),
            )
        return bool(won)

    async def release_deadline(self, game_id: str, owner: str) -> None:
        """Give the lease back (after firing, or when the game no longer has a deadline), so
        another process may claim it at once; a lease `owner` does not hold is left alone."""
        async with self._connection() as connection:
            await connection.execute(
                "DELETE FROM deadline_leases WHERE game_id = $1 AND owner = $2", game_id, owner
            )


def _moved_ref(ref: str, old_chat: str, new_chat: str) -> str | None:
    """A board reference (JSON with the chat's id, see adapters.chat.boards) pointed at the new
    chat; None where it names another chat or is not such JSON."""
    try:
        data = json.loads(ref)
    except ValueError:
        return None
    if not isinstance(data, dict) or str(data.get("chat")) != old_chat:
        return None
    numeric = isinstance(data["chat"], int) and new_chat.lstrip("-").isdigit()
    data["chat"] = int(new_chat) if numeric else new_chat
    return _dumps(data)


async def _quietly(step: Callable[[], Awaitable[Any]]) -> bool:
    """A commit or rollback on the way out of a failing block; False if it failed too (the
    pool resets or discards the connection when it comes back)."""
    try:
        await step()
    except Exception:
        return False
    return True
