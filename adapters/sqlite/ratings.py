"""Skill ratings on SQLite: recorded games wait in `unrated` and are rated one at a time, in
order, each game's changes written as one INSERT into rating_saves (schema 6)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import orjson

from adapters.sqlite.records import SqliteRecords
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


class SqliteRatings(SqliteRecords):
    """Mixed into the repository: shares its connection; one game is rated at a time."""

    _rating: asyncio.Lock

    async def rate_games(self) -> int:
        """Rate every recorded game still waiting, in order; how many were."""
        done = 0
        async with self._rating:
            while rows := await self._rows(
                "SELECT game_id FROM unrated ORDER BY queued, game_id LIMIT 1", ()
            ):
                await self._rate(str(rows[0]["game_id"]))
                done += 1
        return done

    async def _rate(self, game_id: str) -> None:
        results = await self._rows(
            "SELECT player_id, platform, channel, total, big_general FROM results"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        placings = [Placing(r["player_id"], r["total"], bool(r["big_general"])) for r in results]
        found: list[Change] = []
        platform = results[0]["platform"] if results else ""
        if results:
            scopes = (results[0]["channel"], EVERYWHERE)
            ids = sorted({rated_id(p.player_id) for p in placings})
            found = changes(placings, scopes, await self._stored(platform, scopes, ids))
        rows = [
            {
                "platform": platform,
                "scope": c.scope,
                "player_id": c.player_id,
                "mu_before": c.before.mu if c.before else None,
                "sigma_before": c.before.sigma if c.before else None,
                "mu": c.after.mu,
                "sigma": c.after.sigma,
                "games": c.games,
                "best": c.best,
            }
            for c in found
        ]
        self._writable()
        await self._db.execute_fetchall(
            "INSERT INTO rating_saves (game_id, changes, saved_at) VALUES (?, ?, ?)",
            (game_id, orjson.dumps(rows).decode(), time.time()),
        )

    async def _stored(
        self, platform: str, scopes: tuple[str, ...], ids: list[str]
    ) -> dict[tuple[str, str], Rating]:
        marks = ",".join("?" * len(ids))
        rows = await self._rows(
            "SELECT scope, player_id, mu, sigma, games, best FROM ratings WHERE platform = ?"
            f" AND scope IN (?, ?) AND player_id IN ({marks})",
            (platform, *scopes, *ids),
        )
        return {(r["scope"], r["player_id"]): rating_of(r) for r in rows}

    async def game_ratings(self, game_id: str, channel: ChannelKey) -> list[Change]:
        """A rated game's changes in its chat (none while it waits to be rated)."""
        rows = await self._rows(
            "SELECT c.player_id, c.mu_before, c.sigma_before, c.mu, c.sigma, c.games, r.best"
            " FROM rating_changes AS c JOIN ratings AS r ON r.platform = c.platform"
            " AND r.scope = c.scope AND r.player_id = c.player_id"
            " WHERE c.game_id = ? AND c.scope = ?",
            (game_id, str(channel)),
        )
        return [change_of(str(channel), row) for row in rows]

    async def rating_board(
        self, platform: str, channel: ChannelKey | None, since: float | None, limit: int = 10
    ) -> list[Rated]:
        """The best rated players (computers too) of a chat or every chat; those still
        provisional after the rest, `limit` of each."""
        scope = EVERYWHERE if channel is None else str(channel)
        recent, since_params = ("", ()) if since is None else (" AND updated_at >= ?", (since,))
        found: list[Rated] = []
        for provisional in (False, True):
            rows = await self._rows(
                f"""
                SELECT player_id, mu, sigma, games, best,
                       (SELECT name FROM results WHERE results.platform = ratings.platform
                        AND results.player_id = ratings.player_id
                        ORDER BY finished_at DESC LIMIT 1) AS name
                FROM ratings WHERE platform = ? AND scope = ? AND (games < ?) = ?{recent}
                ORDER BY mu - 3 * sigma DESC, player_id LIMIT ?
                """,
                (platform, scope, PROVISIONAL_GAMES, provisional, *since_params, limit),
            )
            found += [Rated(r["player_id"], r["name"] or "", rating_of(r)) for r in rows]
        return found

    async def player_rating(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> Rating | None:
        """A player's rating in a chat or every chat, with their trend over the last games."""
        scope = EVERYWHERE if channel is None else str(channel)
        rows = await self._rows(
            "SELECT mu, sigma, games, best FROM ratings WHERE platform = ? AND scope = ?"
            " AND player_id = ?",
            (platform, scope, player_id),
        )
        if not rows:
            return None
        trend = await self._rows(
            "SELECT mu_before, sigma_before, mu, sigma FROM rating_changes"
            " WHERE platform = ? AND scope = ?"
            " AND player_id = ? ORDER BY seq DESC LIMIT ?",
            (platform, scope, player_id, TREND),
        )
        return replace(rating_of(rows[0]), trend=trend_of(trend))

    async def rebuild_ratings(self) -> int:
        """Forget every rating and rate every recorded game again: those rated before in the
        order they were, then any never rated, as live rating would; how many games."""
        self._writable()
        async with self._rating:
            await self._db.executescript(
                """
                BEGIN IMMEDIATE;
                INSERT OR REPLACE INTO unrated (game_id, queued)
                    SELECT game_id, seq - (SELECT MAX(seq) + 1 FROM rated_games)
                    FROM rated_games;
                DELETE FROM rating_changes;
                DELETE FROM rated_games;
                DELETE FROM ratings;
                COMMIT;
                """
            )
        return await self.rate_games()
