"""Who hears privately of a table opening in a chat (`/general notify`), on PostgreSQL."""

from __future__ import annotations

import time

from adapters.postgres.connections import PostgresConnections
from core.subscriptions import Subscriber


class PostgresSubscriptions:
    """The subscriptions table, on the repository's connections."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections

    async def subscribe(self, platform: str, chat: str, player_id: str, locale: str) -> bool:
        """True where the person was not subscribed yet (their language is kept either way)."""
        async with self._connections.connection() as connection:
            fresh = await connection.fetchval(
                "INSERT INTO subscriptions (chat, player_id, locale, since)"
                " VALUES ($1, $2, $3, to_timestamp($4::float8))"
                " ON CONFLICT (chat, player_id) DO UPDATE SET locale = excluded.locale"
                " RETURNING xmax = 0",
                f"{platform}:{chat}",
                player_id,
                locale,
                time.time(),
            )
        return bool(fresh)

    async def unsubscribe(self, platform: str, chat: str, player_id: str) -> bool:
        """True where the person was subscribed."""
        async with self._connections.connection() as connection:
            gone = await connection.fetchval(
                "DELETE FROM subscriptions WHERE chat = $1 AND player_id = $2 RETURNING 1",
                f"{platform}:{chat}",
                player_id,
            )
        return gone is not None

    async def subscribers(self, platform: str, chat: str) -> list[Subscriber]:
        async with self._connections.connection() as connection:
            rows = await connection.fetch(
                "SELECT player_id, locale FROM subscriptions WHERE chat = $1"
                " ORDER BY since, player_id",
                f"{platform}:{chat}",
            )
        return [Subscriber(row["player_id"], row["locale"]) for row in rows]
