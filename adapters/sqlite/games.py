"""The games' rows and logs as the reads take them, and the rows set aside as unreadable."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterable
from typing import Any

import aiosqlite
import orjson

from adapters.sqlite.recent import Recent
from adapters.sqlite.saves import read_log
from core.events import Event, event_from_dict
from core.identity import ChannelKey
from core.invariants import check_row
from core.ports import read_snapshot
from core.table import Game

log = logging.getLogger(__name__)

# The phase of a game set aside because its snapshot cannot be read (see _readable).
QUARANTINED = "quarantined"
# A game that takes its channel: neither finished nor set aside (the unique index's condition).
ACTIVE = "phase NOT IN ('finished', 'quarantined')"
# A game's row as the reads take it: the snapshot, and the columns it must agree with.
GAME_ROW = "SELECT id, channel, phase, version, snapshot FROM games"


class SqliteGames:
    """Reads the games on the repository's connection. It is handed the copies in memory that
    the saves keep: the active games by channel (read from them first, filled on a miss,
    dropped for a game set aside) and the logs of games just recorded (taken once)."""

    def __init__(
        self, connection: aiosqlite.Connection, active: dict[str, Game], logs: Recent[str]
    ) -> None:
        self._db = connection
        self._active = active
        self._logs = logs

    async def active_game(self, channel: ChannelKey) -> Game | None:
        key = str(channel)
        game = self._active.get(key)
        if game is None:
            game = await self._one_game(
                f"{GAME_ROW} WHERE channel = ? AND {ACTIVE}",
                (key,),
            )
            if game is not None:
                self._active.setdefault(key, game)
        return game

    async def active_games(self, platform: str) -> list[Game]:
        """Every unfinished game of a platform (to resume computer turns and timers at start-up)."""
        sql = f"{GAME_ROW} WHERE {ACTIVE} AND substr(channel, 1, ?) = ?"
        prefix = f"{platform}:"
        return await self._readable(await self._db.execute_fetchall(sql, (len(prefix), prefix)))

    async def last_finished(self, channel: ChannelKey) -> Game | None:
        """The channel's most recently finished game."""
        return await self._one_game(
            f"{GAME_ROW} WHERE channel = ?"
            " AND phase = 'finished' ORDER BY finished_at DESC LIMIT 1",
            (str(channel),),
        )

    async def get_game(self, game_id: str) -> Game | None:
        return await self._one_game(
            f"{GAME_ROW} WHERE id = ? AND phase != ?",
            (game_id, QUARANTINED),
        )

    async def _one_game(self, sql: str, params: tuple[Any, ...]) -> Game | None:
        """The first readable game the query finds: one set aside no longer matches it."""
        while rows := list(await self._db.execute_fetchall(sql, params)):
            games = await self._readable(rows[:1])
            if games:
                return games[0]
        return None

    async def _readable(self, rows: Iterable[sqlite3.Row | tuple[Any, ...]]) -> list[Game]:
        """The games of GAME_ROW rows; a snapshot that cannot be read (bad JSON, a missing or
        unknown field) or holds a game the bot cannot play (one that breaks core.invariants,
        or not its row's) is quarantined and left out, so that one bad row stops neither the
        start-up nor the other tables."""
        games = []
        for game_id, channel, phase, version, snapshot in rows:
            try:
                game = read_snapshot(orjson.loads(snapshot))
                check_row(game, game_id, channel, phase, version)
                games.append(game)
            except Exception as error:
                await self._quarantine(game_id, phase, version, error)
        return games

    async def _quarantine(self, game_id: str, phase: str, version: int, error: Exception) -> None:
        """Set the row aside (kept for inspection, never deleted) and log it once."""
        reason = f"{type(error).__name__}: {error}"
        sql = (
            "UPDATE games SET quarantined_from = phase, phase = ?, quarantine_reason = ?,"
            " updated_at = ? WHERE id = ? AND phase = ? AND version = ? RETURNING channel"
        )
        rows = list(
            await self._db.execute_fetchall(
                sql, (QUARANTINED, reason, time.time(), game_id, phase, version)
            )
        )
        if rows:
            self._active.pop(str(rows[0][0]), None)
            log.error(
                "game %s in %s cannot be read and was quarantined (%s phase kept in the"
                " database): %s",
                game_id,
                rows[0][0],
                phase,
                reason,
            )

    async def quarantined(self, channel: ChannelKey) -> str | None:
        sql = (
            "SELECT id FROM games AS q WHERE channel = ? AND phase = ?"
            " AND quarantined_from != 'finished' AND NOT EXISTS (SELECT 1 FROM games AS n"
            " WHERE n.channel = q.channel AND n.phase != ? AND n.created_at >= q.updated_at)"
            " ORDER BY updated_at DESC LIMIT 1"
        )
        rows = list(await self._db.execute_fetchall(sql, (str(channel), QUARANTINED, QUARANTINED)))
        return str(rows[0][0]) if rows else None

    async def events(self, game_id: str) -> list[Event]:
        """The game's whole log in order; a game can be replayed from it. A game just recorded
        has it from its last save's group (its review asks at once): no trip."""
        log = self._logs.take(game_id)
        if log is not None:
            return read_log(log)
        sql = "SELECT data FROM events WHERE game_id = ? ORDER BY seq"
        rows = await self._db.execute_fetchall(sql, (game_id,))
        return [event_from_dict(orjson.loads(row[0])) for row in rows]
