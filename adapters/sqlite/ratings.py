"""Skill ratings on SQLite: recorded games wait in `unrated` and are rated in order, each game's
changes written as one INSERT into rating_saves (schema 6), the games waiting together rated in
one trip to the database's thread."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, cast

import aiosqlite
import orjson

from adapters.sqlite.recent import RECENT, Recent
from adapters.sqlite.records import read_rows
from core.errors import StorageError
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


class SqliteRatings:
    """The ratings and their queue: one task rates at a time, in order, on the repository's
    connection; a game rated ahead of its saver is remembered until that saver looks."""

    def __init__(self, connection: aiosqlite.Connection, writable: Callable[[], None]) -> None:
        self._db = connection
        self._writable = writable  # refuses a write once the file is gone
        self._lock = asyncio.Lock()
        self._catching_up: asyncio.Task[None] | None = None
        self._later: set[asyncio.Task[None]] = set()
        self._rated: Recent[bool] = Recent(RECENT)  # rated for a saver still to look

    def catch_up(self) -> None:
        """Rate meanwhile the games recorded before ratings existed (or whose rating failed)."""
        self._catching_up = asyncio.create_task(self.rate_recorded())

    async def close(self) -> None:
        """Stop rating: each game is rated in one statement, so stopping is safe; a game not
        yet rated waits for the next, or the next start's catching up."""
        rating = [*self._later, *([self._catching_up] if self._catching_up else [])]
        for task in rating:
            task.cancel()
        await asyncio.gather(*rating, return_exceptions=True)

    async def _rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        return await read_rows(self._db, sql, params)

    async def rate_games(self) -> int:
        """Rate every recorded game still waiting, in order; how many were."""
        done = 0
        async with self._lock:
            while True:
                rated = await self._rate_waiting(None)
                done += len(rated)
                if len(rated) < BATCH:
                    return done

    async def _rate_waiting(self, up_to: str | None) -> list[str]:
        """One trip to the database's thread: rate the games waiting, in order, up to and
        including `up_to` (every one where None), BATCH at most; the ids rated."""
        self._writable()
        run = cast(Callable[..., Awaitable[list[str]]], self._db._execute)
        return await run(rate_in_order, self._db._conn, up_to)

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
        async with self._lock:
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

    def rate_later(self) -> None:
        """Rate in the background what a cancelled save recorded (close() stops it)."""
        task = asyncio.create_task(self.rate_recorded())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def rate_recorded(self, game_id: str | None = None) -> None:
        """Rate the games recorded and not yet rated, in order, up to and including `game_id`
        (every one where None); should that fail, they wait for the next game's end."""
        try:
            if game_id is None:
                await self.rate_games()
            else:
                await self._rate_through(game_id)
        except (sqlite3.Error, StorageError):
            log.exception("rating the recorded games failed; they wait for the next")

    async def _rate_through(self, game_id: str) -> None:
        """Rate the waiting games in their order (as rate_games does) up to and including
        `game_id`, and no further: those recorded after it are rated by their own savers, and
        those before it that this rated are remembered, so that their savers, waiting for the
        lock meanwhile, find them rated without a trip to the database. (Rating every game
        waiting let one saver go on rating the games recorded after its own, without bound,
        while the others waited for the lock.)"""
        async with self._lock:
            if self._rated.take(game_id):
                return
            while rated := await self._rate_waiting(game_id):
                for waiting in rated:
                    if waiting != game_id:
                        self._rated.put(waiting, True)
                if rated[-1] == game_id:
                    return


# The games a trip rates at most when rating every waiting game (a start's catching up, a
# rebuild): the saves of every table queue behind a trip, so none may be long.
BATCH = 64
WAITING = "SELECT game_id FROM unrated ORDER BY queued, game_id LIMIT ?"
UP_TO = (
    "SELECT game_id FROM unrated WHERE (queued, game_id) <= (SELECT queued, game_id FROM unrated"
    " WHERE game_id = ?) ORDER BY queued, game_id LIMIT ?"
)


def rate_in_order(connection: sqlite3.Connection, up_to: str | None) -> list[str]:
    """In the database's thread, so that rating a game is no trip of its own (four, when each
    query was one): the games waiting, each rated as one INSERT into rating_saves, in order.
    A failure stops there, those before it rated."""
    waiting = (
        _select(connection, UP_TO, (up_to, BATCH))
        if up_to is not None
        else _select(connection, WAITING, (BATCH,))
    )
    rated: list[str] = []
    for row in waiting:
        game_id = str(row["game_id"])
        _rate(connection, game_id)
        rated.append(game_id)
    return rated


def _rate(connection: sqlite3.Connection, game_id: str) -> None:
    results = _select(
        connection,
        "SELECT player_id, platform, channel, total, big_general FROM results"
        " WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    placings = [Placing(r["player_id"], r["total"], bool(r["big_general"])) for r in results]
    found: list[Change] = []
    platform = results[0]["platform"] if results else ""
    if len(placings) > 1:  # a game of one seat rates no one (core.ratings.rate)
        scopes = (results[0]["channel"], EVERYWHERE)
        ids = sorted({rated_id(p.player_id) for p in placings})
        found = changes(placings, scopes, _stored(connection, platform, scopes, ids))
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
    connection.execute(
        "INSERT INTO rating_saves (game_id, changes, saved_at) VALUES (?, ?, ?)",
        (game_id, orjson.dumps(rows).decode(), time.time()),
    ).close()


def _stored(
    connection: sqlite3.Connection, platform: str, scopes: tuple[str, ...], ids: list[str]
) -> dict[tuple[str, str], Rating]:
    marks = ",".join("?" * len(ids))
    rows = _select(
        connection,
        "SELECT scope, player_id, mu, sigma, games, best FROM ratings WHERE platform = ?"
        f" AND scope IN (?, ?) AND player_id IN ({marks})",
        (platform, *scopes, *ids),
    )
    return {(r["scope"], r["player_id"]): rating_of(r) for r in rows}


def _select(
    connection: sqlite3.Connection, sql: str, params: tuple[Any, ...]
) -> list[dict[str, Any]]:
    cursor = connection.execute(sql, params)
    try:
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    finally:
        cursor.close()
