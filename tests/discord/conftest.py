"""Fixtures: the fake Discord on 127.0.0.1, the real bot entry against it, and a record of the
interactions the bot has finished with."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from adapters.discord import answer
from tests.discord.kit import TOKEN, Handled, RunningBot, running_bot, watching
from tests.fakes.discord import FakeDiscord


@pytest.fixture(autouse=True)
def _track_handled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    logger = logging.getLogger(answer.__name__)
    monkeypatch.setattr(logger, "level", logging.DEBUG)
    handler = Handled()
    logger.addHandler(handler)
    with watching(handler):
        yield
    logger.removeHandler(handler)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN) as server:
        yield server
        server.assert_clean()


@pytest.fixture
async def dc(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[RunningBot]:
    guild = fake.guild("Dice club")
    channel = fake.text_channel(guild, "general")
    database = tmp_path / "general.db"
    async with running_bot(fake, database, monkeypatch) as (front, roller):
        yield RunningBot(fake, roller, database, front, guild, channel)
