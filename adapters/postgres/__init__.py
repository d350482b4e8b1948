"""PostgreSQL storage of games (asyncpg): the same port as SQLite, for several bot processes.

Chosen by `GENERAL_DATABASE_URL=postgresql://…`; SQLite stays the default for one process.
"""

from adapters.postgres.connections import lock_key
from adapters.postgres.repository import PostgresRepository

__all__ = ["PostgresRepository", "lock_key"]
