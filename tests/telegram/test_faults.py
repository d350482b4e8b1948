"""Faults from Telegram: the game state stays right and play goes on, with no ERROR logged."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from tests.fakes.telegram import FakeChat, FakeMessage, FakeUser
from tests.telegram.kit import RunningBot, live_board, press


def snapshot(tg: RunningBot) -> dict[str, object]:
    with sqlite3.connect(tg.database) as db:
        (data,) = db.execute("SELECT snapshot FROM games ORDER BY created_at DESC").fetchone()
    return json.loads(data)


async def solo_turn(tg: RunningBot, chat: FakeChat, user: FakeUser) -> FakeMessage:
    fake = tg.fake
    await fake.send_message(user, chat, "/general start")
    await fake.settle()
    await press(fake, user, live_board(fake, chat), "Start")
    return live_board(fake, chat)


@pytest.mark.parametrize("fault", [{"status": 502}, {"status": 500}, {"mode": "drop"}])
async def test_a_failed_edit_loses_nothing(
    tg: RunningBot, fault: dict[str, object], caplog: pytest.LogCaptureFixture
) -> None:
    fake = tg.fake
    ann = fake.user(1001, "Ann")
    chat = fake.private_chat(ann)
    board = await solo_turn(tg, chat, ann)
    fake.fail_next("editMessageText", **fault)  # type: ignore[arg-type]
    tg.roller.push([1, 2, 3, 4, 6])
    answer = await press(fake, ann, board, "Roll")
    assert answer in (
        "🎲 1-2-3-4-6",  # the answer says what the throw was, whatever became of the edit
        "Something went wrong on our side; the game is unchanged. Please try again.",
    )
    assert snapshot(tg)["turn"]["throws"] == 1  # type: ignore[index]
    assert "throw 0/3" in fake.message(chat, board.message_id).plain_text  # the edit was lost
    # The board still shows the old version: a press is out of date, says why, and redraws it.
    thrown = "The dice have been thrown since — here they are: 1-2-3-4-6."
    assert await press(fake, ann, board, "Roll") == thrown
    board = fake.message(chat, board.message_id)
    assert "throw 1/3" in board.plain_text
    tg.roller.push([5, 5, 5, 5])
    await press(fake, ann, board, "1")  # hold the one, throw the other four
    await press(fake, ann, fake.message(chat, board.message_id), "Roll (2 left)")
    assert snapshot(tg)["turn"]["throws"] == 2  # type: ignore[index]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "telegram" in r.name]
    assert warnings, "the failure is in the log (as a warning)"


async def test_a_deleted_board_is_posted_again(tg: RunningBot) -> None:
    fake = tg.fake
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-101200, title="Deleted")
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    lobby.deleted = True  # someone deleted the lobby message
    await fake.send_message(bob, group, "/general join")
    await fake.settle()
    again = live_board(fake, group)
    assert again.message_id != lobby.message_id and "Seated (2): Ann, Bob" in again.plain_text
    tg.roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])
    await press(fake, ann, again, "Start")  # the new message is the board now
    assert "Ann starts." in live_board(fake, group).plain_text


async def test_removed_from_the_chat_keeps_the_game_and_says_so_once(
    tg: RunningBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = tg.fake
    ann = fake.user(1001, "Ann")
    group = fake.chat(-101201, title="Kicked")
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    description = "Forbidden: bot was kicked from the supergroup chat"
    fake.fail_next("sendMessage", 403, description=description, times=2)
    await fake.send_message(ann, group, "/general start")
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    said = [r for r in caplog.records if "cannot write in chat" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert snapshot(tg)["phase"] == "lobby"  # the table is kept for when the bot is back
    await fake.send_message(ann, group, "/general help")
    await fake.settle()
    assert "/general start" in fake.bot_messages(group)[-1].plain_text


async def test_a_429_storm_is_waited_out(tg: RunningBot) -> None:
    fake = tg.fake
    ann = fake.user(1001, "Ann")
    chat = fake.private_chat(ann)
    board = await solo_turn(tg, chat, ann)
    fake.fail_next("editMessageText", 429, retry_after=1, times=2)
    tg.roller.push([2, 2, 2, 3, 4])
    answer = await press(fake, ann, board, "Roll")  # at once, saying what the throw was
    assert answer == "🎲 2-2-2-3-4"
    await fake.wait_for(lambda: "throw 1/3" in fake.message(chat, board.message_id).plain_text)
