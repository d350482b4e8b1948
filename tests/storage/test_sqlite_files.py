"""The SQLite file's guards, with real processes and real files: one bot process per file, and a
file deleted or replaced under a running bot refuses every later write."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Roll
from core.chat_settings import ChatSettings
from core.dice import ScriptedRoller
from core.errors import StorageCode, StorageError
from core.game import apply
from tests.storage.tables import ALICE, CHANNEL, started_pair

ROOT = Path(__file__).resolve().parents[2]
# A second bot process: opens the file and says how that went.
SECOND = """
import asyncio, sys
from adapters.sqlite import SqliteRepository
from core.errors import StorageError

async def main() -> None:
    try:
        repository = await SqliteRepository.open(sys.argv[1])
    except StorageError as error:
        print(error.code.value, error, sep="\\n")
        raise SystemExit(3)
    await repository.close()
    print("opened")

asyncio.run(main())
"""


def second_process(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SECOND, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_a_second_process_on_the_file_is_refused_and_the_first_goes_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "general.db"
    first = await SqliteRepository.open(path)
    try:
        table = await started_pair(first)
        refused = await asyncio.to_thread(second_process, path)
        assert refused.returncode == 3, refused.stderr
        code, message = refused.stdout.splitlines()
        assert code == StorageCode.DATABASE_BUSY.value
        assert str(path) in message
        assert "another bot process is using it; use the PostgreSQL backend" in message
        await table.do(ALICE, Roll(), [1, 2, 3, 4, 5])  # the first goes on
        assert await first.active_game(CHANNEL) == table.game
    finally:
        await first.close()
    opened = await asyncio.to_thread(second_process, path)  # closing let the lock go
    assert opened.returncode == 0 and opened.stdout.strip() == "opened", opened.stderr


async def test_the_lock_is_held_until_the_last_repository_of_the_process_closes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "general.db"
    one, two = await SqliteRepository.open(path), await SqliteRepository.open(path)
    await one.close()
    assert (await asyncio.to_thread(second_process, path)).returncode == 3
    await two.close()
    assert (await asyncio.to_thread(second_process, path)).returncode == 0


def gone_logs(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The loss's ERROR lines, taken out of the log (the suite fails on any other)."""
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    caplog.clear()
    return logged


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_file_gone_from_its_path_refuses_every_later_write(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "general.db"
    repository = await SqliteRepository.open(path)
    try:
        table = await started_pair(repository)
        assert table.game is not None
        if how == "deleted":
            path.unlink()
        else:
            shutil.copy(path, tmp_path / "copy.db")
            os.replace(tmp_path / "copy.db", path)
        base = table.game
        for dice in ([1, 2, 3, 4, 5], [6, 6, 6, 6, 5]):  # each later action is refused
            new, events = apply(base, ALICE, Roll(), ScriptedRoller(dice))
            with pytest.raises(StorageError) as refused:
                await repository.save(new, events, base.version)
            assert refused.value.code is StorageCode.DATABASE_GONE
            assert str(path) in str(refused.value) and how in str(refused.value)
        with pytest.raises(StorageError):
            await repository.set_board(base.id, "{}")
        with pytest.raises(StorageError):
            await repository.save_chat_settings("telegram", "-1", ChatSettings(table_cap=2))
        (logged,) = gone_logs(caplog)  # once
        assert str(path) in logged and how in logged
    finally:
        await repository.close()


async def test_a_deleted_file_is_noticed_within_seconds_without_a_save(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "general.db"
    repository = await SqliteRepository.open(path, checkpoint_every=0.05)
    try:
        await started_pair(repository)
        path.unlink()
        for _ in range(100):
            if any(r.levelno >= logging.ERROR for r in caplog.records):
                break
            await asyncio.sleep(0.05)
        (logged,) = gone_logs(caplog)
        assert "deleted" in logged
    finally:
        await repository.close()
