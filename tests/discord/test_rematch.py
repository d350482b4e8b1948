"""Rematch on Discord: the final message's button opens a new lobby with the same players, the
presser hosting; outsiders and second presses are answered ephemerally; and the button of a final
message sent before a SIGKILL works in the next process."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.discord.kit import TOKEN, RunningBot, bot_messages, live_board, open_table, press, slash
from tests.discord.test_resilience import BotProcess, board_or_end, remote_press, remote_slash
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMessage
from tests.process import BASE, on_discord

ROOT = Path(__file__).resolve().parents[2]
REMATCH = "🔁 Rematch"
BIG = [3, 3, 3, 3, 3]
LOT_BOB_LOW = [6, 6, 6, 6, 5, 1, 1, 1, 1, 2, 5, 5, 5, 5, 4]  # Alice, Bob, Novice: Bob starts
# With these dice Alice and a Novice draw lots, Alice starts and throws a big general at once.
SEED_ALICE_BIG = "12417"
NOT_PLAYED = "Only the players of that game can call its rematch."


def final_or_none(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    """The final message (the newest with the Rematch button), if it came yet."""
    found = [m for m in bot_messages(fake, channel) if [b.label for b in m.buttons] == [REMATCH]]
    return found[-1] if found else None


def final_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    final = final_or_none(fake, channel)
    assert final is not None, [m.content for m in bot_messages(fake, channel)]
    return final


async def test_rematch_seats_everyone_again_with_the_presser_hosting(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob, carol = (fake.member(dc.guild, name) for name in ("Alice", "Bob", "Carol"))
    lobby = await open_table(dc, dc.channel, alice, bob)
    await press(fake, alice, lobby, "an")
    dc.roller.push(LOT_BOB_LOW)
    await press(fake, alice, lobby, "b")
    dc.roller.push(BIG)
    await press(fake, bob, live_board(fake, dc.channel), "r")
    final = final_message(fake, dc.channel)
    assert "Winner: Bob" in final.content and final is bot_messages(fake, dc.channel)[-1]
    sent = len(bot_messages(fake, dc.channel))

    refused = await press(fake, carol, final, "m")  # Carol did not play
    assert refused.ephemeral_texts() == [NOT_PLAYED]
    assert len(bot_messages(fake, dc.channel)) == sent

    opened = await press(fake, alice, final, "m")
    assert opened.ephemeral_texts() == []
    (rematch,) = bot_messages(fake, dc.channel)[sent:]
    assert "A table of General is open" in rematch.content and "Host: Alice" in rematch.content
    assert "Seated (3): Alice, Bob, 🤖 Novice" in rematch.content
    assert live_board(fake, dc.channel) is rematch and final.buttons  # the final keeps it

    for again in (alice, bob):  # a double tap, or a second player: the rematch is open already
        answer = await press(fake, again, final, "m")
        assert answer.ephemeral_texts() == ["That game's rematch is already open at this table."]
    assert len(bot_messages(fake, dc.channel)) == sent + 1
    await press(fake, bob, rematch, "l")  # who does not want to play leaves, as in any lobby
    assert "Seated (2): Alice, 🤖 Novice" in rematch.content


async def test_a_cancelled_game_offers_no_rematch(dc: RunningBot) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    await open_table(dc, dc.channel, alice)
    await slash(fake, alice, dc.channel, "stop")
    assert all(not m.buttons for m in bot_messages(fake, dc.channel))


async def start_bot(fake: FakeDiscord, database: Path) -> BotProcess:
    """`python -m bot` on the fake with dice of SEED_ALICE_BIG, once it is ready."""
    env = {
        **os.environ,
        **BASE,
        **on_discord(fake),
        "GENERAL_DATABASE": str(database),
        "GENERAL_DICE_SEED": SEED_ALICE_BIG,
        "GENERAL_LOG_LEVEL": "INFO",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    bot = BotProcess(proc)
    await bot.ready()
    return bot


@pytest.mark.slow
async def test_the_rematch_button_works_after_a_sigkill(tmp_path: Path) -> None:
    database = tmp_path / "general.db"
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.guild("Dice club")
        channel = fake.text_channel(guild, "general")
        alice, bob = fake.member(guild, "Alice"), fake.member(guild, "Bob")
        first = await start_bot(fake, database)
        try:
            lobby = (await remote_slash(fake, alice, channel, "start")).original
            assert lobby is not None
            await remote_press(fake, alice, lobby, "an")
            await remote_press(fake, alice, lobby, "b")
            board = await fake.wait_for(lambda: board_or_end(fake, channel))
            await remote_press(fake, alice, board, "r")
            # The final message follows the last press by a moment (its review is made first).
            final = await fake.wait_for(lambda: final_or_none(fake, channel))
            assert "Winner: Alice" in final.content
        finally:
            await first.kill()
        assert first.errors() == [], first.log

        second = await start_bot(fake, database)
        try:
            sent = len(bot_messages(fake, channel))
            refused = await remote_press(fake, bob, final, "m")
            assert refused.ephemeral_texts() == [NOT_PLAYED]
            await remote_press(fake, alice, final, "m")
            (rematch,) = bot_messages(fake, channel)[sent:]
            assert "Host: Alice" in rematch.content
            assert "Seated (2): Alice, 🤖 Novice" in rematch.content
            assert await second.terminate() == 0
        finally:
            if second.proc.returncode is None:
                await second.kill()
        assert second.errors() == [], second.log
        fake.assert_clean()
