"""The chats' tournaments (core.tournament) on PostgreSQL, each saved whole with a version check;
and their share of a chat's move."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

import asyncpg

from adapters.postgres.connections import PostgresConnections
from core.errors import ErrorCode, GameError
from core.ports import EventRecord

COLUMNS = "id, platform, chat, version, finished, data"


def dumps(data: Any) -> str:
    """Compact JSON that refuses NaN (which no JSON column takes): the error comes before any
    write, so a save inside a channel's lock leaves the lock's transaction usable."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class PostgresTournaments:
    """The tournaments table (schema 9), on the repository's connections (or the held lock's)."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections

    async def save_tournament(self, record: EventRecord, previous_version: int | None) -> None:
        """One statement, which cannot fail on a taken id or an old version: GameError STALE
        then, and nothing written. The platform and chat are kept: only a move changes them."""
        data = dumps(record.data)
        async with self._connections.connection() as connection:
            if previous_version is None:
                written = await connection.fetchval(
                    "INSERT INTO tournaments (id, platform, chat, version, finished, opened, data)"
                    " VALUES ($1, $2, $3, $4, $5, to_timestamp($6::float8), $7::json)"
                    " ON CONFLICT (id) DO NOTHING RETURNING true",
                    record.id, record.platform, record.chat, record.version, record.finished,
                    time.time(), data,
                )  # fmt: skip
            else:
                written = await connection.fetchval(
                    "UPDATE tournaments SET version = $2, finished = $3, data = $4::json"
                    " WHERE id = $1 AND version = $5 RETURNING true",
                    record.id, record.version, record.finished, data, previous_version,
                )  # fmt: skip
        if not written:
            raise GameError(ErrorCode.STALE)

    async def tournament(self, event_id: str) -> EventRecord | None:
        rows = await self._connections.fetch(
            f"SELECT {COLUMNS} FROM tournaments WHERE id = $1", event_id
        )
        found = _records(rows)
        return found[0] if found else None

    async def open_tournaments(self, platform: str, chat: str | None = None) -> list[EventRecord]:
        """The chat column has no thread: a chat's tournaments are those of all its threads."""
        where, params = "platform = $1 AND NOT finished", [platform]
        if chat is not None:
            where, params = f"{where} AND chat = $2", [*params, chat]
        rows = await self._connections.fetch(
            f"SELECT {COLUMNS} FROM tournaments WHERE {where} ORDER BY opened, id", *params
        )
        return _records(rows)


async def move_tournaments(
    connection: asyncpg.Connection, platform: str, old_chat: str, new_chat: str
) -> None:
    """A chat's tournaments to its new id, in the move's transaction; a "chat" in their data
    that names the old chat names the new one (rewritten here, so the rest stays as written)."""
    rows = await connection.fetch(
        "SELECT id, data FROM tournaments WHERE platform = $1 AND chat = $2 FOR UPDATE",
        platform,
        old_chat,
    )
    await connection.executemany(
        "UPDATE tournaments SET chat = $2, data = $3::json WHERE id = $1",
        [(row["id"], new_chat, _moved_data(row["data"], old_chat, new_chat)) for row in rows],
    )


def _moved_data(text: str, old_chat: str, new_chat: str) -> str:
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("chat") != old_chat:
        return text
    return dumps({**data, "chat": new_chat})


def _records(rows: Iterable[asyncpg.Record]) -> list[EventRecord]:
    return [
        EventRecord(
            row["id"],
            row["platform"],
            row["chat"],
            row["version"],
            row["finished"],
            json.loads(row["data"]),
        )
        for row in rows
    ]
