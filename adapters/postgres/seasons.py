"""A season's recorded games, its rating changes, the chats that played in it, and the claim
on its end's message (one per chat and season, whichever process ends it), on PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

from adapters.postgres.connections import PostgresConnections
from adapters.storage_parts import season_games_of
from core.identity import ChannelKey
from core.season_end import Move, move_of
from core.seasons import SeasonGame

BETWEEN = "finished_at >= to_timestamp($2::float8) AND finished_at < to_timestamp($3::float8)"


class PostgresSeasons:
    """On the repository's connections."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections

    async def _fetch(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        async with self._connections.connection() as connection:
            return [dict(row) for row in await connection.fetch(sql, *params)]

    async def season_games(
        self, platform: str, channel: ChannelKey | None, since: float, until: float
    ) -> list[SeasonGame]:
        mine = "" if channel is None else " AND channel = $4"
        params = (
            (platform, since, until) if channel is None else (platform, since, until, str(channel))
        )
        rows = await self._fetch(
            "SELECT game_id, extract(epoch FROM finished_at)::float8 AS finished_at, player_id,"
            " name, total, big_general FROM results"
            f" WHERE platform = $1 AND {BETWEEN}{mine} ORDER BY finished_at, game_id, seat",
            *params,
        )
        return season_games_of(rows)

    async def rating_moves(self, channel: ChannelKey, since: float, until: float) -> list[Move]:
        rows = await self._fetch(
            "SELECT player_id, mu_before, sigma_before, mu, sigma FROM rating_changes"
            " WHERE scope = $1 AND game_id IN (SELECT game_id FROM results WHERE channel = $1"
            f" AND {BETWEEN}) ORDER BY seq",
            str(channel),
            since,
            until,
        )
        return [move_of(row) for row in rows]

    async def season_channels(self, platform: str, since: float, until: float) -> list[ChannelKey]:
        rows = await self._fetch(
            f'SELECT DISTINCT channel COLLATE "C" AS channel FROM results'
            f" WHERE platform = $1 AND {BETWEEN} ORDER BY 1",
            platform,
            since,
            until,
        )
        return [ChannelKey.parse(row["channel"]) for row in rows]

    async def claim_season_end(self, channel: ChannelKey, label: str) -> bool:
        async with self._connections.connection() as connection:
            claimed = await connection.fetchval(
                "INSERT INTO season_ends (channel, season, claimed_at)"
                " VALUES ($1, $2, to_timestamp($3::float8))"
                " ON CONFLICT (channel, season) DO NOTHING RETURNING 1",
                str(channel),
                label,
                time.time(),
            )
        return claimed is not None

    async def release_season_end(self, channel: ChannelKey, label: str) -> None:
        async with self._connections.connection() as connection:
            await connection.execute(
                "DELETE FROM season_ends WHERE channel = $1 AND season = $2", str(channel), label
            )
