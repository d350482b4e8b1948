"""Forgetting a person on SQLite (see core.forget): read what names them, rewrite it in Python,
write it all back as one INSERT into the forgets view (schema 7), so one transaction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aiosqlite
import orjson

from adapters.sqlite.moves import SqliteMoves
from adapters.sqlite.recent import Recent
from adapters.sqlite.records import read_rows
from core.forget import FORGOTTEN_PREFIX, Forgotten, forgettable, scrub_event, scrub_snapshot
from core.identity import PlayerRef
from core.table import Game

ACTIVE_PHASES = ("lobby", "playing")
TRIES = 5  # a game in progress saved meanwhile: read it again


class SqliteForget:
    """Forgets people on the repository's connection; handed the copies a forgetting makes
    stale: the active games by channel, the logs of games just recorded, and (a person's own
    chat moving to the alias's id) those a chat's move does."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        writable: Callable[[], None],
        active: dict[str, Game],
        logs: Recent[str],
        moves: SqliteMoves,
    ) -> None:
        self._db = connection
        self._writable = writable  # refuses a write once the file is gone
        self._active = active
        self._logs = logs
        self._moves = moves

    async def _rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        return await read_rows(self._db, sql, params)

    async def forget_player(self, platform: str, player_id: str, alias: PlayerRef) -> Forgotten:
        """Move the person's results, ratings and rating changes to `alias`, and rewrite every
        stored game of the platform that names them; a game in progress saved meanwhile makes
        it read again. ValueError for a computer (or an id already forgotten)."""
        if not forgettable(player_id) or not alias.id.startswith(FORGOTTEN_PREFIX):
            raise ValueError(f"{player_id!r} cannot be forgotten")
        prefix = f"{platform}:"
        own = None if ":" in player_id else (f"{prefix}{player_id}:", f"{prefix}{alias.id}:")
        for attempt in range(TRIES):
            games, events, channels = await self._scrubbed(prefix, player_id, alias)
            moved = []
            if own is not None:
                moved = await self._rows(
                    "SELECT id FROM games WHERE substr(channel, 1, ?) = ?", (len(own[0]), own[0])
                )
            self._writable()
            try:
                await self._db.execute_fetchall(
                    "INSERT INTO forgets (platform, player_id, alias, name, own_prefix,"
                    " alias_prefix, games, events) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        platform,
                        player_id,
                        alias.id,
                        alias.name,
                        own[0] if own else None,
                        own[1] if own else None,
                        orjson.dumps(games).decode(),
                        orjson.dumps(events).decode(),
                    ),
                )
            except aiosqlite.IntegrityError as error:
                if str(error) != "stale" or attempt == TRIES - 1:
                    raise
                continue
            finally:  # what changed is read again from the file
                for key in channels:
                    self._active.pop(key, None)
                for game_id in {g["id"] for g in games} | {e["game_id"] for e in events}:
                    self._logs.drop(str(game_id))
                if own is not None:
                    self._moves.reread(own, [str(row["id"]) for row in moved])
            break
        counts = await self._rows(
            "SELECT (SELECT COUNT(*) FROM results WHERE platform = ? AND player_id = ?) AS results,"
            " (SELECT COUNT(*) FROM ratings WHERE platform = ? AND player_id = ?) AS ratings",
            (platform, alias.id, platform, alias.id),
        )
        rewritten = {g["id"] for g in games} | {e["game_id"] for e in events}
        return Forgotten(counts[0]["results"], counts[0]["ratings"], len(rewritten))

    async def _scrubbed(
        self, prefix: str, player_id: str, alias: PlayerRef
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], set[str]]:
        """The platform's games and events that name the person, rewritten; the channels of
        the games in progress among them."""
        needle = orjson.dumps(player_id).decode()
        rows = await self._rows(
            "SELECT id, channel, phase, version, snapshot FROM games"
            " WHERE substr(channel, 1, ?) = ? AND instr(snapshot, ?) > 0",
            (len(prefix), prefix, needle),
        )
        games: list[dict[str, Any]] = []
        channels: set[str] = set()
        for row in rows:
            try:
                data = orjson.loads(row["snapshot"])
            except orjson.JSONDecodeError:
                continue  # set aside as unreadable: kept as it was, for inspection
            new = scrub_snapshot(data, player_id, alias) if isinstance(data, dict) else None
            if new is None:
                continue
            version = row["version"]
            if row["phase"] in ACTIVE_PHASES:
                version += 1  # a save made from the game as it was is now stale
                new["version"] = version
                channels.add(str(row["channel"]))
            games.append(
                {
                    "id": row["id"],
                    "was": row["version"],
                    "version": version,
                    "snapshot": orjson.dumps(new).decode(),
                }
            )
        events: list[dict[str, Any]] = []
        found = await self._rows(
            "SELECT game_id, seq, data FROM events WHERE instr(data, ?) > 0 AND game_id IN"
            " (SELECT id FROM games WHERE substr(channel, 1, ?) = ?)",
            (needle, len(prefix), prefix),
        )
        for row in found:
            event = scrub_event(orjson.loads(row["data"]), player_id, alias)
            if event is not None:
                events.append(
                    {
                        "game_id": row["game_id"],
                        "seq": row["seq"],
                        "data": orjson.dumps(event).decode(),
                    }
                )
        return games, events, channels
