"""The service alone on PostgreSQL beside SQLite: `uv run python -m bench.service_postgres URL`."""

from __future__ import annotations

import asyncio
import sys
import tempfile
import uuid
from pathlib import Path

import asyncpg

from adapters.postgres import PostgresRepository
from adapters.sqlite import SqliteRepository
from bench.service import service_level, warm_strategy

GAMES = (1, 10, 100)
SECONDS, WARMUP = 5.0, 1.0


async def main(url: str) -> None:
    warm_strategy()  # as bench.service does: the figures are the steady state
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        postgres = await PostgresRepository.open(
            f"{url}{'&' if '?' in url else '?'}search_path={schema}"
        )
        with tempfile.TemporaryDirectory() as where:
            sqlite = await SqliteRepository.open(Path(where) / "service.db")
            print("backend     games  actions/s   p50 ms   p95 ms   p99 ms")
            for name, repository in (("sqlite", sqlite), ("postgres", postgres)):
                for games in GAMES:
                    prefix = f"{name}{games}"
                    result = await service_level(repository, games, SECONDS, WARMUP, prefix)
                    print(
                        f"{name:<10} {games:>6} {result.rate:>10.0f} {result.ms(0.5):>8.2f}"
                        f" {result.ms(0.95):>8.2f} {result.ms(0.99):>8.2f}"
                    )
            await sqlite.close()
        await postgres.close()
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


if __name__ == "__main__":
    asyncio.run(
        main(sys.argv[1] if len(sys.argv) > 1 else "postgresql://postgres@127.0.0.1:5432/test")
    )
