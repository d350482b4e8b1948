"""The chats' settings on PostgreSQL: read from the server each time, since another process
may have changed them."""

from __future__ import annotations

import json
import time

from adapters.postgres.connections import PostgresConnections, dumps
from core.chat_settings import ChatSettings


class PostgresSettings:
    """The chat_settings table, on the repository's connections (or the held lock's)."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections

    async def chat_settings(self, platform: str, chat: str) -> ChatSettings:
        """A chat's settings; the defaults where it never changed any."""
        async with self._connections.connection() as connection:
            data = await connection.fetchval(
                "SELECT data FROM chat_settings WHERE chat = $1", f"{platform}:{chat}"
            )
        return ChatSettings() if data is None else ChatSettings.from_dict(json.loads(data))

    async def save_chat_settings(self, platform: str, chat: str, settings: ChatSettings) -> None:
        async with self._connections.connection() as connection:
            await connection.execute(
                "INSERT INTO chat_settings (chat, data, updated_at)"
                " VALUES ($1, $2::jsonb, to_timestamp($3::float8))"
                " ON CONFLICT (chat) DO UPDATE SET data = excluded.data,"
                " updated_at = excluded.updated_at",
                f"{platform}:{chat}",
                dumps(settings.to_dict()),
                time.time(),
            )
