"""Which message shows each game's board, on PostgreSQL: read from the server each time, since
another process may have claimed it."""

from __future__ import annotations

from adapters.postgres.connections import PostgresConnections


class PostgresBoards:
    """The boards table, on the repository's connections (or the held lock's)."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections

    async def board(self, game_id: str) -> str | None:
        """The front end's reference to the message that shows this game's board, if any."""
        async with self._connections.connection() as connection:
            ref = await connection.fetchval("SELECT ref FROM boards WHERE game_id = $1", game_id)
        return None if ref is None else str(ref)

    async def set_board(self, game_id: str, ref: str) -> None:
        async with self._connections.connection() as connection:
            await connection.execute(
                "INSERT INTO boards (game_id, ref) VALUES ($1, $2)"
                " ON CONFLICT (game_id) DO UPDATE SET ref = excluded.ref",
                game_id,
                ref,
            )

    async def claim_board(self, game_id: str, expected: str, ref: str) -> bool:
        async with self._connections.connection() as connection:
            claimed = await connection.fetchval(
                "UPDATE boards SET ref = $3 WHERE game_id = $1 AND ref = $2 RETURNING game_id",
                game_id,
                expected,
                ref,
            )
        return claimed is not None
