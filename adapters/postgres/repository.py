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

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import asyncpg

from adapters.postgres.boards import PostgresBoards
from adapters.postgres.connections import PostgresConnections, lock_key
from adapters.postgres.deadlines import PostgresDeadlines
from adapters.postgres.forget import PostgresForget
from adapters.postgres.games import PostgresGames
from adapters.postgres.moves import PostgresMoves
from adapters.postgres.notices import PostgresNotices
from adapters.postgres.ratings import PostgresRatings
from adapters.postgres.records import PostgresRecords
from adapters.postgres.schema import MIGRATIONS, MIGRATIONS_TABLE, SCHEMA_VERSION
from adapters.postgres.seasons import PostgresSeasons
from adapters.postgres.settings import PostgresSettings
from adapters.postgres.subscriptions import PostgresSubscriptions
from adapters.postgres.tournaments import PostgresTournaments
from adapters.storage_parts import RecordsByParts, SeasonsByParts, SubscriptionsByParts
from core.chat_settings import ChatSettings
from core.events import Event
from core.forget import Forgotten
from core.identity import ChannelKey, PlayerRef
from core.ports import EventRecord, Heard, Wanted
from core.records import Weighed
from core.table import Game

# Pool sizes unless `open` is told otherwise: one connection per channel being acted on at once.
POOL_MIN, POOL_MAX = 1, 20
# Held while migrating, so that processes starting together apply each step once.
MIGRATION_LOCK = lock_key("general:migrations")


class PostgresRepository(RecordsByParts, SubscriptionsByParts, SeasonsByParts):
    """One asyncpg pool per process; each call takes a connection (or the held lock's). The
    work is done by parts, each handed the connections (and the parts it calls on); this class
    opens and closes them, and answers the port by delegating."""

    _records: PostgresRecords
    _ratings: PostgresRatings

    shared = True  # several processes: each looks now and then for games the others made

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._closed = False
        connections = PostgresConnections(pool)
        self._connections = connections
        self._records = PostgresRecords(connections)
        self._ratings = PostgresRatings(connections)
        self._notices = PostgresNotices(pool, connections)
        self._games = PostgresGames(connections, self._ratings, self._notices)
        self._boards = PostgresBoards(connections)
        self._settings = PostgresSettings(connections)
        self._subscriptions = PostgresSubscriptions(connections)
        self._seasons = PostgresSeasons(connections)
        self._tournaments = PostgresTournaments(connections)
        self._deadlines = PostgresDeadlines(connections)
        self._moves = PostgresMoves(connections)
        self._forget = PostgresForget(connections, self._moves)

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
        repository._ratings.catch_up()
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
            await self._ratings.close()
            await self._notices.close()
            await self._pool.close()

    async def listen(self, heard: Heard, wanted: Wanted) -> None:
        """Hear what the other processes save (see adapters.postgres.notices)."""
        await self._notices.listen(heard, wanted, self._games.get_game)

    def channel_lock(self, channel: ChannelKey | str) -> AbstractAsyncContextManager[None]:
        """Serialise work on one channel across processes (see PostgresConnections)."""
        return self._connections.channel_lock(channel)

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
        await self._games.save(game, events, previous_version)

    async def set_weighed(self, game_id: str, weighed: dict[str, Weighed]) -> None:
        await self._records.set_weighed(game_id, weighed)

    async def results(self, game_id: str) -> list[dict[str, Any]]:
        return await self._records.results(game_id)

    # ------------------------------------------------------------------ chats, people, timers

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

    async def claim_deadline(self, game_id: str, owner: str, lease_seconds: float) -> bool:
        return await self._deadlines.claim_deadline(game_id, owner, lease_seconds)

    async def release_deadline(self, game_id: str, owner: str) -> None:
        await self._deadlines.release_deadline(game_id, owner)
