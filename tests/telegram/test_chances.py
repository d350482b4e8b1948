"""Standings, win chances and the Grandmaster through the real python-telegram-bot and the fake
Bot API, as a table sees them."""

from __future__ import annotations

from tests.kit import LOT_ALICE_LOW
from tests.telegram.kit import RunningBot, ask, live_board, open_table, press


async def test_the_board_and_the_chances_command_in_a_group(tg: RunningBot) -> None:
    fake = tg.fake
    alice, bob = fake.user(1301, "Alice"), fake.user(1302, "Bob")
    group = fake.chat(-100130, type="supergroup", title="Chances")
    await open_table(tg, group, alice, bob)
    lobby = live_board(fake, group)
    labels = [b.text for b in lobby.buttons]
    assert "🤖 + Grandmaster" in labels and labels.index("🤖 + Grandmaster") < labels.index(
        "🤖 + Master"
    )
    tg.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "Start")
    board = live_board(fake, group)
    assert "🏅 1. Alice 0 · 1. Bob 0" in board.plain_text
    assert "🎯 Chances to win: Alice 50% · Bob 50%" in board.plain_text
    tg.roller.push([6, 6, 6, 6, 5])
    await press(fake, alice, board, "Roll")
    said = await ask(fake, bob, group, "/general chances")
    assert said.startswith("Chances to win, if everyone plays the best")
    assert "Alice" in said and "Bob" in said and "%" in said
    board = fake.message(group, board.message_id)
    await press(fake, alice, board, "Sixes · 24")
    after = live_board(fake, group)
    assert "🏅 1. Alice 24 · 2. Bob 0" in after.plain_text
