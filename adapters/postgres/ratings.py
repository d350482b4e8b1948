"""Skill ratings on PostgreSQL: recorded games wait in `unrated` and are rated in order, in the
transaction that records them, under one advisory lock that every process takes, so that two
games ending at once in different processes are rated one after the other."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

import asyncpg

from adapters.postgres.connections import PostgresConnections, lock_key
from core.identity import ChannelKey
from core.ratings import (
    EVERYWHERE,
    PROVISIONAL_GAMES,
    TREND,
    Change,
    Placing,
    Rating,
    change_of,
    changes,
    rated_id,
    rating_of,
    trend_of,
)
from core.records import Rated

log = logging.getLogger(__name__)
# Held while rating, by every process: one game at a time, in order.
RATING_LOCK = lock_key("general:ratings")


class PostgresRatings:
    """The ratings and their queue, on the repository's connections (or the held lock's)."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections
        self._catching_up: asyncio.Task[None] | None = None

    async def _fetch(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        return await self._connections.fetch(sql, *params)

    def catch_up(self) -> None:
        """Rate meanwhile the games recorded before ratings existed (or whose rating failed)."""
        self._catching_up = asyncio.create_task(self._catch_up())

    async def close(self) -> None:
        if self._catching_up is not None:  # each game is rated in a transaction: safe
            self._catching_up.cancel()
            await asyncio.gather(self._catching_up, return_exceptions=True)

    async def _catch_up(self) -> None:
        try:
            await self.rate_games()
        except asyncpg.PostgresError:
            log.exception("rating the recorded games failed; they wait for the next")

    async def rate_recorded(self, connection: asyncpg.Connection) -> None:
        """Rate the game just recorded with it; should that fail, the game is recorded all the
        same and waits to be rated with the next."""
        try:
            async with connection.transaction():
                await self._rate_waiting(connection)
        except asyncpg.PostgresError:
            log.exception("rating the recorded games failed; they wait for the next")

    async def rate_games(self) -> int:
        async with self._connections.transaction() as connection:
            return await self._rate_waiting(connection)

    async def _rate_waiting(self, connection: asyncpg.Connection) -> int:
        """Rate every recorded game still waiting, in order, in the caller's transaction."""
        await connection.execute("SELECT pg_advisory_xact_lock($1)", RATING_LOCK)
        done = 0
        while game_id := await connection.fetchval(
            "SELECT game_id FROM unrated ORDER BY queued, game_id LIMIT 1"
        ):
            await self._rate(connection, game_id)
            done += 1
        return done

    async def _rate(self, connection: asyncpg.Connection, game_id: str) -> None:
        results = await connection.fetch(
            "SELECT player_id, platform, channel, total, big_general FROM results"
            " WHERE game_id = $1 ORDER BY seat",
            game_id,
        )
        seq = await connection.fetchval(
            "INSERT INTO rated_games (game_id, seq)"
            " SELECT $1, COALESCE(MAX(seq), 0) + 1 FROM rated_games RETURNING seq",
            game_id,
        )
        await connection.execute("DELETE FROM unrated WHERE game_id = $1", game_id)
        if not results:
            return
        platform = results[0]["platform"]
        scopes = (results[0]["channel"], EVERYWHERE)
        placings = [Placing(r["player_id"], r["total"], r["big_general"]) for r in results]
        stored = await connection.fetch(
            "SELECT scope, player_id, mu, sigma, games, best FROM ratings WHERE platform = $1"
            " AND scope = ANY($2::text[]) AND player_id = ANY($3::text[])",
            platform,
            list(scopes),
            sorted({rated_id(p.player_id) for p in placings}),
        )
        found = changes(
            placings, scopes, {(r["scope"], r["player_id"]): rating_of(r) for r in stored}
        )
        await connection.executemany(
            "INSERT INTO rating_changes (game_id, platform, scope, player_id, seq, mu_before,"
            " sigma_before, mu, sigma, games) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            [
                (
                    game_id, platform, c.scope, c.player_id, seq,
                    c.before.mu if c.before else None, c.before.sigma if c.before else None,
                    c.after.mu, c.after.sigma, c.games,
                )
                for c in found
            ],
        )  # fmt: skip
        await connection.executemany(
            "INSERT INTO ratings (platform, scope, player_id, mu, sigma, games, best, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp())"
            " ON CONFLICT (platform, scope, player_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, games = excluded.games, best = excluded.best,"
            " updated_at = excluded.updated_at",
            [
                (platform, c.scope, c.player_id, c.after.mu, c.after.sigma, c.games, c.best)
                for c in found
            ],
        )

    async def game_ratings(self, game_id: str, channel: ChannelKey) -> list[Change]:
        rows = await self._fetch(
            "SELECT c.player_id, c.mu_before, c.sigma_before, c.mu, c.sigma, c.games, r.best"
            " FROM rating_changes AS c JOIN ratings AS r ON r.platform = c.platform"
            " AND r.scope = c.scope AND r.player_id = c.player_id"
            " WHERE c.game_id = $1 AND c.scope = $2",
            game_id,
            str(channel),
        )
        return [change_of(str(channel), row) for row in rows]

    async def rating_board(
        self, platform: str, channel: ChannelKey | None, since: float | None, limit: int = 10
    ) -> list[Rated]:
        scope = EVERYWHERE if channel is None else str(channel)
        found: list[Rated] = []
        for provisional in (False, True):
            rows = await self._fetch(
                "SELECT player_id, mu, sigma, games, best,"
                " (SELECT name FROM results WHERE results.platform = ratings.platform"
                "  AND results.player_id = ratings.player_id"
                "  ORDER BY finished_at DESC LIMIT 1) AS name"
                " FROM ratings WHERE platform = $1 AND scope = $2 AND (games < $3) = $4"
                " AND ($5::float8 IS NULL OR updated_at >= to_timestamp($5::float8))"
                " ORDER BY mu - 3 * sigma DESC, player_id COLLATE \"C\" LIMIT $6",
                platform, scope, PROVISIONAL_GAMES, provisional, since, limit,
            )  # fmt: skip
            found += [Rated(r["player_id"], r["name"] or "", rating_of(r)) for r in rows]
        return found

    async def player_rating(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> Rating | None:
        scope = EVERYWHERE if channel is None else str(channel)
        rows = await self._fetch(
            "SELECT mu, sigma, games, best FROM ratings WHERE platform = $1 AND scope = $2"
            " AND player_id = $3",
            platform,
            scope,
            player_id,
        )
        if not rows:
            return None
        trend = await self._fetch(
            "SELECT mu_before, sigma_before, mu, sigma FROM rating_changes"
            " WHERE platform = $1 AND scope = $2"
            " AND player_id = $3 ORDER BY seq DESC LIMIT $4",
            platform,
            scope,
            player_id,
            TREND,
        )
        return replace(rating_of(rows[0]), trend=trend_of(trend))

    async def rebuild_ratings(self) -> int:
        async with self._connections.transaction() as connection:
            await connection.execute("SELECT pg_advisory_xact_lock($1)", RATING_LOCK)
            await connection.execute(
                "INSERT INTO unrated (game_id, queued)"
                " SELECT game_id, seq - (SELECT MAX(seq) + 1 FROM rated_games) FROM rated_games"
                " ON CONFLICT (game_id) DO UPDATE SET queued = excluded.queued"
            )
            await connection.execute("DELETE FROM rating_changes")
            await connection.execute("DELETE FROM rated_games")
            await connection.execute("DELETE FROM ratings")
            return await self._rate_waiting(connection)
