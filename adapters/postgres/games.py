"""The games' rows and logs on PostgreSQL: read, set aside as unreadable, and saved with their
events and (for a recorded game) results in one transaction."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from typing import Any

import asyncpg

from adapters.postgres.connections import PostgresConnections, dumps
from adapters.postgres.notices import PostgresNotices
from adapters.postgres.ratings import PostgresRatings
from core.errors import ErrorCode, GameError
from core.events import RECORDED_ENDS, EndReason, Event, event_from_dict, event_to_dict
from core.identity import ChannelKey
from core.invariants import check_row
from core.ports import read_snapshot
from core.snapshot import game_to_dict
from core.table import Game, Phase

log = logging.getLogger(__name__)

# The phase of a game set aside because its snapshot cannot be read (see _readable).
QUARANTINED = "quarantined"
# A game that takes its channel: neither finished nor set aside (the unique index's condition).
ACTIVE = "phase NOT IN ('finished', 'quarantined')"
GAME_ROW = "SELECT id, channel, phase, version, snapshot FROM games"


class PostgresGames:
    """The games on the repository's connections (or the held lock's); handed the ratings,
    which rate a recorded game in the transaction that records it, and the notices, which
    announce each save in its transaction."""

    def __init__(
        self, connections: PostgresConnections, ratings: PostgresRatings, notices: PostgresNotices
    ) -> None:
        self._connections = connections
        self._ratings = ratings
        self._notices = notices

    async def active_game(self, channel: ChannelKey) -> Game | None:
        return await self._one_game(f"{GAME_ROW} WHERE channel = $1 AND {ACTIVE}", str(channel))

    async def active_games(self, platform: str) -> list[Game]:
        """Every unfinished game of a platform (to resume computer turns and timers at start-up)."""
        rows = await self._connections.fetch(
            f"{GAME_ROW} WHERE {ACTIVE} AND starts_with(channel, $1) ORDER BY created_at, id",
            f"{platform}:",
        )
        return [game for row in rows if (game := await self._read(row)) is not None]

    async def last_finished(self, channel: ChannelKey) -> Game | None:
        """The channel's most recently finished game."""
        return await self._one_game(
            f"{GAME_ROW} WHERE channel = $1 AND phase = 'finished'"
            " ORDER BY finished_at DESC LIMIT 1",
            str(channel),
        )

    async def get_game(self, game_id: str) -> Game | None:
        return await self._one_game(
            f"{GAME_ROW} WHERE id = $1 AND phase <> $2", game_id, QUARANTINED
        )

    async def _one_game(self, sql: str, *params: Any) -> Game | None:
        """The first readable game the query finds: one set aside no longer matches it."""
        while True:
            async with self._connections.connection() as connection:
                row = await connection.fetchrow(sql, *params)
            if row is None:
                return None
            game = await self._read(row)
            if game is not None:
                return game

    async def _read(self, row: asyncpg.Record) -> Game | None:
        """The game of a GAME_ROW row; a snapshot that cannot be read (a missing or unknown
        field, a bad value) or holds a game the bot cannot play (one that breaks
        core.invariants, or not its row's) is quarantined and None returned, so that one bad
        row stops neither the start-up nor the other tables."""
        try:
            game = read_snapshot(json.loads(row["snapshot"]))
            check_row(game, row["id"], row["channel"], row["phase"], row["version"])
        except Exception as error:
            await self._quarantine(row["id"], row["phase"], row["version"], error)
            return None
        return game

    async def _quarantine(self, game_id: str, phase: str, version: int, error: Exception) -> None:
        """Set the row aside (kept for inspection, never deleted); the process whose update
        took logs it, so it is logged once whichever processes read it."""
        reason = f"{type(error).__name__}: {error}"
        async with self._connections.connection() as connection:
            channel = await connection.fetchval(
                "UPDATE games SET quarantined_from = phase, phase = $1, quarantine_reason = $2,"
                " updated_at = clock_timestamp() WHERE id = $3 AND phase = $4 AND version = $5"
                " RETURNING channel",
                QUARANTINED, reason, game_id, phase, version,
            )  # fmt: skip
        if channel is not None:
            log.error(
                "game %s in %s cannot be read and was quarantined (%s phase kept in the"
                " database): %s",
                game_id,
                channel,
                phase,
                reason,
            )

    async def quarantined(self, channel: ChannelKey) -> str | None:
        async with self._connections.connection() as connection:
            found = await connection.fetchval(
                "SELECT id FROM games AS q WHERE channel = $1 AND phase = $2"
                " AND quarantined_from <> 'finished' AND NOT EXISTS (SELECT 1 FROM games AS n"
                " WHERE n.channel = q.channel AND n.phase <> $2 AND n.created_at >= q.updated_at)"
                " ORDER BY updated_at DESC LIMIT 1",
                str(channel),
                QUARANTINED,
            )
        return None if found is None else str(found)

    async def events(self, game_id: str) -> list[Event]:
        """The game's whole log in order; a game can be replayed from it."""
        rows = await self._connections.fetch(
            "SELECT data FROM events WHERE game_id = $1 ORDER BY seq", game_id
        )
        return [event_from_dict(json.loads(row[0])) for row in rows]

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        """Snapshot, events and (for a completed game) results in one transaction.

        A new game (previous_version None) in a channel that has an unfinished one, or with a
        taken id, is GameError GAME_EXISTS; a stored version other than `previous_version` is
        GameError STALE. Either way nothing is written."""
        now = time.time()
        snapshot = dumps(game_to_dict(game))
        logged = [(e.kind, dumps(event_to_dict(e))) for e in events]  # fails before any write
        finished_at = now if game.phase is Phase.FINISHED else None
        reason = game.end_reason.value if game.end_reason else None
        async with self._connections.transaction() as connection:
            if previous_version is None:
                try:
                    await connection.execute(
                        "INSERT INTO games (id, channel, phase, version, snapshot, created_at,"
                        " updated_at, finished_at, end_reason) VALUES ($1, $2, $3, $4, $5::jsonb,"
                        " to_timestamp($6::float8), to_timestamp($6::float8),"
                        " to_timestamp($7::float8), $8)",
                        game.id, str(game.channel), game.phase.value, game.version, snapshot,
                        now, finished_at, reason,
                    )  # fmt: skip
                except asyncpg.UniqueViolationError as error:
                    raise GameError(ErrorCode.GAME_EXISTS) from error
                seq = 0
            else:
                updated = await connection.fetchval(
                    "UPDATE games SET phase = $1, version = $2, snapshot = $3::jsonb,"
                    " updated_at = to_timestamp($4::float8),"
                    " finished_at = to_timestamp($5::float8), end_reason = $6"
                    " WHERE id = $7 AND version = $8 RETURNING true",
                    game.phase.value, game.version, snapshot, now, finished_at, reason,
                    game.id, previous_version,
                )  # fmt: skip
                if not updated:
                    raise GameError(ErrorCode.STALE)
                # The game's row is locked by the update: no other save appends meanwhile.
                seq = await connection.fetchval(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1", game.id
                )
            await connection.executemany(
                "INSERT INTO events (game_id, seq, version, kind, data, at)"
                " VALUES ($1, $2, $3, $4, $5::jsonb, to_timestamp($6::float8))",
                [
                    (game.id, seq + n, game.version, kind, data, now)
                    for n, (kind, data) in enumerate(logged, start=1)
                ],
            )
            if game.end_reason in RECORDED_ENDS:
                await self._record_results(connection, game, now)
                await self._ratings.rate_recorded(connection)
            await self._notices.announce(connection, str(game.channel), game.id, game.version)

    async def _record_results(self, connection: asyncpg.Connection, game: Game, now: float) -> None:
        big_general = {game.winners[0]} if game.end_reason is EndReason.BIG_GENERAL else set()
        await connection.executemany(
            "INSERT INTO results (game_id, player_id, platform, channel, name, seat, total, boxes,"
            " winner, left_table, big_general, end_reason, finished_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,"
            " to_timestamp($13::float8))",
            [
                (
                    game.id,
                    seat.player.id,
                    game.channel.platform,
                    str(game.channel),
                    seat.player.name,
                    index,
                    seat.total,
                    list(seat.scores),
                    seat.player.id in game.winners,
                    not seat.active,
                    seat.player.id in big_general,
                    game.end_reason.value if game.end_reason else "",
                    now,
                )
                for index, seat in enumerate(game.seats)
            ],
        )
        await connection.execute(
            "INSERT INTO unrated (game_id, queued) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            game.id,
            now,
        )
