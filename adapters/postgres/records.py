"""Leaderboards, player statistics and history, computed in SQL over the results table.

The same answers as the SQLite records (ties ordered by code point, the latest name a player
played under), with one deliberate difference: `find_player` compares names with PostgreSQL's
`lower()`, which folds every letter (Cyrillic too), where SQLite's folds ASCII only.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from adapters.postgres.connections import PostgresConnections, dumps
from core.boxes import ALL_BOXES
from core.identity import COMPUTER_PREFIX, ChannelKey
from core.records import (
    LUCK_GAMES,
    Fortune,
    LuckOrder,
    PastGame,
    PlayerStats,
    Standing,
    Weighed,
    names_a_level,
)

# A player's name on a leaderboard or in their statistics: the one they last played under.
LATEST_NAME = "(array_agg(name ORDER BY finished_at DESC))[1]"
WINS = "COUNT(*) FILTER (WHERE winner)"
# Whom a result counts for (core.ratings.rated_id): a person, or a computer's level, whichever
# seat it played ("cpu-master-2" is "cpu-master"), as the rating board counts them.
RATED = (
    f"CASE WHEN starts_with(player_id, '{COMPUTER_PREFIX}')"
    " THEN regexp_replace(player_id, '-[^-]*$', '') ELSE player_id END"
)


class PostgresRecords:
    """The results table's readings, on the repository's connections (or the held lock's)."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections

    async def _fetch(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        return await self._connections.fetch(sql, *params)

    async def leaderboard(
        self,
        platform: str,
        channel: ChannelKey | None,
        since: float | None,
        limit: int = 10,
        *,
        until: float | None = None,
    ) -> list[Standing]:
        """People, and computers by level (as the rating board counts them)."""
        where, params = _scope(platform, channel, since, until)
        n = len(params)
        rows = await self._fetch(
            f"""
            SELECT {RATED} AS rated, {LATEST_NAME} AS name, COUNT(*) AS games, {WINS} AS wins,
                   AVG(total)::float8 AS average, MAX(total) AS best
            FROM results WHERE {where}
            GROUP BY rated
            ORDER BY wins DESC, {WINS}::float8 / COUNT(*) DESC, average DESC,
                     ({RATED}) COLLATE "C"
            LIMIT ${n + 1}
            """,
            *params,
            limit,
        )
        return [
            Standing(r["rated"], r["name"], r["games"], r["wins"], r["average"], r["best"])
            for r in rows
        ]

    async def player_stats(
        self, platform: str, player_id: str, channel: ChannelKey | None
    ) -> PlayerStats | None:
        """A person's statistics, or a computer level's (`cpu-master`: every seat it played)."""
        where, params = _scope(platform, channel, None)
        n = len(params) + 1
        level = names_a_level(player_id)
        who = f"starts_with(player_id, ${n})" if level else f"player_id = ${n}"
        # boxes is an integer[]: PostgreSQL counts from 1, the sheet from 0.
        averages = ", ".join(
            f"AVG(boxes[{box.index + 1}])::float8 AS box{box.index}" for box in ALL_BOXES
        )
        general = f"boxes[{ALL_BOXES[-1].index + 1}]"
        rows = await self._fetch(
            f"""
            SELECT {LATEST_NAME} AS name, COUNT(*) AS games, {WINS} AS wins,
                   AVG(total)::float8 AS average, MAX(total) AS best,
                   COUNT(*) FILTER (WHERE {general} = 60) AS small_generals,
                   COUNT(*) FILTER (WHERE big_general) AS big_generals,
                   AVG(accuracy)::float8 AS accuracy, AVG(luck_dice)::float8 AS dice,
                   AVG(luck_decisions)::float8 AS decisions, {averages}
            FROM results WHERE {where} AND {who}
            """,
            *params,
            f"{player_id}-" if level else player_id,
        )
        row = rows[0] if rows else None
        if row is None or not row["games"]:
            return None
        return PlayerStats(
            player_id=player_id,
            name=row["name"],
            games=row["games"],
            wins=row["wins"],
            average=row["average"],
            best=row["best"],
            small_generals=row["small_generals"] or 0,
            big_generals=row["big_generals"] or 0,
            box_averages={
                box: row[f"box{box.index}"]
                for box in ALL_BOXES
                if row[f"box{box.index}"] is not None
            },
            accuracy=row["accuracy"],
            dice=row["dice"],
            decisions=row["decisions"],
        )

    async def luck_board(
        self,
        platform: str,
        channel: ChannelKey | None,
        since: float | None,
        order: LuckOrder,
        limit: int = 10,
        *,
        until: float | None = None,
    ) -> list[Fortune]:
        where, params = _scope(platform, channel, since, until)
        n = len(params)
        by = "dice" if order is LuckOrder.DICE else "decisions"
        rows = await self._fetch(
            f"""
            SELECT player_id, {LATEST_NAME} AS name, COUNT(*) AS games,
                   AVG(luck_dice)::float8 AS dice, AVG(luck_decisions)::float8 AS decisions
            FROM results WHERE {where} AND luck_dice IS NOT NULL
            GROUP BY player_id HAVING COUNT(*) >= ${n + 1}
            ORDER BY {by} DESC, games DESC, player_id COLLATE "C"
            LIMIT ${n + 2}
            """,
            *params,
            LUCK_GAMES,
            limit,
        )
        return [
            Fortune(r["player_id"], r["name"], r["games"], r["dice"], r["decisions"]) for r in rows
        ]

    async def find_player(self, platform: str, channel: ChannelKey, name: str) -> str | None:
        """A player of this channel by the name they last played under (case-insensitive)."""
        rows = await self._fetch(
            "SELECT player_id FROM results WHERE channel = $1 AND lower(name) = lower($2)"
            " ORDER BY finished_at DESC LIMIT 1",
            str(channel),
            name.strip().lstrip("@"),
        )
        return str(rows[0]["player_id"]) if rows else None

    async def history(self, channel: ChannelKey, limit: int = 10) -> list[PastGame]:
        rows = await self._fetch(
            """
            SELECT r.game_id, extract(epoch FROM r.finished_at)::float8 AS finished_at,
                   r.end_reason, r.name, r.total, r.winner
            FROM (SELECT DISTINCT game_id, finished_at FROM results WHERE channel = $1
                  ORDER BY finished_at DESC LIMIT $2) AS recent
            JOIN results AS r ON r.game_id = recent.game_id
            ORDER BY recent.finished_at DESC, r.game_id COLLATE "C", r.seat
            """,
            str(channel),
            limit,
        )
        games: dict[str, PastGame] = {}
        for r in rows:
            past = games.get(r["game_id"]) or PastGame(
                r["game_id"], r["finished_at"], r["end_reason"], ()
            )
            entry = (r["name"], r["total"], bool(r["winner"]))
            games[r["game_id"]] = PastGame(
                past.game_id, past.finished_at, past.end_reason, (*past.players, entry)
            )
        return list(games.values())

    async def set_weighed(self, game_id: str, weighed: dict[str, Weighed]) -> None:
        async with self._connections.transaction() as connection:
            await connection.executemany(
                "UPDATE results SET accuracy = $1, luck_dice = $2, luck_decisions = $3"
                " WHERE game_id = $4 AND player_id = $5",
                [
                    (w.accuracy, w.dice, w.decisions, game_id, player_id)
                    for player_id, w in weighed.items()
                ],
            )

    async def results(self, game_id: str) -> list[dict[str, Any]]:
        """A game's results rows in seating order, shaped as SQLite's: the same keys, boxes as
        JSON text, the flags as 0/1 and finished_at in Unix seconds."""
        rows = await self._fetch(
            "SELECT game_id, player_id, platform, channel, name, seat, total, boxes,"
            " winner::int AS winner, left_table::int AS left_table,"
            " big_general::int AS big_general, end_reason,"
            " extract(epoch FROM finished_at)::float8 AS finished_at, accuracy, luck_dice,"
            " luck_decisions"
            " FROM results WHERE game_id = $1 ORDER BY seat",
            game_id,
        )
        return [{**dict(row), "boxes": dumps(list(row["boxes"]))} for row in rows]


def _scope(
    platform: str, channel: ChannelKey | None, since: float | None, until: float | None = None
) -> tuple[str, tuple[Any, ...]]:
    """A channel's results, or (channel None) every chat's of the platform; optionally those
    that finished from `since` and before `until`."""
    clauses: list[str] = ["platform = $1"]
    params: list[Any] = [platform]
    if channel is not None:
        params.append(str(channel))
        clauses.append(f"channel = ${len(params)}")
    if since is not None:
        params.append(float(since))
        clauses.append(f"finished_at >= to_timestamp(${len(params)}::float8)")
    if until is not None:
        params.append(float(until))
        clauses.append(f"finished_at < to_timestamp(${len(params)}::float8)")
    return " AND ".join(clauses), tuple(params)
