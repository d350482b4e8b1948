"""Who hears privately of a table opening in a chat (`/general notify`)."""

from __future__ import annotations

import time
from collections.abc import Callable

import aiosqlite

from core.subscriptions import Subscriber


class SqliteSubscriptions:
    """The subscriptions table on the repository's connection."""

    def __init__(self, connection: aiosqlite.Connection, writable: Callable[[], None]) -> None:
        self._db = connection
        self._writable = writable  # refuses a write once the file is gone

    async def subscribe(self, platform: str, chat: str, player_id: str, locale: str) -> bool:
        """True where the person was not subscribed yet (their language is kept either way)."""
        key = f"{platform}:{chat}"
        self._writable()
        added = await self._db.execute_fetchall(
            "INSERT INTO subscriptions (chat, player_id, locale, since) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (chat, player_id) DO NOTHING RETURNING player_id",
            (key, player_id, locale, time.time()),
        )
        if list(added):
            return True
        await self._db.execute_fetchall(
            "UPDATE subscriptions SET locale = ? WHERE chat = ? AND player_id = ?",
            (locale, key, player_id),
        )
        return False

    async def unsubscribe(self, platform: str, chat: str, player_id: str) -> bool:
        """True where the person was subscribed."""
        self._writable()
        rows = await self._db.execute_fetchall(
            "DELETE FROM subscriptions WHERE chat = ? AND player_id = ? RETURNING player_id",
            (f"{platform}:{chat}", player_id),
        )
        return bool(list(rows))

    async def subscribers(self, platform: str, chat: str) -> list[Subscriber]:
        rows = await self._db.execute_fetchall(
            "SELECT player_id, locale FROM subscriptions WHERE chat = ? ORDER BY since, player_id",
            (f"{platform}:{chat}",),
        )
        return [Subscriber(str(player_id), str(locale)) for player_id, locale in rows]
