"""Which message shows each game's board, written through a copy of the recently used ones:
read on every press."""

from __future__ import annotations

from collections.abc import Callable

import aiosqlite

from adapters.sqlite.recent import RECENT, Recent


class SqliteBoards:
    """The boards table on the repository's connection, and its copy in memory."""

    def __init__(self, connection: aiosqlite.Connection, writable: Callable[[], None]) -> None:
        self._db = connection
        self._writable = writable  # refuses a write once the file is gone
        self._boards: Recent[str] = Recent(RECENT)

    def drop(self, game_id: str) -> None:
        """Forget the copy: the game's board is read again from the file."""
        self._boards.drop(game_id)

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
