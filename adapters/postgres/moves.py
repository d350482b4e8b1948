"""A chat's move to a new id (a Telegram group become a supergroup) on PostgreSQL: its games,
boards, results, ratings, settings, subscriptions, season ends and tournaments follow it, in
one transaction."""

from __future__ import annotations

import json

from adapters.postgres.connections import PostgresConnections, dumps
from adapters.postgres.games import ACTIVE
from adapters.postgres.tournaments import move_tournaments
from core.identity import ChannelKey


class PostgresMoves:
    """Moves chats on the repository's connections (or the held lock's)."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> None:
        """In one transaction; the moving games' rows are locked, so a move racing another
        process's finds nothing left to move."""
        ChannelKey(platform, old_chat), ChannelKey(platform, new_chat)  # refuses a ':' in either
        old_prefix, new_prefix = f"{platform}:{old_chat}:", f"{platform}:{new_chat}:"
        async with self._connections.transaction() as connection:
            moving = [
                row["id"]
                for row in await connection.fetch(
                    "SELECT id FROM games AS g WHERE starts_with(channel, $1)"
                    f" AND NOT ({ACTIVE} AND EXISTS (SELECT 1 FROM games AS t"
                    " WHERE t.phase NOT IN ('finished', 'quarantined')"
                    " AND t.channel = $2 || substr(g.channel, length($1) + 1)))"
                    " FOR UPDATE",
                    old_prefix,
                    new_prefix,
                )
            ]
            boards = await connection.fetch(
                "SELECT game_id, ref FROM boards WHERE game_id = ANY($1::text[]) FOR UPDATE", moving
            )
            await connection.executemany(
                "UPDATE boards SET ref = $2 WHERE game_id = $1",
                [
                    (row["game_id"], ref)
                    for row in boards
                    if (ref := _moved_ref(row["ref"], old_chat, new_chat)) is not None
                ],
            )
            await connection.execute(
                "UPDATE games SET channel = $2 || substr(channel, length($1) + 1),"
                " snapshot = CASE WHEN jsonb_typeof(snapshot -> 'channel') = 'object'"
                " THEN jsonb_set(snapshot, '{channel,chat}', to_jsonb($3::text)) ELSE snapshot END"
                " WHERE id = ANY($4::text[])",
                old_prefix, new_prefix, new_chat, moving,
            )  # fmt: skip
            await connection.execute(
                "UPDATE results SET channel = $2 || substr(channel, length($1) + 1)"
                " WHERE starts_with(channel, $1)",
                old_prefix,
                new_prefix,
            )
            for table, key in (("ratings", "platform"), ("rating_changes", "game_id")):
                await connection.execute(  # a rating the new chat has already stays behind
                    f"UPDATE {table} AS r SET scope = $2 || substr(scope, length($1) + 1)"
                    f" WHERE starts_with(scope, $1) AND NOT EXISTS (SELECT 1 FROM {table} AS n"
                    f" WHERE n.{key} = r.{key} AND n.player_id = r.player_id"
                    " AND n.scope = $2 || substr(r.scope, length($1) + 1))",
                    old_prefix,
                    new_prefix,
                )
            await connection.execute(
                "UPDATE chat_settings SET chat = $2 WHERE chat = $1"
                " AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat = $2)",
                old_prefix[:-1],
                new_prefix[:-1],
            )
            await connection.execute(  # one who asked in both chats keeps the new chat's
                "UPDATE subscriptions AS s SET chat = $2 WHERE chat = $1 AND NOT EXISTS"
                " (SELECT 1 FROM subscriptions AS n WHERE n.chat = $2"
                " AND n.player_id = s.player_id)",
                old_prefix[:-1],
                new_prefix[:-1],
            )
            await connection.execute("DELETE FROM subscriptions WHERE chat = $1", old_prefix[:-1])
            await connection.execute(  # a season the new chat has told already stays told
                "UPDATE season_ends AS e SET channel = $2 || substr(channel, length($1) + 1)"
                " WHERE starts_with(channel, $1) AND NOT EXISTS (SELECT 1 FROM season_ends AS n"
                " WHERE n.season = e.season"
                " AND n.channel = $2 || substr(e.channel, length($1) + 1))",
                old_prefix,
                new_prefix,
            )
            await move_tournaments(connection, platform, old_chat, new_chat)


def _moved_ref(ref: str, old_chat: str, new_chat: str) -> str | None:
    """A board reference (JSON with the chat's id, see adapters.chat.boards) pointed at the new
    chat; None where it names another chat or is not such JSON."""
    try:
        data = json.loads(ref)
    except ValueError:
        return None
    if not isinstance(data, dict) or str(data.get("chat")) != old_chat:
        return None
    numeric = isinstance(data["chat"], int) and new_chat.lstrip("-").isdigit()
    data["chat"] = int(new_chat) if numeric else new_chat
    return dumps(data)
