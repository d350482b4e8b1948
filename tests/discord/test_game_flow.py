"""Whole games of General played by pressing buttons, through discord.py and the fake Discord."""

from __future__ import annotations

import json

from core.actions import Start
from core.identity import ChannelKey, PlayerRef
from tests.discord.kit import (
    RunningBot,
    bot_messages,
    button,
    has_button,
    live_board,
    open_table,
    press,
    slash,
)
from tests.fakes.discord import UPDATE_MESSAGE
from tests.kit import LOT_ALICE_LOW, game_rows


async def test_two_player_game_to_the_final_sheet(dc: RunningBot) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    bob = fake.member(dc.guild, "Bob", nick="Bob *the* _great_ @everyone")  # to be escaped
    bob_shown = r"Bob \*the\* \_great\_ @" + "\u200beveryone"
    lobby = await open_table(dc, dc.channel, alice, bob)
    assert f"Seated (2): Alice, {bob_shown}" in lobby.content
    dc.roller.push(LOT_ALICE_LOW)
    started = await press(fake, alice, lobby, "b")
    assert started.response is not None and started.response.type == UPDATE_MESSAGE
    assert "The game has started." in lobby.content and lobby.buttons == []

    first = live_board(fake, dc.channel)
    assert "Drawing lots: the lowest total goes first." in first.content
    assert "Alice: 1-1-1-1-2 = 6" in first.content and "Alice starts." in first.content

    turn_messages = []
    for turn in range(20):
        board = live_board(fake, dc.channel)
        current, other = (alice, bob) if turn % 2 == 0 else (bob, alice)
        round_ = turn // 2 + 1
        # A new message per turn, mentioning (and notifying) only the player whose turn it is.
        assert f"<@{current.id}>'s turn · round {round_}/10 · throw 0/3" in board.content
        assert [u["id"] for u in board.payload["mentions"]] == [current.id]
        sent = [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]
        allowed = sent[-1].body["allowed_mentions"]
        assert allowed["parse"] == [] and [str(u) for u in allowed["users"]] == [current.id]
        # Someone else's press is refused privately and changes nothing.
        edits = len(board.edits)
        refused = await press(fake, other, board, "r")
        name = "Alice" if current is alice else bob_shown
        assert refused.ephemeral_texts() == [f"It's {name}'s turn."]
        assert len(board.edits) == edits
        # The roll redraws the same message (type 7): the dice, drawn large, and the boxes.
        dc.roller.push([2, 3, 3, 5, 6])
        rolled = await press(fake, current, board, "r")
        assert rolled.response is not None and rolled.response.type == UPDATE_MESSAGE
        assert f"round {round_}/10 · throw 1/3" in board.content
        assert "# 2️⃣  3️⃣  3️⃣  5️⃣  6️⃣" in board.content
        assert "2 throws left" in board.content
        labels = [b.label for b in board.buttons]
        assert labels[:5] == ["2", "3", "3", "5", "6"]  # one toggle per die
        assert labels[5:7] == ["🎲 Roll (2 left)", "📋 Sheet"]
        boxes = [b for b in board.buttons if " · " in (b.label or "")]
        assert len(boxes) == 10 - turn // 2
        if turn < 2:
            assert [b.label for b in boxes] == [
                "Ones · 0", "Twos · 2", "Threes · 6", "Fours · 0", "Fives · 5",
                "Sixes · 6", "Straight · 0", "Full house · 0", "Four of a kind · 0", "General · 0",
            ]  # fmt: skip
        assert len(board.components) <= 5 and all(len(row) <= 5 for row in board.components)
        # Scoring the first open box: the message keeps what was written and loses its buttons.
        scored = await press(fake, current, board, button_code(boxes[0].custom_id))
        assert scored.response is not None and scored.response.type == UPDATE_MESSAGE
        assert board.buttons == [], (turn, board.content)
        assert "wrote" in board.content or "scratched" in board.content
        turn_messages.append(board.id)
    assert len(set(turn_messages)) == 20  # one message per turn
    final = bot_messages(fake, dc.channel)[-1]
    # Dice 2-3-3-5-6 each turn into boxes in order: Twos 2, Threes 6, Fives 5, Sixes 6.
    assert "The game is over." in final.content
    assert f"Shared win: Alice, {bob_shown} with 19 points each." in final.content
    assert "**Score sheet**" in final.content and "```" in final.content
    assert "Total" in final.content and "Bob *t…" in final.content  # raw inside the code block
    assert all(not m.buttons for m in bot_messages(fake, dc.channel)[:-1])
    assert [b.label for b in final.buttons] == ["🔁 Rematch"]  # the final message's only button
    ((_, phase, snapshot),) = game_rows(dc.database)
    assert phase == "finished" and json.loads(snapshot)["end_reason"] == "completed"


def button_code(custom_id: str | None) -> str:
    assert custom_id is not None
    return custom_id.rsplit("|", 1)[1]


async def test_solo_game_ends_with_a_big_general(dc: RunningBot) -> None:
    fake = dc.fake
    solo = fake.member(dc.guild, "Solo")
    lobby = await open_table(dc, dc.channel, solo)
    await press(fake, solo, lobby, "b")
    board = live_board(fake, dc.channel)
    assert "A solo game begins. Good luck, Solo!" in board.content
    assert f"<@{solo.id}>'s turn · round 1/10" in board.content
    dc.roller.push([1, 2, 3, 4, 6])
    await press(fake, solo, board, "r")
    await press(fake, solo, board, "s0")  # Ones: 1
    assert "Solo wrote 1 in Ones." in board.content
    board = live_board(fake, dc.channel)
    assert "round 2/10" in board.content
    dc.roller.push([4, 4, 4, 4, 4])
    await press(fake, solo, board, "r")
    assert "BIG GENERAL! Solo threw 4-4-4-4-4" in board.content and board.buttons == []
    final = bot_messages(fake, dc.channel)[-1]
    assert final is not board
    assert "BIG GENERAL" not in final.content  # the board just above said it
    assert "Solo threw a big general and wins at once." in final.content
    assert "🏆 Winner: Solo, with a big general." in final.content and "```" in final.content
    assert all(not m.buttons for m in bot_messages(fake, dc.channel)[:-1])
    assert [b.label for b in final.buttons] == ["🔁 Rematch"]  # the final message's only button
    ((_, phase, snapshot),) = game_rows(dc.database)
    assert phase == "finished" and json.loads(snapshot)["end_reason"] == "big_general"


async def test_holds_the_sheet_button_and_the_sheet_command(dc: RunningBot) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    bob = fake.member(dc.guild, "Bob")
    lobby = await open_table(dc, dc.channel, alice, bob)
    dc.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "b")
    board = live_board(fake, dc.channel)
    dc.roller.push([6, 6, 1, 2, 3])
    await press(fake, alice, board, "r")
    held = await press(fake, alice, board, "h0")
    assert held.response is not None and held.response.type == UPDATE_MESSAGE
    await press(fake, alice, board, "h1")
    assert [b.label for b in board.buttons[:5]] == ["🔒 6", "🔒 6", "1", "2", "3"]
    assert "6️⃣🔒  6️⃣🔒  1️⃣" in board.content
    dc.roller.push([6, 6, 5])
    await press(fake, alice, board, "r")
    assert "throw 2/3" in board.content and "6️⃣🔒  6️⃣🔒  6️⃣  6️⃣  5️⃣" in board.content
    assert "Four of a kind · 40" in [b.label for b in board.buttons]  # four sixes on the 2nd throw
    dc.roller.push([6])
    await press(fake, alice, board, "h2")
    await press(fake, alice, board, "h3")
    await press(fake, alice, board, "r")
    assert "throw 3/3" in board.content and "No throws left" in board.content
    assert not has_button(board, "r") and not has_button(board, "h0")  # no holds, no roll
    assert "General · 60" in [b.label for b in board.buttons]

    # The sheet button shows the sheet to the presser only (Bob may look too).
    edits = len(board.edits)
    sheet = await press(fake, bob, board, "v")
    (text,) = sheet.ephemeral_texts()
    assert text.startswith("**Score sheet**\n```") and "Alice" in text and "Bob" in text
    assert len(board.edits) == edits  # the sheet changed nothing
    await press(fake, alice, board, "s9")  # General 60
    shown = await slash(fake, bob, dc.channel, "sheet")
    (public,) = shown.texts()
    assert not shown.original.ephemeral  # type: ignore[union-attr]
    assert "General" in public and "60" in public and public.count("```") == 2
    assert button(live_board(fake, dc.channel), "r").label == "🎲 Roll the dice"


async def test_a_thread_is_a_table_of_its_own(dc: RunningBot) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    bob = fake.member(dc.guild, "Bob")
    thread = fake.thread(dc.channel, "table-2")
    channel_lobby = await open_table(dc, dc.channel, alice)
    thread_lobby = await open_table(dc, thread, bob, alice)
    assert channel_lobby.channel is dc.channel and thread_lobby.channel is thread
    assert "Seated (1): Alice" in channel_lobby.content
    assert "Seated (2): Bob, Alice" in thread_lobby.content
    dc.roller.push([6, 6, 6, 6, 5, 1, 1, 1, 1, 2])  # Bob 29, Alice 6: Alice starts
    await press(fake, bob, thread_lobby, "b")
    board = live_board(fake, thread)
    assert board.channel is thread and f"<@{alice.id}>'s turn" in board.content
    dc.roller.push([5, 5, 5, 1, 2])
    await press(fake, alice, board, "r")
    assert "throw 1/3" in board.content
    # The channel's own table is untouched: still a lobby, with its buttons.
    assert channel_lobby.buttons and "Seated (1): Alice" in channel_lobby.content
    assert [m.channel for m in bot_messages(fake, thread)] == [thread, thread]
    channels = sorted(channel for channel, _, _ in game_rows(dc.database))
    assert channels == sorted([f"dc:{dc.channel.id}:", f"dc:{thread.id}:"])
    stopped = await slash(fake, bob, thread, "stop")
    assert stopped.texts()[0].startswith("The game was cancelled.")
    assert "```" in stopped.texts()[0]  # the sheet of the game as it stood
    assert board.buttons == [] and "The game was cancelled." not in board.content  # once
    assert channel_lobby.buttons  # still open


async def test_an_action_made_without_an_interaction_is_shown(dc: RunningBot) -> None:
    """`publish` shows what the service did by itself (for moves no button made)."""
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    lobby = await open_table(dc, dc.channel, alice)
    channel = ChannelKey("dc", dc.channel.id)
    outcome = await dc.front.service.act(channel, PlayerRef(alice.id, "Alice"), Start())
    await dc.front.publish(channel, outcome)
    assert "The game has started." in lobby.content and lobby.buttons == []
    board = live_board(fake, dc.channel)
    assert f"<@{alice.id}>'s turn · round 1/10" in board.content
    dc.roller.push([2, 2, 2, 2, 3])
    await press(fake, alice, board, "r")  # the board it sent is the live one
    assert "throw 1/3" in board.content
