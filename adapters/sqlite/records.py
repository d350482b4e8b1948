"""Leaderboards, player statistics and history, computed in SQL over the results table."""

from __future__ import annotations

from typing import Any

import aiosqlite

from core.boxes import ALL_BOXES
from core.identity import COMPUTER_PREFIX, ChannelKey
from core.records import (
    LUCK_GAMES,
    Fortune,
    LuckOrder,
    PastGame,
    PlayerStats,
    Standing,
    names_a_level,
)

# Whom a result counts for (core.ratings.rated_id): a person, or a computer's level, whichever
# seat it played ("cpu-master-2" is "cpu-master"), as the rating board counts them.
RATED = (
    f"CASE WHEN player_id GLOB '{COMPUTER_PREFIX}*' THEN substr(player_id, 1,"
    f" {len(COMPUTER_PREFIX) - 1} + instr(substr(player_id, {len(COMPUTER_PREFIX) + 1}), '-'))"
    " ELSE player_id END"
)
# The name a player last played under (they may have changed it since their best game).
LATEST_NAME = (
    "(SELECT latest.name FROM results AS latest WHERE latest.platform = results.platform"
    " AND latest.player_id = results.player_id ORDER BY latest.finished_at DESC LIMIT 1)"
)


async def read_rows(
    connection: aiosqlite.Connection, sql: str, params: tuple[Any, ...]
) -> list[dict[str, Any]]:
    """Rows as dicts by column name (no row factory to switch on the shared connection)."""
    async with connection.execute(sql, params) as cursor:
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in await cursor.fetchall()]


class SqliteRecords:
    """The results table's readings: the repository's connection serves them."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def _rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        return await read_rows(self._db, sql, params)

    async def results(self, game_id: str) -> list[dict[str, Any]]:
        return await self._rows("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))

    async def leaderboard(
        self,
        platform: str,
        channel: ChannelKey | None,
        since: float | None,
        limit: int = 10,
        *,
        until: float | None = None,
    ) -> list[Standing]:
        where, params = _scope(platform, channel, since, until)
        rows = await self._rows(
            f"""
            SELECT {RATED} AS rated, {LATEST_NAME} AS name, COUNT(*) AS games,
                   SUM(winner) AS wins, AVG(total) AS average, MAX(total) AS best
            FROM results WHERE {where}
            GROUP BY rated
            ORDER BY wins DESC, CAST(wins AS REAL) / games DESC, average DESC, rated
            LIMIT ?
            """,
            (*params, limit),
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
        level = names_a_level(player_id)  # its seats' ids: GLOB finds them by the index
        who = "player_id GLOB ?" if level else "player_id = ?"
        averages = ", ".join(
            f"AVG(json_extract(boxes, '$[{box.index}]')) AS box{box.index}" for box in ALL_BOXES
        )
        general = f"json_extract(boxes, '$[{ALL_BOXES[-1].index}]')"
        rows = await self._rows(
            f"""
            SELECT {LATEST_NAME} AS name, COUNT(*) AS games, SUM(winner) AS wins,
                   AVG(total) AS average, MAX(total) AS best,
                   SUM({general} = 60) AS small_generals, SUM(big_general) AS big_generals,
                   AVG(accuracy) AS accuracy, AVG(luck_dice) AS dice,
                   AVG(luck_decisions) AS decisions, {averages}
            FROM results WHERE {where} AND {who}
            """,
            (*params, f"{player_id}-*" if level else player_id),
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
        by = "dice" if order is LuckOrder.DICE else "decisions"
        rows = await self._rows(
            f"""
            SELECT player_id, {LATEST_NAME} AS name, COUNT(*) AS games,
                   AVG(luck_dice) AS dice, AVG(luck_decisions) AS decisions
            FROM results WHERE {where} AND luck_dice IS NOT NULL
            GROUP BY player_id HAVING COUNT(*) >= ?
            ORDER BY {by} DESC, games DESC, player_id
            LIMIT ?
            """,
            (*params, LUCK_GAMES, limit),
        )
        return [
            Fortune(r["player_id"], r["name"], r["games"], r["dice"], r["decisions"]) for r in rows
        ]

    async def find_player(self, platform: str, channel: ChannelKey, name: str) -> str | None:
        """A player of this channel by the name they last played under (case-insensitive)."""
        rows = await self._rows(
            "SELECT player_id FROM results WHERE channel = ? AND lower(name) = lower(?)"
            " ORDER BY finished_at DESC LIMIT 1",
            (str(channel), name.strip().lstrip("@")),
        )
        return str(rows[0]["player_id"]) if rows else None

    async def history(self, channel: ChannelKey, limit: int = 10) -> list[PastGame]:
        rows = await self._rows(
            """
            SELECT r.game_id, r.finished_at, r.end_reason, r.name, r.total, r.winner
            FROM (SELECT DISTINCT game_id, finished_at FROM results WHERE channel = ?
                  ORDER BY finished_at DESC LIMIT ?) AS recent
            JOIN results AS r ON r.game_id = recent.game_id
            ORDER BY recent.finished_at DESC, r.game_id, r.seat
            """,
            (str(channel), limit),
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


def _scope(
    platform: str, channel: ChannelKey | None, since: float | None, until: float | None = None
) -> tuple[str, tuple[Any, ...]]:
    """A channel's results, or (channel None) every chat's of the platform; optionally those
    that finished from `since` and before `until`."""
    clauses: list[str] = ["platform = ?"]
    params: list[Any] = [platform]
    if channel is not None:
        clauses.append("channel = ?")
        params.append(str(channel))
    if since is not None:
        clauses.append("finished_at >= ?")
        params.append(since)
    if until is not None:
        clauses.append("finished_at < ?")
        params.append(until)
    return " AND ".join(clauses), tuple(params)
