"""Turn timers through Discord: deadlines survive a restart; the host kicks a player."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from core.dice import SeededRoller
from tests.discord.kit import RunningBot, bot_messages, live_board, press, running_bot, slash
from tests.fakes.discord import FakeDiscord
from tests.kit import LOT_ALICE_LOW, age_the_turn


async def test_deadlines_that_passed_while_down_fire_at_start_up(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake.guild("Clock")
    channel = fake.text_channel(guild, "clock")
    alice, bob = fake.member(guild, "Alice"), fake.member(guild, "Bob")
    database = tmp_path / "general.db"
    async with running_bot(fake, database, monkeypatch) as (_, roller):
        lobby = (await slash(fake, alice, channel, "start")).original
        assert lobby is not None
        await press(fake, bob, lobby, "j")
        roller.push(LOT_ALICE_LOW)
        await press(fake, alice, lobby, "b")
        old_board = live_board(fake, channel)
        assert f"<@{alice.id}>'s turn" in old_board.content
    age_the_turn(database, 3600)  # the ten minutes are long gone
    async with running_bot(fake, database, monkeypatch, roller=SeededRoller(1)):
        await fake.wait_for(
            lambda: any("Time is up for Alice" in m.content for m in bot_messages(fake, channel))
        )
        await fake.settle()
        reminder = next(m for m in bot_messages(fake, channel) if "half your time" in m.content)
        # A new message that mentions Alice, and may notify nobody else.
        assert reminder.content.startswith(f"⏰ <@{alice.id}>, half your time is gone")
        assert [u["id"] for u in reminder.payload["mentions"]] == [alice.id]
        (sent,) = [
            r for r in fake.requests if r.method == "POST" and "half your time" in str(r.body)
        ]
        allowed = sent.body["allowed_mentions"]
        assert allowed["parse"] == [] and [str(u) for u in allowed["users"]] == [alice.id]
        # The bot played Alice's turn for her: her board keeps what was written, Bob's is next.
        assert old_board.buttons == []
        assert "wrote" in old_board.content or "scratched" in old_board.content
        board = live_board(fake, channel)
        assert f"<@{bob.id}>'s turn" in board.content and "Time is up for Alice" in board.content
        assert [u["id"] for u in board.payload["mentions"]] == [bob.id]
    with sqlite3.connect(database) as db:
        seats = json.loads(db.execute("SELECT snapshot FROM games").fetchone()[0])["seats"]
    assert [s["missed"] for s in seats] == [1, 0]


async def test_the_host_kicks_a_player(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob = fake.member(dc.guild, "Alice"), fake.member(dc.guild, "Bob")
    cid, dan = fake.member(dc.guild, "Cid"), fake.member(dc.guild, "Dan")
    lobby = (await slash(fake, alice, dc.channel, "start")).original
    assert lobby is not None
    await press(fake, bob, lobby, "j")
    await press(fake, cid, lobby, "j")
    refused = await slash(fake, bob, dc.channel, "kick", player=cid)
    assert refused.ephemeral_texts() == ["Only the host (Alice) can do that."]
    nobody = await slash(fake, alice, dc.channel, "kick", player=dan)
    assert nobody.ephemeral_texts() == ["Dan is not playing at this table."]
    herself = await slash(fake, alice, dc.channel, "kick", player=alice)
    assert herself.ephemeral_texts() == ["To leave the table yourself, use /general leave."]
    kicked = await slash(fake, alice, dc.channel, "kick", player=cid)
    assert kicked.texts() == ["The host removed Cid from the table."]
    assert "Seated (2): Alice, Bob" in lobby.content
    # During the game: the player whose turn it is, removed, passes the turn on.
    dc.roller.push([6, 6, 6, 6, 5, 1, 1, 1, 1, 2])  # Alice 29, Bob 6: Bob starts
    await press(fake, alice, lobby, "b")
    board = live_board(fake, dc.channel)
    assert f"<@{bob.id}>'s turn" in board.content
    await slash(fake, alice, dc.channel, "kick", player=bob)
    assert board.buttons == [] and "The host removed Bob from the table." in board.content
    following = live_board(fake, dc.channel)
    assert f"<@{alice.id}>'s turn" in following.content
    assert "The host removed Bob from the table." not in following.content  # said above
    said = [m for m in bot_messages(fake, dc.channel) if "The host removed Bob" in m.content]
    assert said == [board]  # once: the board it ended says it, nothing else
