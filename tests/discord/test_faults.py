"""Faults from Discord and floods of presses: the game state stays right, play goes on, every
interaction is answered, and the log says WARNING (once), never ERROR."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.discord.kit import (
    RunningBot,
    bot_messages,
    button,
    handled,
    live_board,
    press,
    running_bot,
    slash,
)
from tests.fakes.discord import (
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    PERMISSIONS,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeGuild,
)
from tests.kit import game_rows

LOT_ALICE_LOW = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]


def stored(dc: RunningBot) -> dict[str, Any]:
    rows = game_rows(dc.database)
    return json.loads(rows[-1][2])  # type: ignore[no-any-return]


def warnings(caplog: pytest.LogCaptureFixture, text: str) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.name.startswith("adapters.discord") and text in r.getMessage()
    ]


@pytest.mark.parametrize("fault", [503, "drop"])
async def test_a_failed_board_edit_loses_nothing(
    dc: RunningBot, fault: int | str, caplog: pytest.LogCaptureFixture
) -> None:
    fake = dc.fake
    alice, bob = fake.member(dc.guild, "Alice"), fake.member(dc.guild, "Bob")
    lobby = (await slash(fake, alice, dc.channel, "start")).original
    assert lobby is not None
    # Bob's /general join is answered; the lobby's redraw (a channel edit) fails.
    fake.fail_next("PATCH", "/channels/*/messages/*", fault)
    joined = await slash(fake, bob, dc.channel, "join")
    assert joined.texts() == ["Bob sat down at the table."]
    assert len(stored(dc)["seats"]) == 2  # saved
    assert "Seated (1): Alice" in lobby.content  # only the edit was lost
    (said,) = warnings(caplog, "discord failed")
    assert said.levelno == logging.WARNING
    # The lobby still shows the old version; what Alice saw (an open table) is still so: her
    # Start counts, for the table as it is, and the lobby is redrawn as its answer.
    dc.roller.push(LOT_ALICE_LOW)
    began = await press(fake, alice, lobby, "b")
    assert began.response is not None and began.response.type == UPDATE_MESSAGE
    assert began.ephemeral_texts() == []
    assert "Seated (2)" in lobby.content and not lobby.buttons
    board = live_board(fake, dc.channel)
    assert f"<@{alice.id}>'s turn" in board.content
    # The answer to a press (its own redraw) dropped: saved, answered, redrawn at the next press.
    fake.fail_next("POST", "/interactions/*/*/callback", "drop")
    dc.roller.push([1, 2, 3, 4, 6])
    lost = await press(fake, alice, board, "r")
    assert lost.response is not None and lost.response.type == DEFERRED_UPDATE_MESSAGE
    assert stored(dc)["turn"]["throws"] == 1 and "throw 0/3" in board.content
    await press(fake, alice, board, "r")
    assert "throw 1/3" in board.content
    dc.roller.push([5, 5, 5, 5])
    await press(fake, alice, board, "h0")  # hold the one, throw the other four
    await press(fake, alice, board, "r")
    assert stored(dc)["turn"]["throws"] == 2 and "throw 2/3" in board.content


async def test_a_5xx_on_an_answer_is_retried(dc: RunningBot) -> None:
    fake = dc.fake
    solo = fake.member(dc.guild, "Solo")
    lobby = (await slash(fake, solo, dc.channel, "start")).original
    assert lobby is not None
    await press(fake, solo, lobby, "b")
    board = live_board(fake, dc.channel)
    fake.fail_next("POST", "/interactions/*/*/callback", 500)  # discord.py tries again
    dc.roller.push([2, 2, 2, 3, 4])
    rolled = await press(fake, solo, board, "r")
    assert rolled.response is not None and rolled.response.type == UPDATE_MESSAGE
    assert "throw 1/3" in board.content


async def test_a_deleted_board_is_posted_again(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob = fake.member(dc.guild, "Alice"), fake.member(dc.guild, "Bob")
    lobby = (await slash(fake, alice, dc.channel, "start")).original
    assert lobby is not None
    lobby.deleted = True  # someone deleted the lobby message
    joined = await slash(fake, bob, dc.channel, "join")
    assert joined.texts() == ["Bob sat down at the table."]
    again = live_board(fake, dc.channel)
    assert again is not lobby and "Seated (2): Alice, Bob" in again.content
    dc.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, again, "b")  # the new message is the board now
    assert "Alice starts." in live_board(fake, dc.channel).content


def set_sending(fake: FakeDiscord, guild: FakeGuild, allowed: bool) -> None:
    """Give or take the bot's right to send messages (from its role and from @everyone)."""
    bit = PERMISSIONS["send_messages"]
    for role in (guild.everyone, *(r for r in guild.roles.values() if r.bot_id)):
        role.permissions = role.permissions | bit if allowed else role.permissions & ~bit


async def test_no_right_to_send_keeps_the_game_and_says_so_once(
    dc: RunningBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = dc.fake
    alice = fake.member(dc.guild, "Alice")
    lobby = (await slash(fake, alice, dc.channel, "start")).original
    assert lobby is not None
    set_sending(fake, dc.guild, False)
    started = await press(fake, alice, lobby, "b")  # the first turn's message is refused
    assert started.ephemeral_texts()[-1].startswith("I can't post in this channel")
    assert stored(dc)["phase"] == "playing"  # the game is kept
    again = await slash(fake, alice, dc.channel, "start")  # shows the board again: refused too
    assert again.ephemeral_texts()[0] == "A game is already open at this table."
    said = warnings(caplog, "cannot write in channel")
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert not [m for m in bot_messages(fake, dc.channel) if m.buttons]
    # Allowed again: the next interaction at the table brings its board back.
    set_sending(fake, dc.guild, True)
    await slash(fake, alice, dc.channel, "sheet")
    board = live_board(fake, dc.channel)
    assert f"<@{alice.id}>'s turn · round 1/10" in board.content
    dc.roller.push([4, 4, 4, 1, 2])
    await press(fake, alice, board, "r")
    assert "throw 1/3" in board.content


async def test_the_flood_limit(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Flood")
    channel = fake.text_channel(guild, "flood")
    alice = fake.member(guild, "Alice")
    limits = {"general_flood_burst": 3, "general_flood_rate": 0.01}
    async with running_bot(fake, tmp_path / "general.db", monkeypatch, **limits):
        lobby = (await slash(fake, alice, channel, "start")).original  # 1
        assert lobby is not None
        await press(fake, alice, lobby, "b")  # 2
        board = live_board(fake, channel)
        sheet = await press(fake, alice, board, "v")  # 3
        assert sheet.ephemeral_texts()[0].startswith("**Score sheet**")
        slowed = await press(fake, alice, board, "v")
        assert slowed.ephemeral_texts() == ["Slow down a little, please: too many presses at once."]
        dropped = await press(fake, alice, board, "r")  # said once: now quietly dropped
        assert dropped.response is not None and dropped.response.type == DEFERRED_UPDATE_MESSAGE
        assert dropped.ephemeral_texts() == [] and "throw 0/3" in board.content
        command = await slash(fake, alice, channel, "sheet")
        assert command.response is not None
        assert command.response.type == DEFERRED_CHANNEL_MESSAGE and command.texts() == []
        other = fake.member(guild, "Bob")  # the limit is per person
        assert (await slash(fake, other, channel, "help")).ephemeral_texts()
    assert fake.expired == []


async def test_fifty_presses_at_once_apply_once(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob = fake.member(dc.guild, "Alice"), fake.member(dc.guild, "Bob")
    lobby = (await slash(fake, alice, dc.channel, "start")).original
    assert lobby is not None
    await press(fake, bob, lobby, "j")
    dc.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "b")
    board = live_board(fake, dc.channel)
    dc.roller.push([2, 3, 3, 5, 6] * 2)
    roll = button(board, "r").custom_id
    taps = [await fake.press(alice, board, custom_id=roll) for _ in range(50)]
    await asyncio.gather(*(handled(tap) for tap in taps))
    assert all(tap.response is not None for tap in taps)  # every one acknowledged
    assert stored(dc)["turn"]["throws"] == 1 and dc.roller.remaining == 5
    texts = [tuple(tap.ephemeral_texts()) for tap in taps]
    thrown = "The dice have been thrown since — here they are: 2-3-3-5-6."  # not seen yet
    assert texts.count(()) == 1 and texts.count((thrown,)) == 49
    assert "throw 1/3" in board.content
    assert len(board.edits) == 1  # drawn once: the other 49 did not edit it again
