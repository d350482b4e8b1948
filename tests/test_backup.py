"""`python -m bot backup PATH` as it is run: taken while the real bot plays on the fake Telegram,
restored as DEPLOY.md says (stop, move the files aside, copy back, start), and the game goes
on from the backup's state; the refusals, one line each."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.dice import ScriptedRoller
from core.identity import ChannelKey
from core.service import GameService
from tests.fakes.telegram import FakeTelegram
from tests.process import Bot, on_telegram, tool
from tests.storage.test_ratings import STRAIGHT, play
from tests.telegram.kit import board_shown, live_board, press

ROOT = Path(__file__).resolve().parents[1]
LINE = re.compile(
    r"backed up to (?P<path>\S+): [\d.]+ (bytes|KiB|MiB), (?P<games>\d+) games"
    r" \((?P<open>\d+) not finished\), integrity ok, in [\d.]+ s\n"
)


def names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def telegram(fake: FakeTelegram, database: Path) -> dict[str, str]:
    return {**on_telegram(fake), "GENERAL_DATABASE": str(database)}


def stored(database: Path) -> tuple[int, list[str]]:
    """The one game's version and its events' kinds in order."""
    with sqlite3.connect(database) as db:
        (version,) = db.execute("SELECT version FROM games").fetchone()
        kinds = [str(k) for (k,) in db.execute("SELECT kind FROM events ORDER BY seq")]
    return int(version), kinds


def restore(backup: Path, database: Path) -> None:
    """DEPLOY.md's restore, the bot stopped: the database and its -wal and -shm files moved
    aside (an old -wal would be replayed onto the restored file), the backup copied back."""
    for end in ("", "-wal", "-shm"):
        old = Path(f"{database}{end}")
        if old.exists():
            old.rename(f"{database}{end}.before-restore")
    shutil.copy(backup, database)


@pytest.mark.slow
async def test_a_backup_taken_while_the_bot_plays_is_restored_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    database, log, backup = tmp_path / "general.db", tmp_path / "bot.log", tmp_path / "b.db"
    async with FakeTelegram() as fake:
        alice, bob = fake.user(1001, "Alice"), fake.user(1002, "Bob")
        group = fake.chat(-100950, title="Backups")
        bot = await Bot.start(telegram(fake, database), log)
        try:
            await fake.send_message(alice, group, "/general start")
            await press(fake, bob, await board_shown(fake, group), "Join")
            await press(fake, alice, live_board(fake, group), "Start")
            board = live_board(fake, group)
            starter, other = (alice, bob) if f"id={alice.id}" in board.text else (bob, alice)
            await press(fake, starter, board, "Roll")
            mid = board.message_id
            await fake.wait_for(lambda: "throw 1/3" in fake.message(group, mid).plain_text)
            at_backup = stored(database)

            code, out, err = await tool(database, "backup", str(backup))  # the bot runs
            assert (code, err) == (0, ""), err
            line = LINE.fullmatch(out)
            assert line, out
            assert (line["path"], line["games"], line["open"]) == (str(backup), "1", "1")
            assert backup.stat().st_mode & 0o777 == 0o600
            assert stored(backup) == at_backup
            assert at_backup[1].count("dice_rolled") == 1 and "box_scored" not in at_backup[1]

            # Play on past the backup: the box written, the other player's turn and throw.
            board = fake.message(group, mid)
            box = next(b.text for b in board.buttons if "·" in b.text)
            assert (await press(fake, starter, board, box)).startswith("✍️ ")
            await fake.wait_for(lambda: fake.message(group, mid).reply_markup == [])
            following = live_board(fake, group)
            assert following.message_id != mid and f"id={other.id}" in following.text
            await press(fake, other, following, "Roll")
            await bot.stop()
            bot.clean()
            assert stored(database)[1].count("dice_rolled") == 2

            restore(backup, database)
            assert stored(database) == at_backup
            bot = await Bot.start(telegram(fake, database), log)
            # The chat still shows the later board: its buttons are out of date now and change
            # nothing. /general start shows the restored game's board again (the starter's box
            # to choose), and play goes on from its buttons.
            later = fake.message(group, following.message_id)
            box = next(b.text for b in later.buttons if "·" in b.text)
            assert not (await press(fake, other, later, box)).startswith("✍️ ")
            assert stored(database) == at_backup
            await fake.send_message(starter, group, "/general start")
            again = await board_shown(fake, group, besides=(mid, following.message_id))
            assert again.message_id not in (mid, following.message_id)
            assert f"{starter.first_name}'s turn · round 1/10 · throw 1/3" in again.plain_text
            box = next(b.text for b in again.buttons if "·" in b.text)
            assert (await press(fake, starter, again, box)).startswith("✍️ ")
            await fake.wait_for(lambda: fake.message(group, again.message_id).reply_markup == [])
            after = live_board(fake, group)
            assert f"{other.first_name}'s turn · round 1/10" in after.plain_text
            await press(fake, other, after, "Roll")
            await bot.stop()
        finally:
            bot.kill()
    bot.clean()
    version, kinds = stored(database)
    assert version > at_backup[0]
    assert kinds[: len(at_backup[1])] == at_backup[1]  # the backup's history, then the new one
    assert kinds.count("dice_rolled") == 2 and kinds.count("box_scored") == 1
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def finished_games(database: Path, count: int) -> None:
    repository = await SqliteRepository.open(database)
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    for n in range(count):
        await play(service, roller, ChannelKey("tg", f"-{n + 1}"), [[6, 6, 6, 5, 5], STRAIGHT])
    await repository.close()


async def test_refusals_are_one_line_and_write_nothing(tmp_path: Path) -> None:
    database = tmp_path / "general.db"
    code, out, err = await tool(database, "backup", str(tmp_path / "b.db"))
    assert (code, out) == (2, "") and not database.exists()  # no empty database is made
    assert (
        err
        == f"python -m bot backup: GENERAL_DATABASE: there is no SQLite database at {database}\n"
    )

    await finished_games(database, 2)
    for path in (database, Path(f"{database}-wal")):  # never over the bot's own files
        code, out, err = await tool(database, "backup", str(path), "--overwrite")
        assert (code, out) == (2, "") and "is the bot's own database" in err
    code, out, err = await tool(
        database, "backup", str(tmp_path / "b.db"),
        env={"GENERAL_DATABASE_URL": "postgresql://general:pw-77@db.example/general"},
    )  # fmt: skip
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "PostgreSQL" in err and "pg_dump" in err and "pw-77" not in err
    assert not (tmp_path / "b.db").exists()

    existing = tmp_path / "b.db"
    existing.write_text("the previous backup")
    code, out, err = await tool(database, "backup", str(existing))
    assert (code, out) == (2, "") and "exists" in err and "--overwrite" in err
    assert existing.read_text() == "the previous backup"
    assert [name for name in names(tmp_path) if name.startswith(".")] == []  # no partial copy


async def test_overwrite_and_a_directory_and_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    database = tmp_path / "general.db"
    await finished_games(database, 3)
    existing = tmp_path / "latest.db"
    existing.write_text("the previous backup")
    existing.chmod(0o644)
    process = await asyncio.create_subprocess_exec(
        "sh", "-c", 'umask 000 && exec "$0" -m bot backup --overwrite latest.db', sys.executable,
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT),
             "GENERAL_DATABASE": str(database)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    said, problems = await process.communicate()
    assert process.returncode == 0, problems
    line = LINE.fullmatch(said.decode())
    assert line and line["games"] == "3" and line["open"] == "0", said
    assert existing.stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(existing) as copy:
        assert copy.execute("SELECT count(*) FROM results").fetchone() == (6,)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
    folder = tmp_path / "backups"
    folder.mkdir()
    code, out, err = await tool(database, "backup", str(folder))
    assert code == 0, err
    (made,) = [folder / name for name in names(folder)]
    assert re.fullmatch(r"general-\d{8}-\d{6}\.db", made.name) and made.stat().st_mode & 0o077 == 0
    assert LINE.fullmatch(out) and f"backed up to {made}:" in out


async def test_a_damaged_database_is_reported_and_no_backup_is_left(tmp_path: Path) -> None:
    database = tmp_path / "general.db"
    await finished_games(database, 2)
    with sqlite3.connect(database) as db:  # the index no longer says what its table holds
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_schema SET sql = 'CREATE INDEX results_by_channel ON results(name)'"
            " WHERE name = 'results_by_channel'"
        )
    code, out, err = await tool(database, "backup", str(tmp_path / "b.db"))
    assert (code, out) == (1, "") and err.count("\n") == 1, err
    assert "failed its integrity check" in err and "nothing was written" in err
    assert [name for name in names(tmp_path) if "b.db" in name] == []  # nor a partial one
