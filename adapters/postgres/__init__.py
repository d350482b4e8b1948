"""PostgreSQL storage of games (asyncpg): the same port as SQLite, for several bot processes.

Chosen by `GENERAL_DATABASE_URL=postgresql://…`; SQLite stays the default for one process.
"""

from adapters.postgres.repository import PostgresRepository, lock_key

__all__ = ["PostgresRepository", "lock_key"]
