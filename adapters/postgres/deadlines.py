"""Turn timers' leases on PostgreSQL: each game's deadline is fired by one process at a time,
and still fired when the process that held it died."""

from __future__ import annotations

from adapters.postgres.connections import PostgresConnections


class PostgresDeadlines:
    """The deadline_leases table, on the repository's connections (or the held lock's)."""

    def __init__(self, connections: PostgresConnections) -> None:
        self._connections = connections

    async def claim_deadline(self, game_id: str, owner: str, lease_seconds: float) -> bool:
        """Claim (or renew) the right to fire this game's deadline for `lease_seconds`.

        True when no one held it, the holder's lease has expired (say the process died), or
        `owner` already held it (its lease then runs `lease_seconds` from now); False while
        another owner's lease runs. The server's clock decides, so processes on machines whose
        clocks differ still agree. Concurrent claims: exactly one wins."""
        async with self._connections.connection() as connection:
            won = await connection.fetchval(
                "INSERT INTO deadline_leases AS lease (game_id, owner, expires_at)"
                " VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::float8))"
                " ON CONFLICT (game_id) DO UPDATE"
                " SET owner = excluded.owner, expires_at = excluded.expires_at"
                " WHERE lease.expires_at < clock_timestamp() OR lease.owner = excluded.owner"
                " RETURNING true",
                game_id,
                owner,
                float(lease_seconds),
            )
        return bool(won)

    async def release_deadline(self, game_id: str, owner: str) -> None:
        """Give the lease back (after firing, or when the game no longer has a deadline), so
        another process may claim it at once; a lease `owner` does not hold is left alone."""
        async with self._connections.connection() as connection:
            await connection.execute(
                "DELETE FROM deadline_leases WHERE game_id = $1 AND owner = $2", game_id, owner
            )
