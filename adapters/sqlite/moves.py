"""A chat's move to a new id (a Telegram group become a supergroup), and the copies in memory
of the chats whose rows a move (or a forgetting) rewrote, which must be read again."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import aiosqlite

from adapters.sqlite.boards import SqliteBoards
from adapters.sqlite.settings import SqliteSettings
from core.identity import ChannelKey
from core.table import Game


class SqliteMoves:
    """Moves chats on the repository's connection; handed the copies a move makes stale: the
    active games by channel, the boards and the chats' settings."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        writable: Callable[[], None],
        active: dict[str, Game],
        boards: SqliteBoards,
        settings: SqliteSettings,
    ) -> None:
        self._db = connection
        self._writable = writable  # refuses a write once the file is gone
        self._active = active
        self._boards = boards
        self._settings = settings

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
        finally:
            self.reread((old_prefix, new_prefix), [str(game_id) for (game_id,) in moving])

    def reread(self, prefixes: tuple[str, str], moved: Iterable[str]) -> None:
        """The copies of both chats (`platform:chat:` each) are read again from the file: their
        active games, the boards of the games `moved` out of the first, their settings."""
        for key in [key for key in self._active if key.startswith(prefixes)]:
            del self._active[key]
        for game_id in moved:
            self._boards.drop(game_id)
        for prefix in prefixes:
            self._settings.drop(prefix[:-1])
