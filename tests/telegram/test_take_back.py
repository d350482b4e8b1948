"""Taking back a mis-tapped box in a Telegram group: the next player's board turns back into the
writer's turn by one edit, no new message; nobody else may press it, and it goes once they act."""

from __future__ import annotations

from tests.fakes.telegram import FakeChat, FakeMessage, FakeUser
from tests.kit import LOT_ALICE_LOW
from tests.telegram.kit import RunningBot, live_board, open_table, press


async def mis_tap(tg: RunningBot, group: FakeChat, alice: FakeUser, box: str) -> FakeMessage:
    """Alice throws twice holding a six, then presses `box`; the next player's new board."""
    fake = tg.fake
    board = live_board(fake, group)
    tg.roller.push([6, 6, 1, 2, 3])
    await press(fake, alice, board, "Roll")
    await press(fake, alice, board, "6")  # the first six held
    tg.roller.push([6, 4, 5, 1])
    await press(fake, alice, board, "Roll (2 left)")
    await press(fake, alice, board, box)
    written = fake.message(group, board.message_id)
    assert written.reply_markup == [] and "Alice" in written.plain_text
    return live_board(fake, group)


async def test_the_writer_takes_back_the_box_on_the_next_board(tg: RunningBot) -> None:
    fake = tg.fake
    alice = fake.user(1001, "Alice")
    bob = fake.user(1002, "Bob")
    outsider = fake.user(1003, "Вера", language_code="ru")
    group = fake.chat(-100700, type="supergroup", title="Dice night")
    await open_table(tg, group, alice, bob)
    tg.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, live_board(fake, group), "Start")
    bobs = await mis_tap(tg, group, alice, "General · 0")
    assert "Bob's turn" in bobs.plain_text
    assert [b.text for b in bobs.buttons] == ["🎲 Roll the dice", "📋 Sheet", "↩ Take back"]
    bobs_roll = bobs.find_button("Roll the dice").callback_data
    sent, edits = len(fake.bot_messages(group)), bobs.edits

    # Nobody but Alice may take her box back: each is told privately, in their language.
    refused = await press(fake, bob, bobs, "↩ Take back")
    assert refused == "Only the player who wrote that box can take it back: Alice."
    refused = await press(fake, outsider, bobs, "↩ Take back")
    assert refused == "Отменить эту запись может только тот, кто её сделал: Alice."
    assert fake.message(group, bobs.message_id).edits == edits

    answer = await press(fake, alice, bobs, "↩ Take back")
    assert answer == "↩ General: taken back"
    board = fake.message(group, bobs.message_id)
    assert len(fake.bot_messages(group)) == sent  # no new message in the group
    assert board.edits == edits + 1  # one edit of the same board
    lines = board.plain_text.splitlines()
    assert lines[0] == "↩ Alice took back General (0)."
    assert lines[1].startswith("Alice's turn · round 1/10 · throw 2/3")
    assert "6️⃣🔒  6️⃣  4️⃣  5️⃣  1️⃣" in board.plain_text  # the same dice, the same held
    labels = [b.text for b in board.buttons]
    assert labels[:5] == ["🔒6", "6", "4", "5", "1"] and "General · 0" in labels
    assert "↩ Take back" not in labels

    # Bob's Roll from his board as it was is told the turn is Alice's again.
    query = await fake.press(bob, board, data=bobs_roll)
    assert (await fake.wait_answer(query))[0] == "That turn is over: it's Alice's turn now."
    await fake.settle()
    assert len(fake.bot_messages(group)) == sent
    assert "Alice's turn" in fake.message(group, bobs.message_id).plain_text

    # Alice writes what she meant; Bob's next board offers the take-back until he throws.
    await press(fake, alice, board, "Sixes · 12")
    assert "Alice wrote 12 in Sixes." in fake.message(group, bobs.message_id).plain_text
    again = live_board(fake, group)
    assert again.message_id != bobs.message_id and "Bob's turn" in again.plain_text
    old_take_back = again.find_button("↩ Take back").callback_data
    tg.roller.push([1, 2, 3, 4, 5])
    await press(fake, bob, again, "Roll the dice")
    thrown = fake.message(group, again.message_id)
    assert "Bob's turn" in thrown.plain_text
    assert "↩ Take back" not in [b.text for b in thrown.buttons]
    query = await fake.press(alice, thrown, data=old_take_back)
    assert (await fake.wait_answer(query))[0] == "This board is out of date."
    await fake.settle()
    assert "Bob's turn" in fake.message(group, again.message_id).plain_text


async def test_taking_back_in_russian(tg: RunningBot) -> None:
    fake = tg.fake
    alice = fake.user(1101, "Alice", language_code="ru")
    bob = fake.user(1102, "Bob", language_code="ru")
    group = fake.chat(-100701, type="supergroup", title="Кости")
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    await press(fake, bob, lobby, "Сесть")
    tg.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "Начать")
    board = live_board(fake, group)
    tg.roller.push([2, 2, 2, 5, 6])
    await press(fake, alice, board, "Бросить кости")
    await press(fake, alice, board, "Генерал · 0")
    bobs = live_board(fake, group)
    assert "↩ Вернуть" in [b.text for b in bobs.buttons]
    refused = await press(fake, bob, bobs, "↩ Вернуть")
    assert refused == "Отменить эту запись может только тот, кто её сделал: Alice."
    assert await press(fake, alice, bobs, "↩ Вернуть") == "↩ Генерал: запись отменена"
    shown = fake.message(group, bobs.message_id).plain_text
    assert shown.startswith("↩ Alice отменяет запись в графе «Генерал» (0).\nХодит Alice")
    assert "бросок 1/3" in shown
