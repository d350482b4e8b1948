"""Forgetting a person on PostgreSQL (see core.forget), in one transaction: the games that name
them are locked, rewritten in Python and written back with their events, their results,
ratings and rating changes move to the anonymous id, and a chat whose id is theirs moves too."""

from __future__ import annotations

import json
from typing import Any

import asyncpg

from adapters.postgres.connections import PostgresConnections, dumps
from adapters.postgres.moves import PostgresMoves
from core.forget import FORGOTTEN_PREFIX, Forgotten, forgettable, scrub_event, scrub_snapshot
from core.identity import PlayerRef

ACTIVE_PHASES = ("lobby", "playing")


class PostgresForget:
    """Forgets people on the repository's connections, under a lock of its own; handed the
    chat moves, since a person's own chat moves to the alias's id."""

    def __init__(self, connections: PostgresConnections, moves: PostgresMoves) -> None:
        self._connections = connections
        self._moves = moves

    async def forget_player(self, platform: str, player_id: str, alias: PlayerRef) -> Forgotten:
        """In one transaction (the lock's, so that the chat move shares it); the games that
        name the person are locked first, so a save racing it waits, then finds its version
        gone (a game in progress gets a new one). ValueError for a computer."""
        if not forgettable(player_id) or not alias.id.startswith(FORGOTTEN_PREFIX):
            raise ValueError(f"{player_id!r} cannot be forgotten")
        prefix = f"{platform}:"
        needle = json.dumps(player_id)
        async with (
            self._connections.channel_lock(f"forget:{platform}"),
            self._connections.transaction() as connection,
        ):
            rows = await connection.fetch(
                "SELECT id, phase, version, snapshot::text AS snapshot FROM games"
                " WHERE starts_with(channel, $1) AND strpos(snapshot::text, $2) > 0"
                " ORDER BY id FOR UPDATE",
                prefix,
                needle,
            )
            rewritten: set[str] = set()
            for row in rows:
                new = _scrubbed_snapshot(row, player_id, alias)
                if new is None:
                    continue
                await connection.execute(
                    "UPDATE games SET snapshot = $2::jsonb, version = $3 WHERE id = $1",
                    row["id"],
                    dumps(new),
                    new.get("version", row["version"]),
                )
                rewritten.add(row["id"])
            events = await connection.fetch(
                "SELECT game_id, seq, data::text AS data FROM events"
                " WHERE strpos(data::text, $2) > 0 AND game_id IN"
                " (SELECT id FROM games WHERE starts_with(channel, $1))",
                prefix,
                needle,
            )
            changed = [
                (row["game_id"], row["seq"], dumps(event))
                for row in events
                if (event := scrub_event(json.loads(row["data"]), player_id, alias)) is not None
            ]
            await connection.executemany(
                "UPDATE events SET data = $3::jsonb WHERE game_id = $1 AND seq = $2", changed
            )
            rewritten |= {game_id for game_id, _, _ in changed}
            results = await _count(
                connection,
                "UPDATE results SET player_id = $3, name = $4"
                " WHERE platform = $1 AND player_id = $2",
                platform,
                player_id,
                alias.id,
                alias.name,
            )
            ratings = await _count(
                connection,
                "UPDATE ratings SET player_id = $3 WHERE platform = $1 AND player_id = $2",
                platform,
                player_id,
                alias.id,
            )
            await connection.execute(
                "UPDATE rating_changes SET player_id = $3 WHERE platform = $1 AND player_id = $2",
                platform,
                player_id,
                alias.id,
            )
            await connection.execute(
                "DELETE FROM subscriptions WHERE player_id = $2 AND starts_with(chat, $1 || ':')",
                platform,
                player_id,
            )
            if ":" not in player_id:  # a private chat has the person's id: it moves too
                await self._moves.move_chat(platform, player_id, alias.id)
        return Forgotten(results, ratings, len(rewritten))


def _scrubbed_snapshot(
    row: asyncpg.Record, player_id: str, alias: PlayerRef
) -> dict[str, Any] | None:
    """The snapshot rewritten (an active game's version moved on), None where it does not name
    the person."""
    data = json.loads(row["snapshot"])
    new = scrub_snapshot(data, player_id, alias) if isinstance(data, dict) else None
    if new is not None and row["phase"] in ACTIVE_PHASES:
        new["version"] = row["version"] + 1
    return new


async def _count(connection: asyncpg.Connection, sql: str, *params: Any) -> int:
    """The rows an UPDATE changed ("UPDATE 3")."""
    status = await connection.execute(sql, *params)
    return int(status.split()[-1])
