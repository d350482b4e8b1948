"""The turn timer's half-time reminder through Telegram (issue 29): once a turn however many
throws follow, and the board shown before it stays pressable."""

from __future__ import annotations

import json
from pathlib import Path

from core.dice import ScriptedRoller
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram
from tests.kit import LOT_ALICE_LOW, age_the_turn, game_rows
from tests.telegram.kit import bot_settings, live_board, press, running

HALF_GONE = 301  # seconds of the default ten-minute turn timer: past its half, not its end


def button_data(board: FakeMessage, code: str) -> str:
    """The payload of a board's button by its code (`h0`: the first die)."""
    found = [
        button.callback_data
        for row in board.reply_markup
        for button in row
        if button.callback_data and button.callback_data.endswith(f"|{code}")
    ]
    assert len(found) == 1, [b.callback_data for row in board.reply_markup for b in row]
    return found[0]


def reminders(fake: FakeTelegram, chat: FakeChat) -> int:
    return sum("half your time" in (m.plain_text or "") for m in fake.bot_messages(chat))


def turn(database: Path) -> dict[str, object]:
    ((_, _, snapshot),) = game_rows(database)
    return json.loads(snapshot)["turn"]  # type: ignore[no-any-return]


async def test_one_reminder_a_turn_and_the_board_before_it_stays_pressable(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-101400, title="Reminded")
    database = tmp_path / "general.db"
    async with running(
        bot_settings(fake, database), ScriptedRoller([*LOT_ALICE_LOW, 1, 2, 3, 4, 6])
    ):
        await fake.send_message(ann, group, "/general start")
        await fake.settle()
        await press(fake, bob, live_board(fake, group), "Join")
        await press(fake, ann, live_board(fake, group), "Start")
        await press(fake, ann, live_board(fake, group), "Roll")
        board = live_board(fake, group)
        hold_first = button_data(board, "h0")  # the board as Ann sees it before the reminder
    age_the_turn(database, HALF_GONE)  # the bot was down while half her time went
    async with running(bot_settings(fake, database), ScriptedRoller([5] * 4 + [6] * 4)):
        await fake.wait_for(lambda: reminders(fake, group) == 1, timeout=10)
        await fake.settle()
        assert button_data(board, "h0") != hold_first  # the reminder moved the board on
        # Ann's phone has not shown that yet: she holds her 1 on the board as it was.
        query = await fake.press(ann, board, data=hold_first)
        answer, _ = await fake.wait_answer(query)
        await fake.settle()
        assert answer is not None and answer.startswith("🔒 Keeping 1")  # carried out
        assert turn(database)["held"] == [True, False, False, False, False]
        await press(fake, ann, live_board(fake, group), "Roll")
        await press(fake, ann, live_board(fake, group), "Roll")
        assert turn(database)["throws"] == 3 and turn(database)["dice"] == [1, 6, 6, 6, 6]
        assert reminders(fake, group) == 1  # not one more after each throw
        # The board before the reminder, pressed now: the throws since are what changed.
        query = await fake.press(ann, board, data=hold_first)
        answer, _ = await fake.wait_answer(query)
        assert answer == "The dice have been thrown since — here they are: 1-6-6-6-6."
        await fake.settle()
        assert turn(database)["held"] == [True, False, False, False, False]
