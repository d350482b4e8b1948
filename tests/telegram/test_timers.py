"""Turn timers through Telegram: deadlines survive a restart; the host kicks by name."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from core.dice import ScriptedRoller, SeededRoller
from tests.fakes.telegram import FakeTelegram
from tests.kit import LOT_ALICE_LOW, age_the_turn
from tests.telegram.kit import RunningBot, bot_settings, live_board, press, running


async def test_deadlines_that_passed_while_down_fire_at_start_up(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-101100, title="Clock")
    database = tmp_path / "general.db"
    async with running(bot_settings(fake, database), ScriptedRoller(LOT_ALICE_LOW)):
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        await press(fake, bob, live_board(fake, group), "Join")
        await press(fake, ann, live_board(fake, group), "Start")
        old_board = live_board(fake, group)
        assert f"id={ann.id}" in old_board.text
    age_the_turn(database, 3600)  # the ten minutes are long gone
    async with running(bot_settings(fake, database), SeededRoller(1)):
        await fake.wait_for(
            lambda: any("Time is up for Ann" in m.plain_text for m in fake.bot_messages(group)),
            timeout=10,
        )
        await fake.settle()
        texts = [m.plain_text for m in fake.bot_messages(group)]
        reminder = next(m for m in fake.bot_messages(group) if "half your time" in m.plain_text)
        assert f"tg://user?id={ann.id}" in reminder.text  # a new message: Ann's phone tells her
        # Closing the old board is an edit the chat's pace may hold back past a quiet moment
        # (a burst of three, then one call a second): wait for it.
        await fake.wait_for(
            lambda: fake.message(group, old_board.message_id).reply_markup == [], timeout=10
        )
        board = live_board(fake, group)
        assert f"id={bob.id}" in board.text and "Time is up for Ann" in board.plain_text
        assert any("wrote" in t or "scratched" in t for t in texts)
    with sqlite3.connect(database) as db:
        seats = json.loads(db.execute("SELECT snapshot FROM games").fetchone()[0])["seats"]
    assert [s["missed"] for s in seats] == [1, 0]


async def test_host_kicks_a_player_by_name(tg: RunningBot) -> None:
    fake = tg.fake
    ann, bob, cid = fake.user(1001, "Ann"), fake.user(1002, "Bob"), fake.user(1003, "Cid")
    group = fake.chat(-101101, title="Kick")
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    await press(fake, bob, lobby, "Join")
    await press(fake, cid, lobby, "Join")
    await fake.send_message(bob, group, "/general kick Cid")
    await fake.settle()
    assert "Only the host (Ann) can do that." in fake.bot_messages(group)[-1].plain_text
    await fake.send_message(ann, group, "/general kick Nobody")
    await fake.settle()
    assert "Name a player at the table" in fake.bot_messages(group)[-1].plain_text
    await fake.send_message(ann, group, "/general kick cid")
    await fake.settle()
    assert "The host removed Cid from the table." in fake.bot_messages(group)[-1].plain_text
    assert "Seated (2): Ann, Bob" in fake.message(group, lobby.message_id).plain_text


async def test_a_kick_and_a_stop_in_play_are_each_told_once(tg: RunningBot) -> None:
    """The player to move removed: the board it ended says so, not the next board nor a reply
    as well; the game stopped: the final message says so, not its last board too."""
    fake = tg.fake
    ann, bob, cid = fake.user(1001, "Ann"), fake.user(1002, "Bob"), fake.user(1003, "Cid")
    group = fake.chat(-101102, title="Once")
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    await press(fake, bob, lobby, "Join")
    await press(fake, cid, lobby, "Join")
    tg.roller.push([6, 6, 6, 6, 5, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3])  # Bob throws lowest
    await press(fake, ann, lobby, "Start")
    assert f"id={bob.id}" in live_board(fake, group).text
    await fake.send_message(ann, group, "/general kick Bob")
    await fake.settle()
    await fake.send_message(ann, group, "/general stop")
    await fake.settle()
    texts = [m.plain_text for m in fake.bot_messages(group)]
    assert sum(t.count("The host removed Bob from the table.") for t in texts) == 1
    assert sum(t.count("Bob left the table.") for t in texts) == 0
    assert sum(t.count("The game was cancelled.") for t in texts) == 1
    assert texts[-1].startswith("The game was cancelled.")
    assert not any(m.reply_markup for m in fake.bot_messages(group))
