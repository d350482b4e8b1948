"""SQLite: a slow write stalls the database's thread, never the event loop, and its save is
still answered only once committed.

The write is made slow inside SQLite itself: a temporary trigger on the games table calls a
SQL function that sleeps (in whatever thread runs the statement, as a write stuck on a slow
disk would sit there), so the repository's own code runs unchanged."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Roll
from core.dice import ScriptedRoller
from core.game import apply
from tests.storage.tables import started_pair

SLOW = 1.0  # seconds the save's statement takes
# The loop's longest pause while it waits: a quarter of the write, where running the write on
# the loop would pause it for all of it (the bound is loose: other tests share the two cores).
GAP = SLOW / 4


@pytest.fixture
async def repository(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    opened = await SqliteRepository.open(tmp_path / "general.db")
    try:
        yield opened
    finally:
        await opened.close()


async def slow_down_updates(repository: SqliteRepository, seconds: float) -> None:
    """Every UPDATE of a game takes `seconds` more, inside SQLite, on the repository's own
    connection (a temporary trigger: this connection only)."""

    def install(connection: sqlite3.Connection) -> None:
        connection.create_function("pause", 1, time.sleep)
        connection.execute(
            "CREATE TEMP TRIGGER slow_disk AFTER UPDATE ON main.games"
            f" BEGIN SELECT pause({seconds}); END"
        )

    db = repository._db  # aiosqlite's connection: `install` runs in its thread, on its sqlite3
    await db._execute(install, db._conn)  # type: ignore[no-untyped-call]


async def test_a_slow_write_leaves_the_loop_answering_and_is_answered_once_committed(
    repository: SqliteRepository, tmp_path: Path
) -> None:
    table = await started_pair(repository)
    assert table.game is not None
    new, events = apply(table.game, table.current(), Roll(), ScriptedRoller([1, 2, 3, 4, 5]))
    await slow_down_updates(repository, SLOW)
    gaps: list[float] = []
    saving = True

    async def ticker() -> None:
        last = time.perf_counter()
        while saving:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    began = time.perf_counter()
    await repository.save(new, events, table.game.version)
    took = time.perf_counter() - began
    saving = False
    await ticking

    assert took >= SLOW  # answered after the slow write, not before
    with sqlite3.connect(tmp_path / "general.db") as other:  # and committed by then
        (version,) = other.execute("SELECT version FROM games WHERE id = ?", (new.id,)).fetchone()
    assert version == new.version
    assert len(gaps) > SLOW / GAP  # the loop went on all the while
    assert max(gaps) < GAP, f"the loop stood still for {max(gaps) * 1000:.0f} ms"
