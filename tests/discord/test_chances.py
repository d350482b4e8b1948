"""Standings, win chances and the Grandmaster through the real discord.py and the fake Discord."""

from __future__ import annotations

from tests.discord.kit import RunningBot, live_board, open_table, press, slash
from tests.kit import LOT_ALICE_LOW


async def test_the_board_and_the_chances_command_in_a_channel(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob = fake.member(dc.guild, "Alice"), fake.member(dc.guild, "Bob")
    lobby = await open_table(dc, dc.channel, alice, bob)
    assert "🤖 + Grandmaster" in [b.label for b in lobby.buttons]
    dc.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "b")
    board = live_board(fake, dc.channel)
    assert "🏅 1. Alice 0 · 1. Bob 0" in board.content
    assert "🎯 Chances to win: Alice 50% · Bob 50%" in board.content
    asked = await slash(fake, bob, dc.channel, "chances")
    said = asked.original
    assert said is not None and "Chances to win, if everyone plays the best" in said.content
