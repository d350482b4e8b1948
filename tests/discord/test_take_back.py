"""Taking back a mis-tapped box on Discord: the press redraws the next player's board as the
writer's turn (the interaction's own response), no new message; anyone else is told privately."""

from __future__ import annotations

from tests.discord.kit import (
    RunningBot,
    bot_messages,
    has_button,
    labels,
    live_board,
    open_table,
    press,
)
from tests.fakes.discord import UPDATE_MESSAGE
from tests.kit import LOT_ALICE_LOW


async def test_the_writer_takes_back_the_box_on_the_next_board(dc: RunningBot) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    bob = fake.member(dc.guild, "Bob")
    lobby = await open_table(dc, dc.channel, alice, bob)
    dc.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "b")
    board = live_board(fake, dc.channel)
    dc.roller.push([5, 5, 5, 2, 3])
    await press(fake, alice, board, "r")
    await press(fake, alice, board, "h0")
    await press(fake, alice, board, "s9")  # General · 0: a mis-tap
    bobs = live_board(fake, dc.channel)
    assert bobs is not board and f"<@{bob.id}>'s turn" in bobs.content
    assert labels(bobs) == ["🎲 Roll the dice", "📋 Sheet", "↩ Take back"]
    assert len(bobs.components) == 2  # the take-back on a row of its own
    sent, edits = len(bot_messages(fake, dc.channel)), len(bobs.edits)

    refused = await press(fake, bob, bobs, "u")
    assert refused.ephemeral_texts() == [
        "Only the player who wrote that box can take it back: Alice."
    ]
    assert len(bobs.edits) == edits

    taken = await press(fake, alice, bobs, "u")
    assert taken.response is not None and taken.response.type == UPDATE_MESSAGE
    assert len(bot_messages(fake, dc.channel)) == sent  # no new message
    lines = bobs.content.splitlines()
    assert lines[0] == "↩ Alice took back General (0)."
    assert lines[1].startswith(f"<@{alice.id}>'s turn · round 1/10 · throw 1/3")
    assert "# 5️⃣🔒  5️⃣  5️⃣  2️⃣  3️⃣" in bobs.content  # the same dice, the first held
    assert labels(bobs)[:5] == ["🔒 5", "5", "5", "2", "3"] and not has_button(bobs, "u")
    assert len(bobs.components) <= 5 and all(len(row) <= 5 for row in bobs.components)
