"""The real bot process SIGKILLed mid-game; a new process continues on the old message's buttons."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

import pytest

from tests.fakes.telegram import FakeTelegram
from tests.process import polling
from tests.telegram.kit import board_shown, live_board, press


async def start_bot(fake: FakeTelegram, database: Path, log: Path) -> asyncio.subprocess.Process:
    """`python -m bot` on the fake; returns once it polls."""
    return await polling(fake, {"GENERAL_DATABASE": str(database)}, log)


@pytest.mark.slow
async def test_sigkill_mid_game_then_old_buttons_work(fake: FakeTelegram, tmp_path: Path) -> None:
    database, log = tmp_path / "general.db", tmp_path / "bot.log"
    alice, bob = fake.user(1001, "Alice"), fake.user(1002, "Bob")
    group = fake.chat(-100700, title="Crash")
    first = await start_bot(fake, database, log)
    try:
        await fake.send_message(alice, group, "/general start")
        await press(fake, bob, await board_shown(fake, group), "Join")
        await press(fake, alice, live_board(fake, group), "Start")
        board = live_board(fake, group)
        starter, other = (alice, bob) if f"id={alice.id}" in board.text else (bob, alice)
        await press(fake, starter, board, "Roll")  # answered at once; the edit at the chat's pace
        mid = board.message_id
        await fake.wait_for(lambda: "throw 1/3" in fake.message(group, mid).plain_text)
        board = fake.message(group, mid)
        first.send_signal(signal.SIGKILL)
        assert await first.wait() == -signal.SIGKILL
    finally:
        if first.returncode is None:  # a failure above leaves no bot behind
            first.kill()

    second = await start_bot(fake, database, log)
    try:
        boxes = [b.text for b in board.buttons if "·" in b.text]
        written = await press(fake, starter, board, boxes[0])  # the old message's button
        assert written.startswith("✍️ ")
        await fake.wait_for(lambda: fake.message(group, mid).reply_markup == [])
        assert "throw 1/3" in fake.message(group, mid).plain_text
        following = live_board(fake, group)
        assert following.message_id != board.message_id
        assert f"id={other.id}" in following.text
        await press(fake, other, following, "Roll")
        then = following.message_id
        await fake.wait_for(lambda: "throw 1/3" in fake.message(group, then).plain_text)
    finally:
        second.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(second.wait(), 15) == 0
    with sqlite3.connect(database) as db:
        kinds = [k for (k,) in db.execute("SELECT kind FROM events ORDER BY seq")]
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert kinds.count("dice_rolled") == 2 and kinds.count("box_scored") == 1
    output = log.read_text()
    assert " ERROR " not in output and "Traceback" not in output, output
    assert fake.token not in output and fake.token.split(":")[1] not in output  # never logged
    assert "ready" in output
    for path in (database, database.with_name(database.name + "-wal")):
        assert path.stat().st_mode & 0o077 == 0, oct(path.stat().st_mode)  # owner only
