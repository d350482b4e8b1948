"""What only SQLite has: PRAGMA user_version migrations, WAL, the refused newer file."""

from __future__ import annotations

import json
import sqlite3
import threading
import traceback
from pathlib import Path

import aiosqlite
import pytest

from adapters.sqlite import SqliteRepository
from adapters.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from core.actions import Join, Open
from core.dice import ScriptedRoller
from core.game import apply, game_to_dict, open_lobby
from tests.storage.tables import ALICE, BOB, CHANNEL, started_pair


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "general.db"


@pytest.fixture
async def repo(db_path: Path):
    repository = await SqliteRepository.open(db_path)
    yield repository
    await repository.close()


def raw(db_path: Path, sql: str, params: tuple = ()) -> list[tuple]:
    with sqlite3.connect(db_path) as connection:
        return connection.execute(sql, params).fetchall()


async def test_migrations_set_user_version(repo: SqliteRepository, db_path: Path) -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 1
    assert raw(db_path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    tables = {name for (name,) in raw(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "events", "results"} <= tables


async def test_journal_mode_is_wal(repo: SqliteRepository, db_path: Path) -> None:
    assert raw(db_path, "PRAGMA journal_mode") == [("wal",)]


async def test_reopening_is_idempotent_and_keeps_the_data(db_path: Path) -> None:
    first = await SqliteRepository.open(db_path)
    table = await started_pair(first)
    await first.close()
    for _ in range(2):
        again = await SqliteRepository.open(db_path)
        try:
            assert raw(db_path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
            assert await again.get_game("g-1") == table.game
            assert await again.events("g-1") == table.log
        finally:
            await again.close()


async def test_a_newer_schema_is_refused_and_the_connection_closed(db_path: Path) -> None:
    with sqlite3.connect(db_path) as connection:
        connection.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    before = set(threading.enumerate())
    with pytest.raises(RuntimeError) as caught:
        await SqliteRepository.open(db_path)
    try:
        assert "newer" in str(caught.value)
        assert raw(db_path, "PRAGMA user_version") == [(SCHEMA_VERSION + 1,)]
        # the refused open must not leave its connection (and aiosqlite's worker thread) behind
        started = [t for t in threading.enumerate() if t not in before]
        for thread in started:
            thread.join(timeout=0.5)
        assert [t for t in started if t.is_alive()] == []
    finally:
        for frame, _ in traceback.walk_tb(caught.tb):  # tidy up a leaked connection, if any
            leaked = frame.f_locals.get("connection")
            if isinstance(leaked, aiosqlite.Connection):
                await leaked.close()


async def test_a_version_1_file_is_upgraded_in_place(db_path: Path) -> None:
    game, _ = open_lobby("g-old", CHANNEL, ALICE, Open())
    with sqlite3.connect(db_path) as connection:
        connection.executescript(MIGRATIONS[0])
        connection.execute("PRAGMA user_version=1")
        connection.execute(
            "INSERT INTO games (id, channel, phase, version, snapshot, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 0, 0)",
            ("g-old", str(CHANNEL), "lobby", 1, json.dumps(game_to_dict(game))),
        )
    upgraded = await SqliteRepository.open(db_path)
    try:
        assert raw(db_path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
        assert await upgraded.active_game(CHANNEL) == game
        joined, more = apply(game, BOB, Join(), ScriptedRoller())
        await upgraded.save(joined, more, game.version)
        assert await upgraded.get_game("g-old") == joined
    finally:
        await upgraded.close()
