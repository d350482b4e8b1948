"""Group commit: saves of many channels arriving together are committed together (SQLite: one
transaction, a savepoint each), and each fails or succeeds on its own. The contract parts run on
both backends (PostgreSQL commits each save in its own transaction: see BENCHMARKS.md)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Open, Roll
from core.dice import ScriptedRoller
from core.errors import ErrorCode, GameError, StorageCode, StorageError
from core.game import apply, open_lobby
from core.identity import ChannelKey
from core.table import Game
from tests.storage.conftest import Backend, Repository, SqliteBackend
from tests.storage.tables import ALICE, Table, started_pair

TABLES = 40


def channel(number: int) -> ChannelKey:
    return ChannelKey("telegram", f"-{1000 + number}")


async def tables(repository: Repository, count: int = TABLES) -> list[Table]:
    return [await started_pair(repository, f"g-{n}", channel(n)) for n in range(count)]


def rolled(table: Table, dice: list[int] | None = None) -> tuple[Game, list, int]:
    """The table's game after its current player rolls, its events and the version it was at."""
    assert table.game is not None
    new, events = apply(
        table.game, table.current(), Roll(), ScriptedRoller(dice or [1, 2, 3, 4, 5])
    )
    return new, events, table.game.version


def groups(repository: Repository) -> tuple[int, int] | None:
    """(transactions, saves) the SQLite writer committed so far; None on PostgreSQL."""
    if isinstance(repository, SqliteRepository):
        return repository._writer.groups, repository._writer.saves
    return None


async def blocked(repository: Repository, seconds: float) -> asyncio.Task[None] | None:
    """Keep SQLite's database thread busy for `seconds`, so that the saves made meanwhile all
    wait for it and are committed together; None on PostgreSQL."""
    if not isinstance(repository, SqliteRepository):
        return None
    task = asyncio.create_task(repository._db._execute(time.sleep, seconds))  # type: ignore[no-untyped-call]
    await asyncio.sleep(0)  # it is in the thread's queue before any save
    return task


async def test_many_channels_saving_at_once_are_committed_together_and_all_readable(
    backend: Backend,
) -> None:
    repository = await backend.open()
    all_tables = await tables(repository)
    before = groups(repository)
    hold = await blocked(repository, 0.1)
    moves = [rolled(table) for table in all_tables]
    await asyncio.gather(*(repository.save(*move) for move in moves))
    if hold is not None:
        await hold
    after = groups(repository)
    if before is not None and after is not None:
        assert after[1] - before[1] == TABLES
        assert after[0] - before[0] == 1  # all in one transaction
    other = await backend.open()  # another connection: what is in the store
    for table, (new, events, _) in zip(all_tables, moves, strict=True):
        assert await other.get_game(table.game_id) == new
        assert await other.events(table.game_id) == [*table.log, *events]


async def test_a_stale_save_in_a_group_fails_alone(backend: Backend) -> None:
    repository = await backend.open()
    all_tables = await tables(repository, 10)
    moves = [rolled(table) for table in all_tables]
    stale = 4
    game, events, version = moves[stale]
    moves[stale] = (game, events, version - 1)  # made from a board one version old
    before = groups(repository)
    hold = await blocked(repository, 0.1)
    outcomes = await asyncio.gather(
        *(repository.save(*move) for move in moves), return_exceptions=True
    )
    if hold is not None:
        await hold
    after = groups(repository)
    if before is not None and after is not None:
        assert after[0] - before[0] == 1
    for n, (outcome, table, (new, _, _)) in enumerate(
        zip(outcomes, all_tables, moves, strict=True)
    ):
        stored = await repository.get_game(table.game_id)
        if n == stale:
            assert isinstance(outcome, GameError) and outcome.code is ErrorCode.STALE
            assert stored == table.game  # nothing of it written
            assert await repository.active_game(table.channel) == table.game
        else:
            assert outcome is None
            assert stored == new
            assert await repository.active_game(table.channel) == new


async def test_a_second_table_in_a_group_fails_alone_with_game_exists(backend: Backend) -> None:
    repository = await backend.open()
    taken = await started_pair(repository, "g-taken", channel(3))
    lobbies = [
        open_lobby(f"g-new-{n}", channel(n), ALICE, Open()) for n in range(8)
    ]  # channel 3 has a game already
    hold = await blocked(repository, 0.1)
    outcomes = await asyncio.gather(
        *(repository.save(game, events, None) for game, events in lobbies),
        return_exceptions=True,
    )
    if hold is not None:
        await hold
    for n, outcome in enumerate(outcomes):
        if n == 3:
            assert isinstance(outcome, GameError) and outcome.code is ErrorCode.GAME_EXISTS
            assert await repository.get_game("g-new-3") is None
            assert await repository.active_game(channel(3)) == taken.game
        else:
            assert outcome is None
            assert await repository.active_game(channel(n)) == lobbies[n][0]


async def test_a_cancelled_caller_does_not_take_back_its_queued_save(tmp_path: Path) -> None:
    """Once queued the save is the writer's: the caller's cancellation is raised only after the
    group is committed, and the save is in the file then (not lost, not made twice)."""
    path = tmp_path / "general.db"
    repository = await SqliteRepository.open(path)
    try:
        all_tables = await tables(repository, 6)
        hold = await blocked(repository, 0.2)
        moves = [rolled(table) for table in all_tables]
        saving = [asyncio.create_task(repository.save(*move)) for move in moves]
        await asyncio.sleep(0.05)  # queued, and their group waits behind the busy thread
        cancelled = saving[::2]
        for task in cancelled:
            task.cancel()
        await asyncio.sleep(0.01)
        assert not any(task.done() for task in cancelled)  # they wait for the verdict
        for task in cancelled:
            with pytest.raises(asyncio.CancelledError):
                await task
            with sqlite3.connect(path) as raw:  # committed before the cancellation was raised
                versions = dict(raw.execute("SELECT id, version FROM games").fetchall())
            assert all(versions[game.id] == game.version for game, _, _ in moves[::2])
        await asyncio.gather(*saving[1::2])
        assert hold is not None
        await hold
        for table, (new, events, _) in zip(all_tables, moves, strict=True):
            assert await repository.active_game(table.channel) == new
            assert await repository.events(table.game_id) == [*table.log, *events]
    finally:
        await repository.close()
    again = await SqliteRepository.open(path)
    try:
        for table, (new, _, _) in zip(all_tables, moves, strict=True):
            assert await again.get_game(table.game_id) == new
    finally:
        await again.close()


async def test_games_ended_in_one_group_are_rated_in_order_before_their_savers_return(
    backend: Backend,
) -> None:
    repository = await backend.open()
    all_tables = await tables(repository, 8)
    hold = await blocked(repository, 0.1)

    async def big_general(table: Table) -> None:
        game, events, version = rolled(table, [6, 6, 6, 6, 6])  # ends the game at once
        await repository.save(game, events, version)
        assert await repository.game_ratings(table.game_id, table.channel)  # rated already

    await asyncio.gather(*(big_general(table) for table in all_tables))
    if hold is not None:
        await hold
    rated = [row[0] for row in await backend.raw("SELECT game_id FROM rated_games ORDER BY seq")]
    if backend.name == "sqlite":  # recorded in the order they were saved, in one transaction
        assert rated == [table.game_id for table in all_tables]
    else:  # each in its own transaction, in the order they committed
        assert sorted(rated) == sorted(table.game_id for table in all_tables)


async def test_a_group_is_refused_whole_once_the_file_is_gone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The file's check is made before each group: every save in it is refused."""
    store = SqliteBackend(tmp_path / "general.db")
    repository = await store.open()
    try:
        all_tables = await tables(repository, 5)
        hold = await blocked(repository, 0.1)
        moves = [rolled(table) for table in all_tables]
        saving = [asyncio.create_task(repository.save(*move)) for move in moves]
        await asyncio.sleep(0)
        store.path.rename(tmp_path / "moved.db")
        outcomes = await asyncio.gather(*saving, return_exceptions=True)
        assert hold is not None
        await hold
        for outcome in outcomes:
            assert isinstance(outcome, StorageError)
            assert outcome.code is StorageCode.DATABASE_GONE
        (logged,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert "deleted" in logged  # once, for the whole group
        caplog.clear()  # the suite fails on an ERROR logged
    finally:
        await store.close()


async def test_closing_commits_the_saves_still_queued(tmp_path: Path) -> None:
    path = tmp_path / "general.db"
    repository = await SqliteRepository.open(path)
    all_tables = await tables(repository, 5)
    hold = await blocked(repository, 0.1)
    moves = [rolled(table) for table in all_tables]
    saving = [asyncio.create_task(repository.save(*move)) for move in moves]
    await asyncio.sleep(0)
    await repository.close()
    await asyncio.gather(*saving)
    assert hold is not None
    await hold
    again = await SqliteRepository.open(path)
    try:
        for table, (new, _, _) in zip(all_tables, moves, strict=True):
            assert await again.get_game(table.game_id) == new
        with pytest.raises(GameError):
            await again.save(*rolled(all_tables[0]))  # made from the old version: stale
    finally:
        await again.close()
