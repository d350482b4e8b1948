"""Whole games of General through the real python-telegram-bot and the fake Bot API."""

from __future__ import annotations

import json

import pytest

from adapters.chat import payload
from tests.kit import LOT_ALICE_LOW, game_rows
from tests.telegram.kit import RunningBot, live_board, open_table, press


@pytest.mark.slow
async def test_two_player_game_to_the_final_sheet(tg: RunningBot) -> None:
    fake = tg.fake
    alice = fake.user(1001, "Alice", username="alice")
    bob = fake.user(1002, "Bob <b>", username="bob")  # a name that must be escaped
    group = fake.chat(-100500, type="supergroup", title="Dice night")
    await open_table(tg, group, alice, bob)
    tg.roller.push(LOT_ALICE_LOW)
    lobby = live_board(fake, group)
    await press(fake, alice, lobby, "Start")
    assert "The game has started" in fake.message(group, lobby.message_id).plain_text
    assert fake.message(group, lobby.message_id).reply_markup == []

    players = {"Alice": alice, "Bob <b>": bob}
    turn_messages = []
    for turn in range(20):
        board = live_board(fake, group)
        current = alice if turn % 2 == 0 else bob
        other = bob if current is alice else alice
        assert f"tg://user?id={current.id}" in board.text  # the player is mentioned
        assert "round" in board.plain_text and f"{turn // 2 + 1}/10" in board.plain_text
        # Someone else's press is refused privately and changes nothing.
        refused = await press(fake, other, board, "Roll")
        assert refused == f"It's {current.first_name}'s turn."
        tg.roller.push([2, 3, 3, 5, 6])
        await press(fake, current, board, "Roll")
        board = fake.message(group, board.message_id)
        assert "throw 1/3" in board.plain_text
        labels = [b.text for b in board.buttons]
        assert "Twos · 2" in labels or turn // 2 > 1
        box_buttons = [b for b in board.buttons if "·" in b.text]
        assert len(box_buttons) == 10 - turn // 2
        # Score the first open box in sheet order.
        answer = await press(fake, current, board, box_buttons[0].text)
        assert answer.startswith("✍️ "), (box_buttons[0].text, answer)  # what it earned
        done = fake.message(group, board.message_id)
        assert done.reply_markup == [], (turn, done.plain_text)
        assert "wrote" in done.plain_text or "scratched" in done.plain_text
        turn_messages.append(done.message_id)
        assert players  # every player seen
    assert len(set(turn_messages)) == 20  # one message per turn
    await fake.wait_for(lambda: "Score sheet" in fake.bot_messages(group)[-1].plain_text)
    final = fake.bot_messages(group)[-1]
    # Dice 2-3-3-5-6 each turn into boxes in order: Twos 2, Threes 6, Fives 5, Sixes 6.
    assert "Shared win: Alice, Bob <b> with 19 points each." in final.plain_text
    assert "Score sheet" in final.plain_text
    assert "&lt;b&gt;" in final.text  # the name was escaped in the HTML
    ((_, phase, snapshot),) = game_rows(tg.database)
    assert phase == "finished"
    assert json.loads(snapshot)["end_reason"] == "completed"


async def test_solo_game_in_a_private_chat_and_big_general(tg: RunningBot) -> None:
    fake = tg.fake
    solo = fake.user(2001, "Solo", language_code="en")
    chat = fake.private_chat(solo)
    await fake.send_message(solo, chat, "/general start")
    await fake.settle()
    await press(fake, solo, live_board(fake, chat), "Start")
    board = live_board(fake, chat)
    assert "A solo game begins" in board.plain_text
    tg.roller.push([4, 4, 4, 4, 4])
    await press(fake, solo, board, "Roll")
    await fake.wait_for(lambda: "Winner" in fake.bot_messages(chat)[-1].plain_text)
    last = fake.bot_messages(chat)[-1]
    thrown = fake.message(chat, board.message_id).plain_text
    assert "BIG GENERAL" in thrown and thrown.count("🎉") == 1  # the message's own, once
    assert "Winner: Solo" in last.plain_text
    assert all(not m.reply_markup for m in fake.bot_messages(chat)[:-1])
    assert [b.text for b in last.buttons] == ["🔁 Rematch"]  # the final message's only button


async def test_command_with_bot_name_holds_and_the_sheet(tg: RunningBot) -> None:
    fake = tg.fake
    alice = fake.user(1001, "Alice")
    group = fake.chat(-100501, type="group", title="Small group")
    await fake.send_message(alice, group, "/general@general_test_bot start")
    await fake.settle()
    await press(fake, alice, live_board(fake, group), "Start")
    board = live_board(fake, group)
    tg.roller.push([6, 6, 1, 2, 3])
    await press(fake, alice, board, "Roll")
    await press(fake, alice, board, "6")  # hold the first six
    board = fake.message(group, board.message_id)
    assert [b.text for b in board.reply_markup[0]] == ["🔒6", "6", "1", "2", "3"]
    tg.roller.push([6, 6, 6, 5])
    await press(fake, alice, board, "Roll (2 left)")
    board = fake.message(group, board.message_id)
    assert "1️⃣" not in board.plain_text and "6️⃣🔒" in board.plain_text
    assert "Four of a kind · 40" in [b.text for b in board.buttons]  # four sixes on the 2nd throw
    await fake.send_message(alice, group, "/general sheet")
    await fake.settle()
    assert "Score sheet" in fake.bot_messages(group)[-1].plain_text
    await fake.send_message(alice, group, "/general dance")
    await fake.settle()
    assert 'I don\'t know "dance"' in fake.bot_messages(group)[-1].plain_text


async def test_stale_garbage_and_double_tap_change_nothing(tg: RunningBot) -> None:
    fake = tg.fake
    alice = fake.user(1001, "Alice")
    group = fake.chat(-100502, type="supergroup", title="Tests")
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    await press(fake, alice, live_board(fake, group), "Start")
    board = live_board(fake, group)
    tg.roller.push([1, 2, 3, 4, 6, 5, 5, 5, 5, 5])
    # Two taps on Roll race each other: one throw only.
    first = await fake.press(alice, board, "Roll")
    second = await fake.press(alice, board, "Roll")
    answers = {await fake.wait_answer(first), await fake.wait_answer(second)}
    await fake.settle()
    thrown = "The dice have been thrown since — here they are: 1-2-3-4-6."
    assert answers == {(thrown, False), ("🎲 1-2-3-4-6", False)}
    ((_, _, snapshot),) = game_rows(tg.database)
    assert json.loads(snapshot)["turn"]["throws"] == 1
    version = json.loads(snapshot)["version"]
    game_id = json.loads(snapshot)["id"]
    # A stale payload (an older version) is refused and the board is redrawn.
    stale = payload.encode(game_id, version - 1, "r")
    query = await fake.press(alice, board, data=stale)
    assert (await fake.wait_answer(query))[0] == thrown
    # Garbage and forged data get a polite refusal.
    for data in ("garbage", "g1|zzzzzzzz|1|r", payload.encode(game_id, version, "s9") + "x"):
        query = await fake.press(alice, board, data=data)
        text, _ = await fake.wait_answer(query)
        assert text in ("That button is not valid.", "That game is over.")
    # The lobby's Start and computers made up on the turn's board: not valid, for anyone.
    bob = fake.user(1002, "Bob")
    for user in (alice, bob):
        for code in ("b", "ag"):
            query = await fake.press(user, board, data=payload.encode(game_id, version, code))
            assert (await fake.wait_answer(query))[0] == "That button is not valid."
    await fake.settle()
    ((_, _, after),) = game_rows(tg.database)
    assert json.loads(after)["version"] == version
    assert tg.roller.remaining == 5
