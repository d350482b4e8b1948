"""A season's recorded games, its rating changes, the chats that played in it, and the claim
on its end's message (one per chat and season, whichever process ends it)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import aiosqlite

from adapters.sqlite.records import read_rows
from adapters.storage_parts import season_games_of
from core.identity import ChannelKey
from core.season_end import Move, move_of
from core.seasons import SeasonGame


class SqliteSeasons:
    """On the repository's connection."""

    def __init__(self, connection: aiosqlite.Connection, writable: Callable[[], None]) -> None:
        self._db = connection
        self._writable = writable  # refuses a write once the file is gone

    async def _rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        return await read_rows(self._db, sql, params)

    async def season_games(
        self, platform: str, channel: ChannelKey | None, since: float, until: float
    ) -> list[SeasonGame]:
        where = "platform = ? AND finished_at >= ? AND finished_at < ?"
        params: tuple[Any, ...] = (platform, since, until)
        if channel is not None:
            where, params = f"{where} AND channel = ?", (*params, str(channel))
        rows = await self._rows(
            "SELECT game_id, finished_at, player_id, name, total, big_general FROM results"
            f" WHERE {where} ORDER BY finished_at, game_id, seat",
            params,
        )
        return season_games_of(rows)

    async def rating_moves(self, channel: ChannelKey, since: float, until: float) -> list[Move]:
        rows = await self._rows(
            "SELECT player_id, mu_before, sigma_before, mu, sigma FROM rating_changes"
            " WHERE scope = ? AND game_id IN (SELECT game_id FROM results WHERE channel = ?"
            " AND finished_at >= ? AND finished_at < ?) ORDER BY seq",
            (str(channel), str(channel), since, until),
        )
        return [move_of(row) for row in rows]

    async def season_channels(self, platform: str, since: float, until: float) -> list[ChannelKey]:
        rows = await self._rows(
            "SELECT DISTINCT channel FROM results WHERE platform = ? AND finished_at >= ?"
            " AND finished_at < ? ORDER BY channel",
            (platform, since, until),
        )
        return [ChannelKey.parse(row["channel"]) for row in rows]

    async def claim_season_end(self, channel: ChannelKey, label: str) -> bool:
        self._writable()
        rows = await self._db.execute_fetchall(
            "INSERT INTO season_ends (channel, season, claimed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (channel, season) DO NOTHING RETURNING season",
            (str(channel), label, time.time()),
        )
        return bool(list(rows))

    async def release_season_end(self, channel: ChannelKey, label: str) -> None:
        self._writable()
        await self._db.execute_fetchall(
            "DELETE FROM season_ends WHERE channel = ? AND season = ?", (str(channel), label)
        )
