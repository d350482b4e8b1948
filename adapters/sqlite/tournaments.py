"""The chats' tournaments (core.tournament), each saved whole with a version check."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

import aiosqlite

from core.errors import ErrorCode, GameError
from core.ports import EventRecord

COLUMNS = "id, platform, chat, version, finished, data"
# Each write is one statement, so its own transaction: the version check and the write are one.
INSERT = (
    "INSERT INTO tournaments (id, platform, chat, version, finished, opened, data)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id"
)
# A tournament's platform and chat are not rewritten: only a chat's move changes them.
UPDATE = (
    "UPDATE tournaments SET version = ?, finished = ?, data = ?"
    " WHERE id = ? AND version = ? RETURNING id"
)


def dumps(data: Any) -> str:
    """The standard encoder, not orjson: it keeps any integer and refuses NaN (which orjson
    would write as null), so what is read back is what was saved."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class SqliteTournaments:
    """The tournaments table (schema 12) on the repository's connection."""

    def __init__(self, connection: aiosqlite.Connection, writable: Callable[[], None]) -> None:
        self._db = connection
        self._writable = writable  # refuses a write once the file is gone

    async def save_tournament(self, record: EventRecord, previous_version: int | None) -> None:
        """GameError STALE where the stored version is not `previous_version` (None: where
        the id is taken); nothing is written then."""
        data = dumps(record.data)  # fails before any write
        self._writable()
        if previous_version is None:
            written = await self._db.execute_fetchall(
                INSERT,
                (
                    record.id,
                    record.platform,
                    record.chat,
                    record.version,
                    record.finished,
                    time.time(),
                    data,
                ),
            )
        else:
            written = await self._db.execute_fetchall(
                UPDATE, (record.version, record.finished, data, record.id, previous_version)
            )
        if not list(written):
            raise GameError(ErrorCode.STALE)

    async def tournament(self, event_id: str) -> EventRecord | None:
        rows = await self._db.execute_fetchall(
            f"SELECT {COLUMNS} FROM tournaments WHERE id = ?", (event_id,)
        )
        found = _records(rows)
        return found[0] if found else None

    async def open_tournaments(self, platform: str, chat: str | None = None) -> list[EventRecord]:
        """The chat column has no thread: a chat's tournaments are those of all its threads."""
        where, params = "platform = ? AND finished = 0", [platform]
        if chat is not None:
            where, params = f"{where} AND chat = ?", [*params, chat]
        rows = await self._db.execute_fetchall(
            f"SELECT {COLUMNS} FROM tournaments WHERE {where} ORDER BY opened, id", params
        )
        return _records(rows)


def _records(rows: Iterable[Any]) -> list[EventRecord]:
    return [
        EventRecord(str(i), str(p), str(c), int(v), bool(f), json.loads(d))
        for i, p, c, v, f, d in rows
    ]
