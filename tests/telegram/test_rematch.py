"""Rematch on Telegram: the final message's button opens a new lobby with the same players, the
presser hosting; outsiders and second presses are answered in the callback alone; and the button
of a final message sent before a SIGKILL works in the next process."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram
from tests.process import polling
from tests.telegram.kit import RunningBot, board_shown, live_board, press

REMATCH = "🔁 Rematch"
BIG = [3, 3, 3, 3, 3]
LOT_BOB_LOW = [6, 6, 6, 6, 5, 1, 1, 1, 1, 2, 5, 5, 5, 5, 4]  # Alice, Bob, Novice: Bob starts
# With these dice Alice and a Novice draw lots, Alice starts and throws a big general at once.
SEED_ALICE_BIG = "12417"


def final_message(fake: FakeTelegram, chat: FakeChat) -> FakeMessage:
    """The newest bot message with the Rematch button (the final message follows the last
    press by a moment)."""
    found = [m for m in fake.bot_messages(chat) if any(b.text == REMATCH for b in m.buttons)]
    assert found, [m.plain_text for m in fake.bot_messages(chat)]
    return found[-1]


async def ended(fake: FakeTelegram, chat: FakeChat) -> FakeMessage:
    await fake.wait_for(
        lambda: any(REMATCH in str(m.raw_reply_markup) for m in fake.bot_messages(chat))
    )
    return final_message(fake, chat)


async def test_rematch_seats_everyone_again_with_the_presser_hosting(tg: RunningBot) -> None:
    fake = tg.fake
    alice, bob, carol = fake.user(1001, "Alice"), fake.user(1002, "Bob"), fake.user(1003, "Carol")
    group = fake.chat(-100800, title="Again")
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    await press(fake, bob, lobby, "Join")
    await press(fake, alice, lobby, "+ Novice")
    tg.roller.push(LOT_BOB_LOW)
    await press(fake, alice, lobby, "Start")
    tg.roller.push(BIG)
    await press(fake, bob, live_board(fake, group), "Roll")
    final = await ended(fake, group)
    assert "Winner: Bob" in final.plain_text and [b.text for b in final.buttons] == [REMATCH]
    sent = len(fake.bot_messages(group))

    refused = await press(fake, carol, final, REMATCH)  # Carol did not play
    assert refused == "Only the players of that game can call its rematch."
    assert len(fake.bot_messages(group)) == sent

    opened = await press(fake, alice, final, REMATCH)
    assert opened == "The rematch is open: its table is below."
    (rematch,) = fake.bot_messages(group)[sent:]
    assert "A table of General is open" in rematch.plain_text
    assert "Host: Alice" in rematch.plain_text
    assert "Seated (3): Alice, Bob, 🤖 Novice" in rematch.plain_text
    assert live_board(fake, group).message_id == rematch.message_id

    for again in (alice, bob):  # a double tap, or a second player: the rematch is open already
        answer = await press(fake, again, final, REMATCH)
        assert answer == "That game's rematch is already open at this table."
    assert len(fake.bot_messages(group)) == sent + 1
    await press(fake, bob, rematch, "Leave")  # who does not want to play leaves, as in any lobby
    await fake.wait_for(lambda: "Seated (2)" in fake.message(group, rematch.message_id).plain_text)
    assert "Alice, 🤖 Novice" in fake.message(group, rematch.message_id).plain_text


async def test_a_cancelled_game_offers_no_rematch(tg: RunningBot) -> None:
    fake = tg.fake
    alice = fake.user(1001, "Alice")
    group = fake.chat(-100801, title="Stopped")
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    await fake.send_message(alice, group, "/general stop")
    await fake.settle()
    assert all(REMATCH not in str(m.raw_reply_markup) for m in fake.bot_messages(group))


async def start_bot(fake: FakeTelegram, database: Path, log: Path) -> asyncio.subprocess.Process:
    """`python -m bot` on the fake with dice of SEED_ALICE_BIG; returns once it polls."""
    settings = {"GENERAL_DATABASE": str(database), "GENERAL_DICE_SEED": SEED_ALICE_BIG}
    return await polling(fake, settings, log)


@pytest.mark.slow
async def test_the_rematch_button_works_after_a_sigkill(fake: FakeTelegram, tmp_path: Path) -> None:
    database, log = tmp_path / "general.db", tmp_path / "bot.log"
    alice, bob = fake.user(1001, "Alice"), fake.user(1002, "Bob")
    group = fake.chat(-100802, title="Crash")
    first = await start_bot(fake, database, log)
    try:
        await fake.send_message(alice, group, "/general start")
        lobby = await board_shown(fake, group)
        await press(fake, alice, lobby, "+ Novice")
        await press(fake, alice, lobby, "Start")
        await press(fake, alice, live_board(fake, group), "Roll")
        final = await ended(fake, group)
        assert "Winner: Alice" in final.plain_text
        first.send_signal(signal.SIGKILL)
        assert await first.wait() == -signal.SIGKILL
    finally:
        if first.returncode is None:  # a failure above leaves no bot behind
            first.kill()

    second = await start_bot(fake, database, log)
    try:
        sent = len(fake.bot_messages(group))
        refused = await press(fake, bob, final, REMATCH)
        assert refused == "Only the players of that game can call its rematch."
        assert len(fake.bot_messages(group)) == sent
        opened = await press(fake, alice, final, REMATCH)
        assert opened == "The rematch is open: its table is below."
        (rematch,) = fake.bot_messages(group)[sent:]
        assert "Host: Alice" in rematch.plain_text
        assert "Seated (2): Alice, 🤖 Novice" in rematch.plain_text
    finally:
        second.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(second.wait(), 15) == 0
    output = log.read_text()
    assert " ERROR " not in output and "Traceback" not in output, output
