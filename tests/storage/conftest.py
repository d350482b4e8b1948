"""The storage contract runs on every backend: SQLite (a file in tmp_path) and PostgreSQL.

PostgreSQL's address comes from GENERAL_TEST_POSTGRES_URL (for instance
postgresql://postgres@127.0.0.1:5432/test); without it the postgres cases are skipped. Each
postgres test gets a schema of its own (t_<random>), reached through the connections'
search_path and dropped afterwards, so tests are isolated and may run in parallel.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from adapters.postgres import PostgresRepository
from adapters.sqlite import SqliteRepository

POSTGRES_URL_VARIABLE = "GENERAL_TEST_POSTGRES_URL"
NO_POSTGRES = f"{POSTGRES_URL_VARIABLE} is not set: no PostgreSQL server to test against"

Repository = SqliteRepository | PostgresRepository
# Tests need no durability: commits need not wait for the disk (DDL is most of the setup).
FAST = {"synchronous_commit": "off"}


class Backend:
    """One store, and a way to open repositories on it (as several processes would)."""

    name: str

    def __init__(self) -> None:
        self.opened: list[Repository] = []

    async def open(self, **options: Any) -> Repository:
        repository = await self._open(**options)
        self.opened.append(repository)
        return repository

    async def _open(self, **options: Any) -> Repository:
        raise NotImplementedError

    async def raw(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows straight from the store, past the repository (SQL both dialects understand)."""
        raise NotImplementedError

    async def close(self) -> None:
        for repository in self.opened:
            await repository.close()


class SqliteBackend(Backend):
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    async def _open(self, **options: Any) -> Repository:
        return await SqliteRepository.open(self.path, **options)

    async def raw(self, sql: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.path) as connection:
            return connection.execute(sql).fetchall()

    async def raw_script(self, sql: str) -> None:
        with sqlite3.connect(self.path) as connection:
            connection.executescript(sql)


class PostgresBackend(Backend):
    name = "postgres"

    def __init__(self, url: str, admin: asyncpg.Connection, schema: str) -> None:
        super().__init__()
        self.url = url
        self.schema = schema
        self.admin = admin  # search_path set to the schema

    @classmethod
    async def create(cls, url: str) -> PostgresBackend:
        schema = f"t_{uuid.uuid4().hex}"
        admin = await asyncpg.connect(url, server_settings=FAST)
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        await admin.execute(f'SET search_path TO "{schema}"')
        return cls(url, admin, schema)

    def settings(self, **extra: str) -> dict[str, str]:
        return {"search_path": self.schema, **FAST, **extra}

    async def _open(self, **options: Any) -> Repository:
        options["server_settings"] = self.settings(**options.get("server_settings", {}))
        return await PostgresRepository.open(self.url, **options)

    async def raw(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.admin.fetch(sql, *params)]

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.admin.execute(f'DROP SCHEMA "{self.schema}" CASCADE')
            await self.admin.close()


def postgres_url() -> str:
    url = os.environ.get(POSTGRES_URL_VARIABLE, "").strip()
    if not url:
        pytest.skip(NO_POSTGRES)
    return url


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    store: Backend
    if request.param == "sqlite":
        store = SqliteBackend(tmp_path / "general.db")
    else:
        store = await PostgresBackend.create(postgres_url())
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def repository(backend: Backend) -> Repository:
    """A repository on a fresh store, closed with it."""
    return await backend.open()


@pytest.fixture
async def postgres() -> AsyncIterator[PostgresBackend]:
    """PostgreSQL only: a fresh schema, no repository opened yet."""
    store = await PostgresBackend.create(postgres_url())
    try:
        yield store
    finally:
        await store.close()
