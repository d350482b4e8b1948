"""The chats' settings, written through a copy of the recently used ones: read on every press."""

from __future__ import annotations

import time
from collections.abc import Callable

import aiosqlite
import orjson

from adapters.sqlite.recent import RECENT, Recent
from adapters.sqlite.saves import dumps
from core.chat_settings import ChatSettings


class SqliteSettings:
    """The chat_settings table on the repository's connection, and its copy in memory."""

    def __init__(self, connection: aiosqlite.Connection, writable: Callable[[], None]) -> None:
        self._db = connection
        self._writable = writable  # refuses a write once the file is gone
        self._settings: Recent[ChatSettings] = Recent(RECENT)

    def drop(self, chat: str) -> None:
        """Forget the copy of a chat's settings (`platform:chat`): read again from the file."""
        self._settings.drop(chat)

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
