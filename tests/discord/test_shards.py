"""Gateway sharding: every guild is served through the shard Discord assigns it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings
from tests.discord.kit import live_board, running_bot, slash
from tests.fakes.discord import FakeDiscord


@pytest.mark.slow
async def test_one_process_runs_all_shards(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guilds = []
    for n in range(6):  # a guild's shard comes from its id's time: space them a little apart
        guilds.append(fake.guild(name=f"Club {n}"))
        await asyncio.sleep(0.003)
    shard_of = {g.id: (int(g.id) >> 22) % 2 for g in guilds}
    assert set(shard_of.values()) == {0, 1}, "the guilds should fall on both shards"
    async with running_bot(fake, tmp_path / "g.db", monkeypatch, discord_shard_count=2):
        assert sorted(tuple(s.shard) for s in fake._sessions if s.alive and s.shard) == [
            (0, 2),
            (1, 2),
        ]
        for guild in guilds:
            channel = fake.text_channel(guild)
            member = fake.member(guild, f"Host of {guild.name}")
            await slash(fake, member, channel, "start")
            assert "A table of General is open" in live_board(fake, channel).content


def test_shard_settings_are_checked() -> None:
    assert Settings(_env_file=None, discord_shard_count=4, discord_shard_ids="0, 2").shard_ids == (
        0,
        2,
    )  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        Settings(_env_file=None, discord_shard_ids="1")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        Settings(_env_file=None, discord_shard_count=2, discord_shard_ids="2")  # type: ignore[call-arg]
