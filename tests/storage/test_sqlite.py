"""What only SQLite has: PRAGMA user_version migrations, WAL, the refused newer file."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import traceback
from pathlib import Path

import aiosqlite
import pytest

from adapters.sqlite import SqliteRepository
from adapters.sqlite.games import GAME_ROW
from adapters.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from core.actions import Join, Open, Roll
from core.chat_settings import ChatSettings
from core.dice import ScriptedRoller
from core.errors import ErrorCode, GameError
from core.game import apply, open_lobby
from core.identity import ChannelKey
from core.snapshot import game_to_dict
from core.table import Phase
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


async def test_the_games_ended_before_version_8_owe_no_final_message(db_path: Path) -> None:
    """Version 8 marks an ended game's board once its final message is out; the games that
    ended before it had theirs, and the live ones keep their boards."""
    with sqlite3.connect(db_path) as connection:
        connection.executescript(";".join(MIGRATIONS[:7]))
        connection.execute("PRAGMA user_version=7")
        for game_id, phase in (("g-over", "finished"), ("g-live", "playing")):
            connection.execute(
                "INSERT INTO games (id, channel, phase, version, snapshot, created_at,"
                " updated_at) VALUES (?, ?, ?, 1, '{}', 0, 0)",
                (game_id, f"{CHANNEL}{game_id}", phase),
            )
            connection.execute(
                "INSERT INTO boards (game_id, ref) VALUES (?, ?)",
                (game_id, '{"chat": 5, "message": 7}'),
            )
    upgraded = await SqliteRepository.open(db_path)
    try:
        assert await upgraded.board("g-over") == "final"
        assert await upgraded.board("g-live") == '{"chat": 5, "message": 7}'
    finally:
        await upgraded.close()


# --- one statement a save, the active games in memory ------------------------------------------


async def traced(repo: SqliteRepository) -> list[str]:
    """The statements the connection runs from now on (each step of a trigger repeats the text
    of the statement that fired it)."""
    statements: list[str] = []
    await repo._db.set_trace_callback(statements.append)
    return statements


async def test_a_press_is_one_statement_and_loads_nothing(repo: SqliteRepository) -> None:
    table = await started_pair(repo)
    statements = await traced(repo)
    assert await repo.active_game(CHANNEL) == table.game
    new, events = apply(table.game, ALICE, Roll(), ScriptedRoller([1, 2, 3, 4, 5]))
    await repo.save(new, events, table.game.version)
    assert await repo.active_game(CHANNEL) == new
    (statement,) = set(statements)
    assert statement.startswith("INSERT INTO game_saves")
    assert await repo.events("g-1") == [*table.log, *events]


async def test_a_restarted_repository_loads_the_stored_game(db_path: Path) -> None:
    first = await SqliteRepository.open(db_path)
    table = await started_pair(first)
    await first.close()
    again = await SqliteRepository.open(db_path)
    try:
        statements = await traced(again)
        assert await again.active_game(CHANNEL) == table.game
        assert len(statements) == 1 and statements[0].startswith(GAME_ROW)
        assert await again.active_game(CHANNEL) == table.game
        assert len(statements) == 1  # the second load is from memory
    finally:
        await again.close()


async def test_a_copy_another_connection_outdated_is_dropped_on_its_refused_save(
    db_path: Path, repo: SqliteRepository
) -> None:
    """The copy in memory is never the authority: the stored version is."""
    table = await started_pair(repo)
    other = await SqliteRepository.open(db_path)
    try:
        moved, events = apply(table.game, ALICE, Roll(), ScriptedRoller([6, 6, 6, 6, 5]))
        await other.save(moved, events, table.game.version)
        mine, more = apply(table.game, ALICE, Roll(), ScriptedRoller([1, 2, 3, 4, 5]))
        with pytest.raises(GameError) as caught:
            await repo.save(mine, more, table.game.version)
        assert caught.value.code is ErrorCode.STALE
        assert await repo.active_game(CHANNEL) == moved
    finally:
        await other.close()


async def test_a_cancelled_save_leaves_memory_agreeing_with_the_file(
    db_path: Path, repo: SqliteRepository
) -> None:
    table = await started_pair(repo)
    new, events = apply(table.game, ALICE, Roll(), ScriptedRoller([1, 2, 3, 4, 5]))
    saving = asyncio.create_task(repo.save(new, events, table.game.version))
    await asyncio.sleep(0)  # the statement is on its way to the database's thread
    saving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await saving
    stored = await repo.get_game("g-1")  # after the statement, in the thread's order
    assert stored == new  # it ran all the same
    assert await repo.active_game(CHANNEL) == stored


async def test_results_come_from_the_save_statement(db_path: Path, repo: SqliteRepository) -> None:
    """The trigger writes one results row per seat, numbered in seat order, with the game."""
    table = await started_pair(repo)
    thrower = table.current()
    await table.do(thrower, Roll(), [6, 6, 6, 6, 6])  # a big general ends the game
    assert table.game is not None and table.game.phase is Phase.FINISHED
    rows = raw(
        db_path,
        "SELECT player_id, name, seat, total, boxes, winner, left_table, big_general, end_reason"
        " FROM results ORDER BY seat",
    )
    empty = json.dumps([None] * 10, separators=(",", ":"))
    assert rows == [
        (seat.player.id, seat.player.name, index, 0, empty, int(seat.player == thrower), 0,
         int(seat.player == thrower), "big_general")
        for index, seat in enumerate(table.game.seats)
    ]  # fmt: skip
    assert await repo.active_game(CHANNEL) is None


async def test_settings_and_boards_are_read_from_the_file_once(db_path: Path) -> None:
    """Both are read on every press: once written or read, they come from memory."""
    first = await SqliteRepository.open(db_path)
    try:
        await started_pair(first)
        await first.save_chat_settings("telegram", "-1", ChatSettings(language="ru"))
        await first.set_board("g-1", "1:2")
    finally:
        await first.close()
    again = await SqliteRepository.open(db_path)
    try:
        statements = await traced(again)
        for _ in range(3):
            assert (await again.chat_settings("telegram", "-1")).language == "ru"
            assert await again.board("g-1") == "1:2"
        assert len(statements) == 2
        await again.set_board("g-1", "1:3")
        assert await again.board("g-1") == "1:3"
        assert len(statements) == 3  # the write, no read after it
    finally:
        await again.close()
    assert raw(db_path, "SELECT ref FROM boards") == [("1:3",)]


def file_size(path: Path) -> int:
    return path.stat().st_size


async def test_the_wal_is_checkpointed_in_the_background(db_path: Path) -> None:
    """No save crosses the backstop threshold here: only the background checkpoint copies the
    saves into the database file itself (and it does so while the repository is open)."""
    repo = await SqliteRepository.open(db_path, checkpoint_every=0.05)
    try:
        size = file_size(db_path)
        for number in range(30):
            await started_pair(repo, f"g-{number}", ChannelKey("telegram", f"-{number}"))
        for _ in range(100):
            if file_size(db_path) > size:
                break
            await asyncio.sleep(0.05)
        assert file_size(db_path) > size
    finally:
        await repo.close()
