"""SQLite: what a group of saves does for the games that ended in it, in its own transaction:
their rating, their logs read for the review that comes next, and the results' accuracy
written with the next group, so that a game's end costs no trip and no commit of its own."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.forget import new_alias
from core.records import Weighed
from tests.storage.tables import ALICE, BOB, Table, started_pair
from tests.storage.test_group_commit import blocked, channel, rolled

# Refuses every rating (a temporary trigger: this connection only, gone when it closes).
NO_RATING = (
    "CREATE TEMP TRIGGER no_rating BEFORE INSERT ON main.rated_games"
    " BEGIN SELECT RAISE(ABORT, 'no rating'); END"
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "general.db"


@pytest.fixture
async def repository(path: Path) -> AsyncIterator[SqliteRepository]:
    opened = await SqliteRepository.open(path)
    try:
        yield opened
    finally:
        await opened.close()


async def tables(repository: SqliteRepository, first: int, count: int) -> list[Table]:
    """`count` games of two in play, numbered from `first` (each in a chat of its own)."""
    return [
        await started_pair(repository, f"g-{n}", channel(n)) for n in range(first, first + count)
    ]


async def ended_together(repository: SqliteRepository, all_tables: list[Table]) -> None:
    """Each table's current player throws a big general, all their saves in one group."""
    hold = await blocked(repository, 0.1)
    moves = [rolled(table, [6, 6, 6, 6, 6]) for table in all_tables]
    await asyncio.gather(*(repository.save(*move) for move in moves))
    assert hold is not None
    await hold
    for table, (new, events, _) in zip(all_tables, moves, strict=True):
        table.game = new
        table.log.extend(events)


def rated(path: Path) -> list[str]:
    with sqlite3.connect(path) as raw:
        return [row[0] for row in raw.execute("SELECT game_id FROM rated_games ORDER BY seq")]


async def test_a_recorded_games_log_comes_with_its_group_once(
    repository: SqliteRepository, path: Path
) -> None:
    all_tables = await tables(repository, 0, 6)
    await ended_together(repository, all_tables)
    with sqlite3.connect(path) as raw:  # the file loses the first log: the copy is asked
        raw.execute("DELETE FROM events WHERE game_id = ?", (all_tables[0].game_id,))
    assert await repository.events(all_tables[0].game_id) == all_tables[0].log
    assert await repository.events(all_tables[0].game_id) == []  # then read from the file
    for table in all_tables[1:]:
        assert await repository.events(table.game_id) == table.log


async def test_games_ended_in_a_group_are_rated_in_its_transaction(
    repository: SqliteRepository, path: Path
) -> None:
    """Their savers return with their games rated, before anything queued after the group
    runs in the database's thread: no trip of their own to rate them."""
    all_tables = await tables(repository, 0, 5)
    before = repository._writer.groups
    first = await blocked(repository, 0.1)
    moves = [rolled(table, [6, 6, 6, 6, 6]) for table in all_tables]
    saving = asyncio.gather(*(repository.save(*move) for move in moves))
    await asyncio.sleep(0.02)  # the group is queued behind the first block
    after = await blocked(repository, 0.5)  # and this behind the group
    await saving
    assert first is not None and after is not None
    assert not after.done()
    assert repository._writer.groups == before + 1  # the saves and ratings: one commit
    assert rated(path) == [table.game_id for table in all_tables]
    await asyncio.gather(first, after)


async def test_a_rating_that_fails_in_a_group_fails_no_save_and_waits_for_the_next(
    repository: SqliteRepository, path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first, later = await tables(repository, 0, 4), await tables(repository, 4, 1)
    await repository._db.execute(NO_RATING)
    await ended_together(repository, first)  # no save fails
    for table in first:
        assert await repository.get_game(table.game_id) == table.game
        assert await repository.active_game(table.channel) is None
    assert rated(path) == []
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures and all("rating the recorded games failed" in r.getMessage() for r in failures)
    caplog.clear()  # the suite fails on an ERROR logged
    await repository._db.execute("DROP TRIGGER temp.no_rating")
    await ended_together(repository, later)
    assert rated(path) == [table.game_id for table in [*first, *later]]  # in order


async def test_accuracy_is_written_with_the_next_group(repository: SqliteRepository) -> None:
    ended, playing = await tables(repository, 0, 1), await tables(repository, 1, 3)
    await ended_together(repository, ended)
    before = repository._writer.groups, repository._writer.saves
    hold = await blocked(repository, 0.1)
    moves = [rolled(table) for table in playing]
    await asyncio.gather(
        repository.set_weighed(
            ended[0].game_id, {ALICE.id: Weighed(87.5, 1.0, -2.0), BOB.id: Weighed(100.0, 0, 0)}
        ),
        *(repository.save(*move) for move in moves),
    )
    assert hold is not None
    await hold
    assert (repository._writer.groups, repository._writer.saves) == (
        before[0] + 1,
        before[1] + 5,
    )
    results = await repository.results(ended[0].game_id)
    assert {r["player_id"]: r["accuracy"] for r in results} == {ALICE.id: 87.5, BOB.id: 100.0}


async def test_forgetting_someone_forgets_the_logs_kept_for_the_review(
    repository: SqliteRepository,
) -> None:
    (table,) = await tables(repository, 0, 1)
    await ended_together(repository, [table])
    await repository.forget_player("telegram", BOB.id, new_alias())
    log = await repository.events(table.game_id)
    assert len(log) == len(table.log)
    # quoted: the alias's random hex may hold the letters of the id ("forgotten-…b2…")
    assert repr(BOB.id) not in repr(log) and repr(BOB.name) not in repr(log)
